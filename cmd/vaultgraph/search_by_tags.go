package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newSearchByTagsCmd(g *globals) *cobra.Command {
	var p mcp.SearchByTagsParams
	c := &cobra.Command{
		Use:   "search-by-tags TAG...",
		Short: "List notes with any or all of the given tags",
		Long: `List notes carrying any (or, with --mode all, every one) of the tags.
Tags match without '#' and ignoring case; a parent tag also matches its
nested tags ("project" matches "project/alpha").`,
		Example: `  vaultgraph search-by-tags project idea
  vaultgraph search-by-tags project/alpha urgent --mode all`,
		Args: func(c *cobra.Command, a []string) error {
			if len(a) == 0 {
				return fmt.Errorf("%w: %s takes at least one TAG", vaultgraph.ErrInvalid, c.Name())
			}
			return nil
		},
	}
	c.Flags().StringVar(&p.Mode, "mode", "any", "any (a note has at least one tag) or all (every tag)")
	pageFlags(c, vaultgraph.TaggedList, &p.Paging, "")
	return readTool(g, c, "search_by_tags", &p, &p.Presentation, (*mcp.Tools).SearchByTags, func(a []string) error {
		p.Tags = a
		return nil
	})
}
