package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newRandomNodeCmd(g *globals) *cobra.Command {
	var p mcp.RandomNodeParams
	c := &cobra.Command{
		Use:   "random-node",
		Short: "Print one random note, optionally among notes with some tags",
		Long: `Print one note picked at random, for discovery. With --tags, only notes
carrying any of those tags are candidates. Prints null when none qualifies.`,
		Example: `  vaultgraph random-node --tags idea,draft`,
		Args:    args(),
	}
	c.Flags().StringSliceVar(&p.Tags, "tags", nil, "only notes with any of these tags")
	return readTool(g, c, "random_node", &p, &p.Presentation, (*mcp.Tools).RandomNode, nil)
}
