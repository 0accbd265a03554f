package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func searchByTagsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: mcpgo.NewTool("search_by_tags",
			mcpgo.WithDescription(`Notes with any (default) or all of the tags, content up to 500 chars each, with total. Tags match without '#', ignoring case; "project" also matches "project/alpha". Use list_tags to see the tags.`),
			mcpgo.WithArray("tags", mcpgo.Required(), mcpgo.WithStringItems(), mcpgo.MinItems(1), mcpgo.Description("Tags to match")),
			mcpgo.WithString("mode", mcpgo.Enum("any", "all"), mcpgo.DefaultString("any")),
			mcpgo.WithInteger("limit", mcpgo.Min(1), mcpgo.Max(MaxTagsLimit), mcpgo.DefaultNumber(DefaultTagsLimit)),
			mcpgo.WithReadOnlyHintAnnotation(true), mcpgo.WithIdempotentHintAnnotation(true),
			mcpgo.WithDestructiveHintAnnotation(false), mcpgo.WithOpenWorldHintAnnotation(false),
		),
		Handler: handler("search_by_tags", log, t.SearchByTags),
	}
}
