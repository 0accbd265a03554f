package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func findPathTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("find_path",
			mcpgo.WithDescription("Shortest chain of links between two notes: {path: [ids], length}, or null when none. Links count both ways unless directed is true."),
			mcpgo.WithString("source", mcpgo.Required(), mcpgo.Description("Start note: path or name")),
			mcpgo.WithString("target", mcpgo.Required(), mcpgo.Description("End note: path or name")),
			mcpgo.WithBoolean("directed", mcpgo.DefaultBool(false), mcpgo.Description("Follow links only from linking note to linked note")),
		),
		Handler: handler("find_path", log, t.FindPath),
	}
}
