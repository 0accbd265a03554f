package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newRepairLinksCmd(g *globals) *cobra.Command {
	var p mcp.RepairLinksParams
	c := command("repair-links", maxArgs(1))
	f := c.Flags()
	f.StringVar(&p.To, "to", "", "the note's new path, to pick one candidate of an ambiguous repair")
	f.BoolVar(&p.Apply, "apply", false, "rewrite the links (default: a dry run listing them)")
	return toolCmd(g, c, "repair_links", &p, &p.Presentation, (*mcp.Tools).RepairLinks, func(a []string) error {
		if len(a) == 1 {
			p.From = a[0]
		}
		return nil
	}, writes)
}
