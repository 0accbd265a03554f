package mcp

import (
	"context"
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func listTagsTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: mcpgo.NewTool("list_tags",
			mcpgo.WithDescription("Every tag in the vault (lower case, without '#') with its note count, most used first."),
			mcpgo.WithReadOnlyHintAnnotation(true), mcpgo.WithIdempotentHintAnnotation(true),
			mcpgo.WithDestructiveHintAnnotation(false), mcpgo.WithOpenWorldHintAnnotation(false),
		),
		Handler: handler("list_tags", log, func(ctx context.Context, _ struct{}) (any, error) { return t.ListTags(ctx) }),
	}
}
