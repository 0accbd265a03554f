package store

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// MarkOpen and MarkClose mark a match while a snippet is made (by FTS5,
// textSnippet or the engine's snippets of semantic hits); Highlight turns
// them into HighlightOpen and HighlightClose. They are Unicode
// noncharacters, which note text does not hold, so a note's own "**" is
// never taken for a mark.
const MarkOpen, MarkClose = "\uFDD0", "\uFDD1"

// Highlight writes snip, a part of source with MarkOpen and MarkClose
// around matches and SnippetEllipsis at either end, with the marks as
// HighlightOpen and HighlightClose. A match in a link destination
// ("[text](dest)", an image's, "[ref]: dest"), a URL ("https://…",
// "www.…", "<https://…>"), a wikilink's target ("[[target|alias]]": only
// the alias may be bold) or an HTML tag of source is left plain: bold
// there would break the link. The marks it writes are balanced (a match
// cut by the end of snip is closed) and sit between characters. When snip
// is not found in source, its own links are looked for instead.
func Highlight(snip, source string) string {
	plain, marks := splitMarks(snip)
	ranges, shift := sourceRanges(plain, source)
	protected := func(start, end int) bool {
		return slices.ContainsFunc(ranges, func(r [2]int) bool { return start+shift < r[1] && r[0] < end+shift })
	}
	var b strings.Builder
	at, open := 0, -1 // the next byte of plain to write; the open match
	for _, m := range marks {
		switch {
		case m.open && open < 0:
			b.WriteString(plain[at:m.at])
			at, open = m.at, m.at
		case !m.open && open >= 0:
			writeMatch(&b, plain[open:m.at], !protected(open, m.at))
			at, open = m.at, -1
		}
	}
	if open >= 0 {
		end := len(strings.TrimSuffix(plain, SnippetEllipsis))
		writeMatch(&b, plain[open:max(open, end)], !protected(open, end))
		at = max(open, end)
	}
	b.WriteString(plain[at:])
	return b.String()
}

// writeMatch writes a match, in bold when bold is set and it has text.
func writeMatch(b *strings.Builder, s string, bold bool) {
	if !bold || s == "" {
		b.WriteString(s)
		return
	}
	b.WriteString(HighlightOpen)
	b.WriteString(s)
	b.WriteString(HighlightClose)
}

// mark is a MarkOpen or MarkClose at byte at of a snippet without marks.
type mark struct {
	at   int
	open bool
}

// splitMarks returns snip without its marks, and where they were.
func splitMarks(snip string) (string, []mark) {
	var b strings.Builder
	var marks []mark
	for i := 0; i < len(snip); {
		switch {
		case strings.HasPrefix(snip[i:], MarkOpen):
			marks = append(marks, mark{b.Len(), true})
			i += len(MarkOpen)
		case strings.HasPrefix(snip[i:], MarkClose):
			marks = append(marks, mark{b.Len(), false})
			i += len(MarkClose)
		default:
			b.WriteByte(snip[i])
			i++
		}
	}
	return b.String(), marks
}

// sourceRanges returns the link ranges (linkRanges) of source and the
// offset of plain in it; when plain (without its ellipses) is not a part
// of source, those of plain itself.
func sourceRanges(plain, source string) ([][2]int, int) {
	core, lead := plain, 0
	if i := strings.Index(source, core); i >= 0 {
		return linkRanges(source), i
	}
	if c, ok := strings.CutPrefix(core, SnippetEllipsis); ok {
		core, lead = c, len(SnippetEllipsis)
	}
	core = strings.TrimSuffix(core, SnippetEllipsis)
	if i := strings.Index(source, core); i >= 0 && core != "" {
		return linkRanges(source), i - lead
	}
	return linkRanges(plain), 0
}

