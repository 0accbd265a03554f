package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// statusFields are vault_status' fields.
var statusFields = &fieldSet{
	all: []string{"vault", "notes", "links", "brokenLinks", "brokenAnchors", "attachmentLinks", "attachments", "tags", "edges",
		"embeddingCoverage", "embeddingModel", "embedding", "index", "indexBytes", "watcher", "lastSync", "loadTimeMs", "notesWithWarnings",
		"problemCount", "problems", "duplicateNameCount", "duplicateNames", "renameRepairs"},
	minimal: []string{"notes", "links", "brokenLinks", "tags"},
	standard: []string{"vault", "notes", "links", "brokenLinks", "brokenAnchors", "attachments", "tags", "embeddingCoverage", "embedding",
		"watcher", "lastSync", "problemCount", "duplicateNameCount", "renameRepairs"},
}

func vaultStatusTool() *toolDef {
	return &toolDef{
		Tool: readTool("vault_status",
			mcpgo.WithDescription("Vault counts (notes, links, broken links, broken anchors, tags, attachments), index and watcher state, last sync time, files that could not be indexed and why, note names shared by several notes."),
		),
		run:    bind((*Tools).VaultStatus),
		format: FormatTOON,
		fields: statusFields,
	}
}
