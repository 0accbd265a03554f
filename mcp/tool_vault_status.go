package mcp

import (
	"context"
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func vaultStatusTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: mcpgo.NewTool("vault_status",
			mcpgo.WithDescription("Vault counts (notes, links, broken links, tags, attachments), index and watcher state, last sync time, files that could not be indexed and why, note names shared by several notes."),
			mcpgo.WithReadOnlyHintAnnotation(true), mcpgo.WithIdempotentHintAnnotation(true),
			mcpgo.WithDestructiveHintAnnotation(false), mcpgo.WithOpenWorldHintAnnotation(false),
		),
		Handler: handler("vault_status", log, func(ctx context.Context, _ struct{}) (any, error) { return t.VaultStatus(ctx) }),
	}
}
