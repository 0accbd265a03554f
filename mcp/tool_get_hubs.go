package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// getHubsFields are the fields of get_hubs' rows.
var getHubsFields = rowFields("score")

func getHubsTool() *toolDef {
	return &toolDef{
		Tool: readTool("get_hubs", append([]mcpgo.ToolOption{
			mcpgo.WithDescription("Most central notes with their score: in_degree (most linked to, default), out_degree (most links out) or pagerank, a page at a time (sortBy reorders a page). Good first call to learn a vault's main topics."),
			mcpgo.WithString("metric", enum(vaultgraph.Metrics, vaultgraph.DefaultMetric, "Centrality measure")...),
		}, pagedOptions(vaultgraph.HubList)...)...),
		run:    bind((*Tools).GetHubs),
		format: FormatTOON,
		fields: getHubsFields,
	}
}