// linkRanges returns the byte ranges of s that bold must not touch, in
// order: markdown link and image destinations with their brackets
// ("](dest)", "](<dest>)", "]: dest"), wikilinks up to their alias
// ("[[target|" and "]]", or all of "[[target]]"), HTML tags and autolinks
// ("<a href=…>", "<https://…>") and bare URLs ("https://…", "www.…").
func linkRanges(s string) [][2]int {
	var out [][2]int
	// The next "]]" and the last line break before it, found once for all
	// the "[[" before it; noTag is set once no ">" is left: linear time on
	// any text.
	closeAt, breakAt := -1, -1
	noTag := false
	for i := 0; i < len(s); {
		var r [][2]int
		switch {
		case strings.HasPrefix(s[i:], "[["):
			if closeAt >= 0 && closeAt < i+2 || closeAt == -1 {
				closeAt, breakAt = nextClose(s, i+2)
			}
			if closeAt >= 0 && breakAt < i {
				r = wikilinkRanges(s, i, closeAt)
			}
		case strings.HasPrefix(s[i:], "]("):
			r = destRange(s, i)
		case strings.HasPrefix(s[i:], "]:"):
			r = refDefRange(s, i)
		case s[i] == '<' && !noTag:
			r, noTag = tagRange(s, i)
		case isURLStart(s, i):
			r = [][2]int{{i, urlEnd(s, i)}}
		}
		if len(r) == 0 {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		out = append(out, r...)
		i = r[len(r)-1][1]
	}
	return out
}

// nextClose returns the index of the first "]]" in s from from, and of
// the last line break between from and it (-1: none); -2, -2 when there
// is no "]]".
func nextClose(s string, from int) (close, lineBreak int) {
	n := strings.Index(s[from:], "]]")
	if n < 0 {
		return -2, -2
	}
	lineBreak = strings.LastIndexByte(s[from:from+n], '\n')
	if lineBreak >= 0 {
		lineBreak += from
	}
	return from + n, lineBreak
}

// wikilinkRanges returns the wikilink at s[i:] ("[[…", closed by the "]]"
// at end on its line): "[[target|" and "]]", or the whole link without
// an alias.
func wikilinkRanges(s string, i, end int) [][2]int {
	if pipe := strings.IndexByte(s[i+2:end], '|'); pipe >= 0 {
		return [][2]int{{i, i + 2 + pipe + 1}, {end, end + 2}}
	}
	return [][2]int{{i, end + 2}}
}

// destRange returns a markdown link's destination with its title and
// brackets, at s[i:] ("](…"): up to the closing ")" (parentheses
// balanced), or to the line's end when it has none.
func destRange(s string, i int) [][2]int {
	j := i + 2
	if j < len(s) && s[j] == '<' {
		if gt := strings.IndexAny(s[j:], ">\n"); gt >= 0 && s[j+gt] == '>' {
			j += gt + 1
		}
	}
	depth := 0
	for ; j < len(s) && s[j] != '\n'; j++ {
		switch s[j] {
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return [][2]int{{i, j + 1}}
			}
			depth--
		}
	}
	return [][2]int{{i, min(j, len(s))}}
}

// refDefRange returns the destination of a link reference definition
// ("[ref]: dest"), at s[i:] ("]:…"): up to the first space after it.
func refDefRange(s string, i int) [][2]int {
	j := i + 2
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j == i+2 || j == len(s) || s[j] == '\n' {
		return nil
	}
	return [][2]int{{i, j + fieldEnd(s[j:])}}
}

// tagRange returns an HTML tag, comment or autolink at s[i:] ("<…"): up to
// its ">" when "<" is followed by a letter, "/", "!" or "?". none reports
// that s has no ">" after i.
func tagRange(s string, i int) (r [][2]int, none bool) {
	if i+1 >= len(s) || !isASCIILetter(s[i+1]) && !strings.ContainsRune("/!?", rune(s[i+1])) {
		return nil, false
	}
	gt := strings.IndexByte(s[i+1:], '>')
	if gt < 0 {
		return nil, true
	}
	return [][2]int{{i, i + 1 + gt + 1}}, false
}

// isURLStart reports whether a bare URL starts at s[i]: a scheme
// ("https://") or "www." at the start of a word.
func isURLStart(s string, i int) bool {
	if i > 0 && isASCIIAlnum(s[i-1]) {
		return false
	}
	if strings.HasPrefix(s[i:], "www.") {
		return true
	}
	j := i
	for j < len(s) && (isASCIILetter(s[j]) || j > i && strings.ContainsRune("0123456789+.-", rune(s[j]))) {
		j++
	}
	return j > i && strings.HasPrefix(s[j:], "://")
}

// urlEnd is the end of the bare URL at s[i:]: the first space or "<".
func urlEnd(s string, i int) int {
	end := i + fieldEnd(s[i:])
	if lt := strings.IndexByte(s[i:end], '<'); lt >= 0 {
		end = i + lt
	}
	return end
}

// fieldEnd is the length of the run of non-space characters s starts with.
func fieldEnd(s string) int {
	if n := strings.IndexAny(s, " \t\r\n"); n >= 0 {
		return n
	}
	return len(s)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
