package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newRepairLinksCmd(g *globals) *cobra.Command {
	var p mcp.RepairLinksParams
	c := command("repair-links", maxArgs(1))
	c.RunE = func(c *cobra.Command, a []string) error {
		if len(a) == 1 {
			p.From = a[0]
		}
		return g.withTools(c.Context(), "repair_links", nil, &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
			return t.RepairLinks(ctx, p)
		})
	}
	f := c.Flags()
	f.StringVar(&p.To, "to", "", "the note's new path, to pick one candidate of an ambiguous repair")
	f.BoolVar(&p.Apply, "apply", false, "rewrite the links (default: a dry run listing them)")
	f.StringVar(&p.Format, "format", "", "output format: toon, markdown or json (default toon)")
	return c
}
