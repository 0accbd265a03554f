package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newGetHubsCmd(g *globals) *cobra.Command {
	var p mcp.GetHubsParams
	c := &cobra.Command{
		Use:   "get-hubs",
		Short: "List the most central notes",
		Long: `List the most central notes by a metric: in_degree (most linked to),
out_degree (most links out) or pagerank (linked to by other central notes),
a page at a time. The metric chooses which notes are on a page, most central
first; --sort-by only reorders the notes of that page. Notes scoring 0 (no
link in, or out) are not ranked: the last page says where the ranking ends.`,
		Example: `  vaultgraph get-hubs --metric pagerank --limit 5
  vaultgraph get-hubs --limit 20 --page 2 --sort-by title`,
		Args: args(),
	}
	c.Flags().StringVar(&p.Metric, "metric", string(vaultgraph.DefaultMetric), oneOf(vaultgraph.Metrics))
	pageFlags(c, vaultgraph.HubList, &p.Paging, " (reorders the page; default: the metric's ranking)")
	return readTool(g, c, "get_hubs", &p, &p.Presentation, (*mcp.Tools).GetHubs, nil)
}
