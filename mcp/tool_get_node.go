package mcp

import (
	"context"
	"fmt"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// getNodeFields are get_node's fields: a note's, and with depth 1 its
// link counts (in every preset; fields can pick them) and rows of
// neighbours with get_neighbors' fields.
var getNodeFields = func() *fieldSet {
	s := *noteFields
	s.rows = getNeighborsFields
	counts := []string{"incomingCount", "outgoingCount"}
	s.all = slices.Concat(s.all, counts)
	s.minimal = slices.Concat(s.minimal, counts)
	s.standard = slices.Concat(s.standard, counts)
	return &s
}()

func getNodeTool() *toolDef {
	return def((*Tools).GetNode, FormatMarkdown, getNodeFields,
		readTool("get_node",
			mcpgo.WithDescription("Read a note: content, tags, hash (for ifMatch); depth 1 adds linked notes."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithInteger("depth", mcpgo.Min(0), mcpgo.Max(1), mcpgo.Description("1 adds linked notes")),
		))
}

// GetNodeParams are get_node's parameters.
type GetNodeParams struct {
	ID    string `json:"id"`
	Depth int    `json:"depth"`
	Presentation
}

// GetNode returns one note with its content, and with depth 1 its
// neighbours and link counts; nil when no note matches.
func (t *Tools) GetNode(ctx context.Context, p GetNodeParams) (any, error) {
	if err := required("id", p.ID, "a note path, path without .md, or note name"); err != nil {
		return nil, err
	}
	if p.Depth != 0 && p.Depth != 1 {
		return nil, invalid("depth", "%d: use 0 (the note) or 1 (the note and its neighbours)", p.Depth)
	}
	n, err := t.Engine.GetNode(ctx, p.ID, p.wants(getNodeFields, "content"))
	if err != nil {
		return nil, err
	}
	if n == nil {
		return missing(p.ID), nil
	}
	r, err := t.note(ctx, n, p.wants(getNodeFields, "mentions"))
	if err != nil {
		return nil, err
	}
	if p.Depth == 1 {
		in, out := n.InDegree, n.OutDegree
		r.IncomingCount, r.OutgoingCount = &in, &out
		// Brief: a neighbour row shows no links, broken links or
		// attachments (noteRowOrder), and drops its warnings.
		page, err := t.Engine.NeighborsPage(ctx, n.ID, graph.Both, vaultgraph.PageQuery{Limit: MaxNodeNeighbors, Brief: true})
		if err != nil {
			return nil, err
		}
		if page == nil {
			page = &vaultgraph.NeighborPage{} // the note went away
		}
		if nbs := page.Neighbors; page.Total > len(nbs) {
			r.Hint = fmt.Sprintf("%d of %d linked notes shown: {get_neighbors} with {page: 2} gives the next ones", len(nbs), page.Total)
		}
		r.Neighbors, err = t.neighborRows(ctx, n.ID, page.Neighbors, p.wantsRow(getNodeFields, "content"), p.wantsRow(getNodeFields, "context"),
			func(nb *vaultgraph.Node) NodeResponse {
				nr := nodeResponse(nb, NeighborContentChars)
				nr.Warnings = nil
				return nr
			})
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}
