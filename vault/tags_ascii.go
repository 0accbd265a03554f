package vault

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"go.abhg.dev/goldmark/hashtag"
)

// asciiTagEnds is true at the ASCII characters that end a tag when the
// character after them is ASCII too (or there is none): as the Obsidian
// variant of goldmark-hashtag answers for "#a" and the character, so that
// the two agree by construction.
var asciiTagEnds = func() (t [128]bool) {
	p := &hashtag.Parser{Variant: hashtag.ObsidianVariant}
	for c := range t {
		src := []byte{'#', 'a', byte(c)}
		n, ok := p.Parse(nil, text.NewReader(src), nil).(*hashtag.Node)
		t[c] = ok && string(n.Tag) == "a"
	}
	return t
}()

// parseASCII is the Obsidian variant of goldmark-hashtag's Parse for a
// tag, after the '#' that starts line, that is all ASCII up to and with
// the character after its end: there each character is a grapheme of
// its own, which that parser finds with a Unicode segmenter (a twentieth
// of the work of parsing a note). ok is false, and nothing is read, for
// any other tag.
func parseASCII(block text.Reader, line []byte, seg text.Segment) (n ast.Node, ok bool) {
	end := len(line)
	for i := 1; i < len(line); i++ {
		c := line[i]
		if c >= 0x80 {
			return nil, false
		}
		if asciiTagEnds[c] {
			if i+1 < len(line) && line[i+1] >= 0x80 { // maybe a mark of c
				return nil, false
			}
			end = i
			break
		}
	}
	digits := true
	for _, c := range line[1:end] {
		digits = digits && '0' <= c && c <= '9'
	}
	if digits { // Obsidian: a tag needs a character that is not a digit
		return nil, true
	}
	seg = seg.WithStop(seg.Start + end)
	tag := &hashtag.Node{Tag: block.Value(seg.WithStart(seg.Start + 1))}
	tag.AppendChild(tag, ast.NewTextSegment(seg))
	block.Advance(seg.Len())
	return tag, true
}
