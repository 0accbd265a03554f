package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newLinkMentionsCmd(g *globals) *cobra.Command {
	var p mcp.LinkMentionsParams
	c := &cobra.Command{
		Use:   "link-mentions ID [SOURCE...]",
		Short: "Turn unlinked mentions of a note into links",
		Long: `Turn the unlinked mentions of a note (get-node ID --fields mentions lists
them) into links: [[Name]] where the text is the name a link uses, else
[[Name|the text as written]]. Each SOURCE chooses mentions: a note for every
mention in it, or NOTE:LINE for those on that line; without one, every
mention is linked. Every file is checked before it is written, and all are
written or none. --dry-run lists the changes and writes nothing.`,
		Example: `  vaultgraph link-mentions Beta --dry-run
  vaultgraph link-mentions "Alpha Plan" "Notes/Log.md" "Home.md:12"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, a []string) error {
			p.ID, p.Sources = a[0], a[1:]
			return g.withTools(c.Context(), "link_mentions", nil, &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.LinkMentions(ctx, p)
			})
		},
	}
	c.Flags().BoolVar(&p.DryRun, "dry-run", false, "list the changes, write nothing")
	c.Flags().StringVar(&p.Format, "format", "", "output format: toon, markdown or json (default toon)")
	return c
}
