package vault

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// ParseForRewrite is Parse for a note whose links are about to be
// rewritten. The links are the same, in the same order; but a
// reference-style markdown link ([text][label], [label][], [label]), which
// has no destination of its own, gets as its target range that of the
// destination in the link reference definition it uses ("[label]: Target.md
// "title""): the first definition of its label, as CommonMark says.
// Every link that uses one definition has the same target range, outside
// the link's own bytes, so a rewrite must edit it once. A definition that
// no link uses is no link and has no range anywhere.
func (p *Parser) ParseForRewrite(id string, src []byte) (*Note, error) {
	return p.parse(id, src, true)
}

// definitions returns the byte range, relative to the parsed body, of the
// destination of each link reference definition of doc (without angle
// brackets), by the label's normalised form (util.ToLinkReference): the
// first definition of a label only, as goldmark resolves links with it.
// A definition whose destination cannot be found again in body has no
// entry.
func definitions(doc ast.Node, body []byte) map[string]span {
	defs := map[string]span{}
	seen := map[string]bool{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		d, ok := n.(*ast.LinkReferenceDefinition)
		if !ok {
			return ast.WalkContinue, nil
		}
		key := util.ToLinkReference(d.Label)
		if seen[key] {
			return ast.WalkSkipChildren, nil
		}
		seen[key] = true
		if sp, ok := definitionDestination(d, body); ok {
			defs[key] = sp
		}
		return ast.WalkSkipChildren, nil
	})
	return defs
}

// definitionDestination finds where the destination of the definition d
// is in body, reading its lines the way goldmark read them: the label up
// to its ']', the ':', blanks (a line break too), then the destination.
// The range found must hold the destination goldmark recorded.
func definitionDestination(d *ast.LinkReferenceDefinition, body []byte) (span, bool) {
	if d.Lines().Len() == 0 || len(d.Destination) == 0 {
		return span{}, false
	}
	block := text.NewBlockReader(body, d.Lines())
	block.SkipSpaces()
	if line, _ := block.PeekLine(); len(line) == 0 || line[0] != '[' {
		return span{}, false
	}
	block.Advance(1)
	if _, found := block.FindClosure('[', ']', text.FindClosureOptions{Newline: true, Advance: true}); !found {
		return span{}, false
	}
	if block.Peek() != ':' {
		return span{}, false
	}
	block.Advance(1)
	block.SkipSpaces()
	line, seg := block.PeekLine()
	if len(line) == 0 || seg.Padding != 0 {
		return span{}, false
	}
	start := seg.Start
	if line[0] == '<' {
		start++
	}
	end := start + len(d.Destination)
	if end > len(body) || string(body[start:end]) != string(d.Destination) {
		return span{}, false
	}
	return span{start, end}, true
}
