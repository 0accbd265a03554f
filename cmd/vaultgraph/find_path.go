package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newFindPathCmd(g *globals) *cobra.Command {
	var p mcp.FindPathParams
	c := &cobra.Command{
		Use:   "find-path SOURCE TARGET",
		Short: "Print a shortest chain of links between two notes",
		Long: `Print a shortest path of links from SOURCE to TARGET as {path, length}.
Links are followed in both directions unless --directed. Prints null when no
path exists, and a warning naming SOURCE or TARGET when it matches no note.`,
		Example: `  vaultgraph find-path "Alpha Plan" "Budget 2025"
  vaultgraph find-path Home Archive --directed`,
		Args: args("SOURCE", "TARGET"),
	}
	c.Flags().BoolVar(&p.Directed, "directed", false, "follow links only from the linking note to the linked one")
	return readTool(g, c, "find_path", &p, &p.Presentation, (*mcp.Tools).FindPath, func(a []string) error {
		p.Source, p.Target = a[0], a[1]
		return nil
	})
}
