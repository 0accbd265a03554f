package mcp

import (
	"log/slog"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func vaultStatusTool(t *Tools, log *slog.Logger) server.ServerTool {
	return server.ServerTool{
		Tool: readTool("vault_status",
			mcpgo.WithDescription("Vault counts (notes, links, broken links, broken anchors, tags, attachments), index and watcher state, last sync time, files that could not be indexed and why, note names shared by several notes."),
		),
		Handler: handler("vault_status", log, t.VaultStatus),
	}
}
