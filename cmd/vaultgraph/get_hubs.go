package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newGetHubsCmd(g *globals) *cobra.Command {
	var p mcp.GetHubsParams
	c := &cobra.Command{
		Use:   "get-hubs",
		Short: "List the most central notes",
		Long: `List the most central notes by a metric: in_degree (most linked to),
out_degree (most links out) or pagerank (linked to by other central notes).`,
		Example: `  vaultgraph get-hubs --metric pagerank --limit 5`,
		Args:    args(),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.withTools(c.Context(), "get_hubs", &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.GetHubs(ctx, p)
			})
		},
	}
	c.Flags().StringVar(&p.Metric, "metric", "in_degree", "in_degree, out_degree or pagerank")
	c.Flags().IntVar(&p.Limit, "limit", mcp.DefaultHubsLimit, "how many notes (1-50)")
	presentationFlags(c, "get_hubs", &p.Presentation)
	return c
}
