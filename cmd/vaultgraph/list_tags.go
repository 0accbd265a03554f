package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph/mcp"
)

func newListTagsCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list-tags",
		Short: "List every tag with its note count, most used first",
		Long: `List every tag in the vault (frontmatter and inline #tags, lower case)
with the number of notes carrying it, most used first.`,
		Args: args(),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.withTools(c.Context(), func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.ListTags(ctx)
			})
		},
	}
}
