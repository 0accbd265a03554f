package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
)

func getHubsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("get_hubs", append([]mcpgo.ToolOption{
			mcpgo.WithDescription("Most central notes with their score: in_degree (most linked to, default), out_degree (most links out) or pagerank, a page at a time (sortBy reorders a page). Good first call to learn a vault's main topics."),
			mcpgo.WithString("metric", enum(vaultgraph.Metrics, vaultgraph.DefaultMetric, "Centrality measure")...),
		}, pagedOptions(vaultgraph.HubList)...)...),
		Handler: handler("get_hubs", log, t.GetHubs),
	}
}
