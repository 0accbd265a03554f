package mcp

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// Values taken from notes (titles, ids, tags, aliases, property keys and
// values, snippets, warnings that quote them) are written into Markdown
// answers through safeTree, so that no note can change an answer's
// structure: add a heading, a list item, a table, a code block or HTML.

// safeTree returns t with every string in it, keys of nested objects
// included, made safe for a Markdown answer: mdText, except the rows'
// snippets and content (previews), which keep their inline Markdown
// (mdSnippet), and a note's own content (top-level "content"), which is
// the note as it is, with a code fence it leaves open closed.
func safeTree(t toon.Object) toon.Object {
	out := make(toon.Object, len(t))
	for i, f := range t {
		if s, ok := f.Value.(string); ok && f.Key == "content" {
			out[i] = toon.Field{Key: f.Key, Value: closeFence(s)}
			continue
		}
		out[i] = toon.Field{Key: f.Key, Value: safeValue(f.Value, f.Key)}
	}
	return out
}

// safeValue is v, found under key, made safe (see safeTree).
func safeValue(v any, key string) any {
	switch x := v.(type) {
	case string:
		if key == "content" || key == "snippet" || key == "context" {
			return mdSnippet(x)
		}
		return mdText(x)
	case []any:
		return mapped(x, func(e any) any { return safeValue(e, key) })
	case toon.Object:
		out := make(toon.Object, len(x))
		for i, f := range x {
			out[i] = toon.Field{Key: mdText(f.Key), Value: safeValue(f.Value, f.Key)}
		}
		return out
	}
	return v
}

// mdText writes s as plain text on one line of Markdown, wherever on the
// line it goes: control characters and line breaks folded into one space,
// spaces around it trimmed, and each character that could start inline
// Markdown escaped with a backslash: * ` | ~ anywhere (emphasis, code, a
// table cell, strikethrough), < before a letter, / ! or ? (HTML, an
// autolink), ] before ( (a link or image), _ outside a word, \ before
// punctuation or at the end, # at the start of a word (a heading's
// closing #s); and its start as for a line (lineStart).
func mdText(s string) string {
	s = foldLine(s)
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		switch {
		case strings.ContainsRune("*`|~", r),
			r == '<' && next < 0x80 && (isWordRune(next) || strings.ContainsRune("/!?", next)),
			r == ']' && next == '(',
			r == '_' && !(isWordRune(prev) && isWordRune(next)),
			r == '\\' && (i+size == len(s) || next < 0x80 && (unicode.IsPunct(next) || unicode.IsSymbol(next))),
			r == '#' && (i == 0 || unicode.IsSpace(prev)):
			b.WriteByte('\\')
		}
		b.WriteString(s[i : i+size]) // an invalid byte as it is
		i += size
	}
	return lineStart(b.String())
}

// mdSnippet writes s, a snippet or preview of a note's text, on one line
// of Markdown: its inline Markdown (bold marks, links, code) kept, but
// nothing that makes blocks: lines folded, its start escaped as for a
// line (lineStart), each "|" not escaped yet escaped (a table cell), and
// its backticks escaped when they are not balanced (a code span cut open
// would take in what follows).
func mdSnippet(s string) string {
	s = foldLine(s)
	var b strings.Builder
	backslashes := 0
	for i := 0; i < len(s); i++ {
		r := s[i] // bytes: a "|" or a backslash is never part of another character
		if r == '|' && backslashes%2 == 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(r)
		if r == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
	}
	s = b.String()
	if strings.Count(s, "`")%2 == 1 {
		s = strings.ReplaceAll(s, "`", "\\`")
	}
	return lineStart(s)
}

// foldLine folds each run of control characters and line or paragraph
// separators in s into one space, and trims the spaces around s.
func foldLine(s string) string {
	if strings.IndexFunc(s, isLineBreak) < 0 {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(strings.Join(strings.FieldsFunc(s, isLineBreak), " "))
}

// isLineBreak reports whether r may break a line: a control character
// (tab, CR, LF, NEL...) or U+2028, U+2029.
func isLineBreak(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

// lineStart escapes the start of s, which may begin a line or a list
// item's text, when it would start a block there: a heading (#), quote
// (>), list item ("- ", "+ ", "* ", digits and . or )), thematic break or
// setext underline (- _ * =), fence (``` ~~~), HTML (<), table (| :), a
// task box ("[ ]", "[x]") or a link reference definition ("[x]: ").
func lineStart(s string) string {
	if s == "" {
		return s
	}
	c := s[0]
	switch {
	case strings.ContainsRune("#>-+=_<|:", rune(c)),
		c == '*' && (len(s) == 1 || s[1] == ' ' || strings.Trim(s, "* ") == ""),
		(c == '`' || c == '~') && strings.HasPrefix(s, strings.Repeat(s[:1], 3)),
		c == '[' && (strings.Contains(s, "]:") || len(s) >= 3 && strings.ContainsRune(" xX", rune(s[1])) && s[2] == ']'):
		return `\` + s
	}
	if n := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }); n > 0 && (s[n] == '.' || s[n] == ')') {
		return s[:n] + `\` + s[n:]
	}
	return s
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// closeFence returns a note's content with a closing fence added when a
// fenced code block it opens is left open (it would hold the rest of
// the answer).
func closeFence(s string) string {
	fence := ""
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimRight(line, "\r")
		indent := len(t) - len(strings.TrimLeft(t, " "))
		if indent > 3 {
			continue
		}
		t = t[indent:]
		switch {
		case fence == "":
			for _, c := range []string{"`", "~"} {
				n := len(t) - len(strings.TrimLeft(t, c))
				if n >= 3 && !(c == "`" && strings.Contains(t[n:], "`")) {
					fence = t[:n]
				}
			}
		case strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" \t") == "":
			fence = ""
		}
	}
	if fence == "" {
		return s
	}
	return strings.TrimRight(s, "\r\n") + "\n" + fence
}
