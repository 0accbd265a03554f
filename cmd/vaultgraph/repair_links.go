package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newRepairLinksCmd(g *globals) *cobra.Command {
	var p mcp.RepairLinksParams
	c := &cobra.Command{
		Use:   "repair-links [FROM]",
		Short: "Repair the links broken by renames made outside vaultgraph",
		Long: `List, or with --apply rewrite, the links that still point at a note's old
path after it was renamed or moved outside vaultgraph (in a file manager,
with mv or git mv, by a sync client). A rename is a note that went and a note
that appeared with the same content (or nearly the same) while a server
watched, or between two runs. The links are rewritten as update-node's
rename rewrites them: in their own style, verified, all files or none.
Without --apply nothing is written and the answer lists every change. FROM
(the note's old path or name) picks one repair; an ambiguous one (two notes
could be the renamed one) is applied only with FROM and --to.`,
		Example: `  vaultgraph repair-links
  vaultgraph repair-links --apply
  vaultgraph repair-links "Projects/Beta.md" --to "Projects/Beta Renamed.md" --apply`,
		Args: maxArgs(1),
		RunE: func(c *cobra.Command, a []string) error {
			if len(a) == 1 {
				p.From = a[0]
			}
			return g.withTools(c.Context(), "repair_links", nil, &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.RepairLinks(ctx, p)
			})
		},
	}
	f := c.Flags()
	f.StringVar(&p.To, "to", "", "the note's new path, to pick one candidate of an ambiguous repair")
	f.BoolVar(&p.Apply, "apply", false, "rewrite the links (default: a dry run listing them)")
	f.StringVar(&p.Format, "format", "", "output format: toon, markdown or json (default toon)")
	return c
}
