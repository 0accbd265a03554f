package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newGetNodeCmd(g *globals) *cobra.Command {
	var p mcp.GetNodeParams
	c := &cobra.Command{
		Use:   "get-node ID",
		Short: "Print one note: metadata, links and content",
		Long: `Print one note: title, tags, properties, outgoing links (with titles),
broken links and its content (up to 10,000 characters). With --depth 1 it
also prints incoming and outgoing link counts and up to 20 neighbours.

ID is the note's vault path ("Projects/Alpha Plan.md"), in any letter case,
with or without ".md", or a bare note name resolved as a wikilink would be;
failing those, a frontmatter title, an alias or a pasted [[link]] (a warning
says which rule matched). An id that matches no note prints a warning naming it and exits 0.`,
		Example: `  vaultgraph get-node "Projects/Alpha Plan.md"
  vaultgraph get-node "alpha plan" --depth 1`,
		Args: args("ID"),
	}
	c.Flags().IntVar(&p.Depth, "depth", 0, "0 = the note only, 1 = also its neighbours and link counts")
	return readTool(g, c, "get_node", &p, &p.Presentation, (*mcp.Tools).GetNode, func(a []string) error {
		p.ID = a[0]
		return nil
	})
}
