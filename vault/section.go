package vault

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Section returns the byte range [start, end) of src (a whole note file,
// as Parse takes it) that fragment (Link.Fragment) names, the part of the
// note an embed ("![[N#Heading]]", "![[N#^id]]") shows: for a heading
// (found as AnchorProblem finds it), its line up to the next heading of
// the same or a higher level; for a block, the paragraph or list item
// whose text ends with "^id" (for a "^id" on a line of its own, the block
// before it). ok is false when fragment names nothing in src.
func (p *Parser) Section(id string, src []byte, fragment string) (start, end int, ok bool) {
	parts := SplitAnchor(fragment)
	if len(parts) == 0 {
		return 0, 0, false
	}
	if isBlockAnchor(parts) {
		return p.blockSection(src, strings.TrimPrefix(strings.TrimSpace(parts[0]), "^"))
	}
	n, err := p.Parse(id, src)
	if err != nil {
		return 0, 0, false
	}
	found := NewAnchors(n).Headings(fragment)
	h := found[len(found)-1]
	if h < 0 {
		return 0, 0, false
	}
	start, end = lineStart(src, n.Headings[h].Start), len(src)
	for _, next := range n.Headings[h+1:] {
		if next.Level <= n.Headings[h].Level {
			end = lineStart(src, next.Start)
			break
		}
	}
	return start, end, true
}

// blockSection finds the block whose text ends with "^id" (matched without
// regard to case, as Note.HasAnchor matches it) the way the parser's
// collector records block IDs.
func (p *Parser) blockSection(src []byte, id string) (start, end int, ok bool) {
	off := bomLen(src)
	body := src[off:]
	if len(body) > MaxParseBytes {
		return 0, 0, false
	}
	doc, _, _ := p.parseMarkdown(body, 0)
	var found ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || found != nil {
			return ast.WalkContinue, nil
		}
		if n.Kind() != ast.KindParagraph && n.Kind() != ast.KindTextBlock {
			return ast.WalkContinue, nil
		}
		if got, ok := blockIDOf(n, body); ok && strings.EqualFold(got, id) {
			found = n
		}
		return ast.WalkContinue, nil
	})
	if found == nil {
		return 0, 0, false
	}
	block, first := found, found.Lines().At(0)
	alone := found.Lines().Len() == 1 && bytes.HasPrefix(bytes.TrimSpace(first.Value(body)), []byte("^")) && found.PreviousSibling() != nil
	if alone {
		block = found.PreviousSibling() // "^id" alone names the block before
	} else if li, ok := found.Parent().(*ast.ListItem); ok {
		block = li
	}
	s, e, ok := nodeRange(block)
	if !ok {
		return 0, 0, false
	}
	if alone {
		// Up to the "^id" line: a fenced block's closing fence is no line
		// of its own.
		e = lineStart(body, first.Start)
	}
	return lineStart(src, off+s), off + e, true
}

// nodeRange is the range in the parsed body of a block node's lines and
// those of the blocks inside it.
func nodeRange(n ast.Node) (start, end int, ok bool) {
	start = -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || c.Type() != ast.TypeBlock {
			return ast.WalkContinue, nil
		}
		if p := c.Pos(); p >= 0 && (start < 0 || p < start) {
			start = p // a fence or a quote marker before the first line
		}
		lines := c.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			if start < 0 || seg.Start < start {
				start = seg.Start
			}
			end = max(end, seg.Stop)
		}
		return ast.WalkContinue, nil
	})
	return start, end, start >= 0
}

// lineStart is the offset of the start of the line holding offset i.
func lineStart(src []byte, i int) int {
	return bytes.LastIndexByte(src[:i], '\n') + 1
}
