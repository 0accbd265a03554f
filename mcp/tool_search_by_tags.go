package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
)

func searchByTagsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("search_by_tags",
			append([]mcpgo.ToolOption{
				mcpgo.WithDescription(`Notes with any (default) or all of the tags, paged, with total. Tags match without '#', ignoring case; "project" also matches "project/alpha". Use list_tags to see the tags.`),
				mcpgo.WithArray("tags", mcpgo.Required(), mcpgo.WithStringItems(), mcpgo.MinItems(1), mcpgo.Description("Tags to match")),
				mcpgo.WithString("mode", mcpgo.Enum("any", "all"), mcpgo.DefaultString("any"), mcpgo.Description("Match any or all of tags")),
			}, pagedOptions(vaultgraph.TaggedList)...)...,
		),
		Handler: handler("search_by_tags", log, t.SearchByTags),
	}
}
