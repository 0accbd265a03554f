package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func getNodeTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("get_node",
			mcpgo.WithDescription("Read one note: title, tags, properties, outgoing links with titles, broken links, content (up to 10,000 chars) and a content hash. depth 1 adds incoming/outgoing link counts and up to 20 neighbours (200 chars each, direction in|out|both). Returns null when no note matches."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(`Note path ("Projects/Alpha Plan.md"), path without .md, any case, or a bare note name`)),
			mcpgo.WithInteger("depth", mcpgo.Min(0), mcpgo.Max(1), mcpgo.DefaultNumber(0), mcpgo.Description("0 = the note, 1 = also its neighbours")),
		),
		Handler: handler("get_node", log, t.GetNode),
	}
}
