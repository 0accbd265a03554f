package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
)

func listTagsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("list_tags",
			append([]mcpgo.ToolOption{
				mcpgo.WithDescription("Tags in the vault (lower case, without '#') with their note counts, most used first, a page at a time."),
			}, pagedOptions(vaultgraph.TagList)...)...,
		),
		Handler: handler("list_tags", log, t.ListTags),
	}
}
