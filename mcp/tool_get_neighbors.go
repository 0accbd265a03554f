package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func getNeighborsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: mcpgo.NewTool("get_neighbors",
			mcpgo.WithDescription("List notes linked with a note: out = notes it links to, in = notes linking to it, both (default; mutual links marked both). Outgoing first, content up to 500 chars each, with total. Returns null when the note does not exist."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description("Note path, path without .md, or note name")),
			mcpgo.WithString("direction", mcpgo.Enum("in", "out", "both"), mcpgo.DefaultString("both")),
			mcpgo.WithInteger("limit", mcpgo.Min(1), mcpgo.Max(MaxNeighborsLimit), mcpgo.DefaultNumber(DefaultNeighborsLimit)),
			mcpgo.WithReadOnlyHintAnnotation(true), mcpgo.WithIdempotentHintAnnotation(true),
			mcpgo.WithDestructiveHintAnnotation(false), mcpgo.WithOpenWorldHintAnnotation(false),
		),
		Handler: handler("get_neighbors", log, t.GetNeighbors),
	}
}
