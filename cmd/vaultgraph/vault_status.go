package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newVaultStatusCmd(g *globals) *cobra.Command {
	var p mcp.VaultStatusParams
	c := &cobra.Command{
		Use:   "vault-status",
		Short: "Print counts, index state and problems of the vault",
		Long: `Print the vault's notes, links, broken links, broken anchors (links to a
heading or ^block their note lacks), attachments and tags, the state of
index and watcher, the last sync time, files that could not be indexed
(with the reason) and note names shared by several notes.`,
		Args: args(),
	}
	return readTool(g, c, "vault_status", &p, &p.Presentation, (*mcp.Tools).VaultStatus, nil)
}
