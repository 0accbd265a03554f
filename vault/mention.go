package vault

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"go.abhg.dev/goldmark/hashtag"
	"go.abhg.dev/goldmark/wikilink"
)

// Mention is a name written as plain text in a note: a place an unlinked
// mention could become a link.
type Mention struct {
	// Start and End are the byte range [Start, End) of the text in the
	// file; Line is the 1-based line of Start.
	Start, End, Line int
	// Text is the text as written.
	Text string
}

// FindMentions returns where src (a whole note file) writes one of names
// as plain text: whole words, in any letter case, in the body's text,
// never inside code, a link (its text or target), a tag, HTML, a URL or
// the frontmatter. Where two names match at the same place, the longer
// wins; matches do not overlap. They come in file order.
func (p *Parser) FindMentions(src []byte, names []string) []Mention {
	names = mentionNames(names)
	if len(names) == 0 || isBinary(src) || len(src) > MaxParseBytes || !maybeMentioned(src, names) {
		return nil
	}
	var out []Mention
	lines := newLineIndex(src)
	for _, r := range p.textRanges(src) {
		for i := r[0]; i < r[1]; {
			end, ok := matchNameAt(src, i, r[1], names)
			if !ok || inURL(src, i) || inPath(src, i, end) {
				_, size := utf8.DecodeRune(src[i:r[1]])
				i += max(size, 1)
				continue
			}
			out = append(out, Mention{Start: i, End: end, Line: lines.line(i), Text: string(src[i:end])})
			i = end
		}
	}
	return out
}

// maybeMentioned reports whether src may write one of names as plain
// text, without parsing it: a whole-word match that does not open a
// wikilink ("[[Name"), a path or a file name. Most notes the full-text
// index offers only link to the note, and need no parse.
func maybeMentioned(src []byte, names []string) bool {
	for i := 0; i < len(src); {
		if end, ok := matchNameAt(src, i, len(src), names); ok && !bytes.HasSuffix(src[:i], []byte("[[")) && !inPath(src, i, end) {
			return true
		}
		_, size := utf8.DecodeRune(src[i:])
		i += max(size, 1)
	}
	return false
}

// mentionNames are the names to look for, trimmed and with their spaces
// folded, longest first, without blanks and repeats.
func mentionNames(names []string) []string {
	var out []string
	for _, n := range names {
		n = strings.Join(strings.Fields(n), " ")
		if n != "" && strings.IndexFunc(n, isWordRune) >= 0 && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, n) }) {
			out = append(out, n)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// textRanges returns the byte ranges of src that a reader sees as plain
// text: the body's text nodes outside code, links, tags and HTML,
// adjacent ones joined.
func (p *Parser) textRanges(src []byte) [][2]int {
	off := bomLen(src)
	doc, _, _ := p.parseMarkdown(src[off:], 0)
	var out [][2]int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.CodeSpan, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML,
			*ast.Link, *ast.Image, *ast.AutoLink, *wikilink.Node, *hashtag.Node:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			s, e := x.Segment.Start+off, x.Segment.Stop+off
			if k := len(out) - 1; k >= 0 && out[k][1] == s {
				out[k][1] = e
			} else if e > s {
				out = append(out, [2]int{s, e})
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// matchNameAt reports whether one of names (longest first) is written
// at src[i:] as whole words before limit, and where it ends.
func matchNameAt(src []byte, i, limit int, names []string) (int, bool) {
	if prev, _ := utf8.DecodeLastRune(src[:i]); i > 0 && isWordRune(prev) {
		return 0, false
	}
	for _, name := range names {
		end, ok := foldPrefix(src[i:limit], name)
		if !ok {
			continue
		}
		end += i
		if next, _ := utf8.DecodeRune(src[end:]); end < len(src) && isWordRune(next) {
			continue
		}
		return end, true
	}
	return 0, false
}

// foldPrefix reports whether b starts with name in any letter case, and
// the length of that prefix of b.
func foldPrefix(b []byte, name string) (int, bool) {
	at := 0
	for _, want := range name {
		if at >= len(b) {
			return 0, false
		}
		got, size := utf8.DecodeRune(b[at:])
		if got != want && unicode.ToLower(got) != unicode.ToLower(want) && unicode.ToUpper(got) != unicode.ToUpper(want) {
			return 0, false
		}
		at += size
	}
	return at, true
}

// inURL reports whether the word at src[i] is part of a URL: the run of
// non-space text around it has "://" or starts with "www.".
func inURL(src []byte, i int) bool {
	from := bytes.LastIndexFunc(src[:i], unicode.IsSpace) + 1
	to := len(src)
	if k := bytes.IndexFunc(src[i:], unicode.IsSpace); k >= 0 {
		to = i + k
	}
	tok := src[from:to]
	return bytes.Contains(tok, []byte("://")) || bytes.HasPrefix(bytes.ToLower(tok), []byte("www."))
}

// inPath reports whether src[i:end] is part of a file path as written
// ("Projects/Beta.md"): after a slash, or before ".md".
func inPath(src []byte, i, end int) bool {
	return (i > 0 && (src[i-1] == '/' || src[i-1] == '\\')) || bytes.HasPrefix(bytes.ToLower(src[end:]), []byte(".md"))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
