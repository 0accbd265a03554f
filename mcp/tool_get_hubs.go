package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// getHubsFields are the fields of get_hubs' rows. A hub list is for
// choosing where to look next, so its standard rows are id, title and
// score (HubsTokenBudget), the title only when some note's title is not
// its file name; tags and previews are for full detail or fields.
var getHubsFields = func() *fieldSet {
	s := rowFields("score").withStandard("id", "title", "score")
	s.titleIfNew = true
	return s
}()

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
