package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newListTagsCmd(g *globals) *cobra.Command {
	var p mcp.ListTagsParams
	c := &cobra.Command{
		Use:   "list-tags",
		Short: "List the tags with their note counts, most used first",
		Long: `List the tags of the vault (frontmatter and inline #tags, lower case)
with the number of notes carrying each, most used first, a page at a time.`,
		Example: `  vaultgraph list-tags --limit 20
  vaultgraph list-tags --sort-by tag --format json`,
		Args: args(),
		RunE: func(c *cobra.Command, _ []string) error {
			return g.withTools(c.Context(), "list_tags", p, &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.ListTags(ctx, p)
			})
		},
	}
	pageFlags(c, vaultgraph.TagList, &p.Paging, "")
	presentationFlags(c, "list_tags", &p.Presentation)
	return c
}
