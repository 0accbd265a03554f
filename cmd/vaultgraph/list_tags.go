package main

import (
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
	}
	pageFlags(c, vaultgraph.TagList, &p.Paging, "")
	return readTool(g, c, "list_tags", &p, &p.Presentation, (*mcp.Tools).ListTags, nil)
}
