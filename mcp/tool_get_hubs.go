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
			mcpgo.WithDescription("Most linked or central notes: a vault's main topics."),
			mcpgo.WithString("metric", enum(vaultgraph.Metrics, vaultgraph.DefaultMetric, "Ranking")...),
		}, pagedOptions(vaultgraph.HubList)...)...),
		run:    bind((*Tools).GetHubs),
		format: FormatTOON,
		fields: getHubsFields,
	}
}
