package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newLinkMentionsCmd(g *globals) *cobra.Command {
	var p mcp.LinkMentionsParams
	c := command("link-mentions", cobra.MinimumNArgs(1))
	c.Flags().BoolVar(&p.DryRun, "dry-run", false, "list the changes, write nothing")
	return toolCmd(g, c, "link_mentions", &p, &p.Presentation, (*mcp.Tools).LinkMentions, func(a []string) error {
		p.ID, p.Sources = a[0], a[1:]
		return nil
	}, writes)
}
