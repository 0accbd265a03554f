package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// getNeighborsFields are the fields of get_neighbors' rows, and of
// get_node's neighbour rows: context is the sentence holding an incoming
// link ("" for an outgoing neighbour).
var getNeighborsFields = rowFields([]string{"id", "title", "tags", "context", "content"}, "direction", "context")

func getNeighborsTool() *toolDef {
	return def((*Tools).GetNeighbors, FormatTOON, getNeighborsFields,
		pagedTool("get_neighbors", vaultgraph.NeighborList,
			mcpgo.WithDescription("Notes linked with a note: out = it links to them, in = they link to it."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithString("direction", enum(vaultgraph.Directions, "Which links")...),
		))
}

// GetNeighborsParams are get_neighbors' parameters.
type GetNeighborsParams struct {
	ID        string `json:"id"`
	Direction string `json:"direction"`
	Paging
	Presentation
}

// GetNeighbors lists the notes linked with a note; nil when the note does
// not exist.
func (t *Tools) GetNeighbors(ctx context.Context, p GetNeighborsParams) (any, error) {
	if err := required("id", p.ID, ""); err != nil {
		return nil, err
	}
	q, err := p.query(vaultgraph.NeighborList)
	if err != nil {
		return nil, err
	}
	q.Brief = true // rows: listItem
	res, err := t.Engine.NeighborsPage(ctx, p.ID, graph.Direction(p.Direction), q)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return missing(p.ID), nil
	}
	out := nodePage(res.Pages, res.Warnings)
	if out.Nodes, err = t.neighborRows(ctx, res.ID, res.Neighbors, p.wants(getNeighborsFields, "content"), p.wants(getNeighborsFields, "context"), listItem); err != nil {
		return nil, err
	}
	return out, nil
}
