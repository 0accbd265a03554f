package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

func newSearchCmd(g *globals) *cobra.Command {
	var p mcp.SearchParams
	c := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Find notes by words and meaning, best first",
		Long: `Find notes matching QUERY (the arguments joined by spaces), best first, each
with a score from 0 to 1 and a snippet of the matching text.

Words match in titles and bodies, ignoring case and accents ("cafe" finds
"Café"), each also as the start of a longer word ("meet" finds "meeting");
every word must match, and only when no note has them all are notes with
some of them shown. Double quotes, escaped from the shell, keep a phrase:
'"budget risk"'. Other punctuation is plain text; put -- before a query
that starts with '-'.

--mode hybrid (default) fuses full-text and vector (embedding) results;
keyword is full text only; semantic is vectors only. Without embeddings,
hybrid and semantic give keyword results and say so in the warnings.`,
		Example: `  vaultgraph search meeting notes
  vaultgraph search '"budget risk"' --folder Projects
  vaultgraph search alpha --tags project,archive --tag-mode any --limit 5
  vaultgraph search cafe --mode keyword --format markdown`,
		Args: func(c *cobra.Command, a []string) error {
			if strings.TrimSpace(strings.Join(a, "")) == "" {
				return fmt.Errorf("%w: %s takes a QUERY", vaultgraph.ErrInvalid, c.Name())
			}
			return nil
		},
		RunE: func(c *cobra.Command, a []string) error {
			p.Query = strings.Join(a, " ")
			return g.withTools(c.Context(), "search", &p.Presentation, func(ctx context.Context, t *mcp.Tools) (any, error) {
				return t.Search(ctx, p)
			})
		},
	}
	f := c.Flags()
	f.StringVar(&p.Mode, "mode", string(vaultgraph.SearchHybrid), "hybrid (full text and vectors), keyword or semantic")
	f.IntVar(&p.Limit, "limit", vaultgraph.DefaultSearchLimit, fmt.Sprintf("how many notes (1-%d)", vaultgraph.MaxSearchLimit))
	f.StringSliceVar(&p.Tags, "tags", nil, "only notes with these tags (comma-separated or repeated), see --tag-mode")
	f.StringVar(&p.TagMode, "tag-mode", "any", "how --tags filters: any, all or none")
	f.StringVar(&p.Folder, "folder", "", "only notes in this folder or below it")
	presentationFlags(c, "search", &p.Presentation)
	g.embedFlags(c)
	return c
}
