package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newGetNeighborsCmd(g *globals) *cobra.Command {
	var p mcp.GetNeighborsParams
	c := &cobra.Command{
		Use:   "get-neighbors ID",
		Short: "List the notes linked to or from a note",
		Long: `List the notes a note links to (out), the notes linking to it (in), or
both. Each neighbour is marked direction out, in, or both for a mutual link;
outgoing neighbours come first. An id that matches no note prints a warning
naming it.`,
		Example: `  vaultgraph get-neighbors "Alpha Plan" --direction in --limit 5`,
		Args:    args("ID"),
		RunE: func(c *cobra.Command, a []string) error {
			p.ID = a[0]
			return g.withTools(c.Context(), "get_neighbors", p, &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.GetNeighbors(ctx, p)
			})
		},
	}
	c.Flags().StringVar(&p.Direction, "direction", string(vaultgraph.DefaultDirection), oneOf(vaultgraph.Directions))
	pageFlags(c, vaultgraph.NeighborList, &p.Paging, "")
	presentationFlags(c, "get_neighbors", &p.Presentation)
	return c
}
