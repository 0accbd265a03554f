package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
)

func getNeighborsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("get_neighbors",
			append([]mcpgo.ToolOption{
				mcpgo.WithDescription("Notes linked with a note: out = notes it links to, in = notes linking to it, both (default; mutual links marked both). Outgoing first unless sorted; paged, with total. Returns null when the note does not exist."),
				mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
				mcpgo.WithString("direction", enum(vaultgraph.Directions, vaultgraph.DefaultDirection, "Which links to follow")...),
			}, pagedOptions(vaultgraph.NeighborList)...)...,
		),
		Handler: handler("get_neighbors", log, t.GetNeighbors),
	}
}
