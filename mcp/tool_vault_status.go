package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

var statusFields = &fieldSet{
	all: []string{"vault", "notes", "links", "brokenLinks", "brokenAnchors", "attachmentLinks", "attachments", "tags", "edges",
		"embeddingCoverage", "embeddingModel", "embedding", "index", "indexBytes", "watcher", "lastSync", "loadTimeMs", "notesWithWarnings",
		"problemCount", "problems", "duplicateNameCount", "duplicateNames", "renameRepairs"},
	minimal: []string{"notes", "links", "brokenLinks", "tags"},
	standard: []string{"vault", "notes", "links", "brokenLinks", "brokenAnchors", "attachments", "tags", "embeddingCoverage", "embedding",
		"watcher", "lastSync", "problemCount", "duplicateNameCount", "renameRepairs"},
}

func vaultStatusTool() *toolDef {
	return def((*Tools).VaultStatus, FormatTOON, statusFields,
		readTool("vault_status",
			mcpgo.WithDescription("Vault counts, index and watcher state, files with problems."),
		))
}

// VaultStatusParams are vault_status' parameters.
type VaultStatusParams struct {
	Presentation
}

// VaultStatus reports the vault's counts, state and problems.
func (t *Tools) VaultStatus(ctx context.Context, _ VaultStatusParams) (any, error) {
	return t.Engine.Status(ctx)
}
