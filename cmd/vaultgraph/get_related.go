package main

import (
	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newGetRelatedCmd(g *globals) *cobra.Command {
	var p mcp.GetRelatedParams
	c := &cobra.Command{
		Use:   "get-related [ID...]",
		Short: "List the notes closest to some notes in the link graph",
		Long: `List the notes closest to one or more notes by personalized PageRank over
the links (followed in both directions, every walk restarting at the given
notes), best first. Each row says why: distance (the fewest links from a
given note), shared (how many of the given notes' neighbours it is linked
with) and via (some of them). With --query, the best search hits for it are
the start ("search, then expand"). The given notes are left out, and with
--exclude-linked so are the notes already linked with them. Notes given that
do not exist print null.`,
		Example: `  vaultgraph get-related "Alpha Plan"
  vaultgraph get-related Beta Home --exclude-linked --limit 5
  vaultgraph get-related --query "budget risk"`,
		Args: cobra.ArbitraryArgs,
	}
	c.Flags().StringVar(&p.Query, "query", "", "search words whose best hits are the start")
	c.Flags().BoolVar(&p.ExcludeLinked, "exclude-linked", false, "leave out notes already linked with a given note")
	pageFlags(c, vaultgraph.RelatedList, &p.Paging, " (reorders the page; default: closest first)")
	return readTool(g, c, "get_related", &p, &p.Presentation, (*mcp.Tools).GetRelated, func(a []string) error {
		p.IDs = a
		return nil
	})
}
