package mcp_test

import (
	"context"
	"testing"

	"github.com/vaultgraph/vaultgraph/mcp"
)

// TestRowsBrief: the rows of get_neighbors and get_node's neighbours are
// built from brief nodes (vaultgraph.PageQuery.Brief): no note's links,
// broken links or attachments are worked out for a row, which shows none
// of them. Home links to notes that have links of their own.
func TestRowsBrief(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Home", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := got.(*mcp.NodeResponse)
	if len(r.Neighbors) == 0 {
		t.Fatal("get_node Home depth 1: no neighbours")
	}
	for _, nb := range r.Neighbors {
		if nb.Links != nil || nb.BrokenLinks != nil || nb.Attachments != nil {
			t.Errorf("get_node neighbour %s: links %v, broken %v, attachments %v: want a brief row", nb.ID, nb.Links, nb.BrokenLinks, nb.Attachments)
		}
	}
	list, err := tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home"})
	if err != nil {
		t.Fatal(err)
	}
	for _, nb := range list.(*mcp.ListResponse).Nodes {
		if nb.Links != nil || nb.BrokenLinks != nil || nb.Attachments != nil || nb.Warnings != nil {
			t.Errorf("get_neighbors row %s: links %v, broken %v, attachments %v, warnings %v", nb.ID, nb.Links, nb.BrokenLinks, nb.Attachments, nb.Warnings)
		}
	}
}
