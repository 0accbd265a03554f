package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newLinkMentionsCmd(g *globals) *cobra.Command {
	var p mcp.LinkMentionsParams
	c := command("link-mentions", cobra.MinimumNArgs(1))
	c.RunE = func(c *cobra.Command, a []string) error {
		p.ID, p.Sources = a[0], a[1:]
		return g.withTools(c.Context(), "link_mentions", nil, &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
			return t.LinkMentions(ctx, p)
		})
	}
	c.Flags().BoolVar(&p.DryRun, "dry-run", false, "list the changes, write nothing")
	c.Flags().StringVar(&p.Format, "format", "", "output format: toon, markdown or json (default toon)")
	return c
}
