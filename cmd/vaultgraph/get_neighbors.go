package main

import (
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
	}
	c.Flags().StringVar(&p.Direction, "direction", string(vaultgraph.DefaultDirection), oneOf(vaultgraph.Directions))
	pageFlags(c, vaultgraph.NeighborList, &p.Paging, "")
	return readTool(g, c, "get_neighbors", &p, &p.Presentation, (*mcp.Tools).GetNeighbors, func(a []string) error {
		p.ID = a[0]
		return nil
	})
}
