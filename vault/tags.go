package vault

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"go.abhg.dev/goldmark/hashtag"
)

// tagParser wraps the Obsidian variant of goldmark-hashtag and adds the
// rule it lacks: a tag starts a word, so "example.com/#x" and "a#b" are not
// tags.
type tagParser struct{ inner *hashtag.Parser }

var _ parser.InlineParser = (*tagParser)(nil)

func (p *tagParser) Trigger() []byte { return p.inner.Trigger() }

func (p *tagParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if seg.Start > 0 {
		prev, _ := utf8.DecodeLastRune(block.Source()[:seg.Start])
		if !unicode.IsSpace(prev) {
			return nil
		}
	}
	if len(line) > 0 && line[0] == '#' {
		if n, ok := parseASCII(block, line, seg); ok {
			return n
		}
	}
	return p.inner.Parse(parent, block, pc)
}

// NormalizeTag returns the tag as vaultgraph stores it: without a leading
// '#', surrounding space or a trailing '/', NFC-normalised. It returns ""
// for text that is not a tag (empty, pure digits, containing spaces or a
// '#' after its start).
func NormalizeTag(tag string) string {
	tag = strings.Trim(strings.TrimLeft(strings.TrimSpace(tag), "#"), "/")
	if tag == "" || strings.ContainsFunc(tag, unicode.IsSpace) || strings.Contains(tag, "#") {
		return ""
	}
	if strings.IndexFunc(tag, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return "" // Obsidian: a tag needs at least one non-digit
	}
	return NFC(strings.ToValidUTF8(tag, "\uFFFD"))
}

// isTagSeparator reports whether r separates the tags of a frontmatter
// tag string ("a, b c").
func isTagSeparator(r rune) bool { return r == ',' || unicode.IsSpace(r) }
