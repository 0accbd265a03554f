package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// oneShotEmbedWait bounds how long a command that searches (search) makes
// missing vectors before it answers: the builtin model embeds about 1,300
// notes a second here, so a first search of a 100,000-note vault would
// otherwise wait over a minute. The vectors made are kept for the next
// run. It is the default of runOptions.embedWait, which tests shorten.
const oneShotEmbedWait = 10 * time.Second

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
hybrid and semantic give keyword results and say so in the warnings.

Results come a page at a time (--limit per page, --page); the answer gives
the total of matching notes (at most ` + fmt.Sprint(vaultgraph.MaxSearchTotal) + `, "at least" when more match)
and the number of pages. --sort-by reorders the notes of the page.

--embed (default builtin) is the model whose vectors answer. Missing
vectors are made before answering, for up to ` + oneShotEmbedWait.String() + `; on a vault too large for
that the search answers with the vectors made so far and says so (the
next search goes on; 'vaultgraph index' makes them all). A search keeps
the vectors of other models in the index, and says when they exist:
pass the --embed they were made with to use them.`,
		Example: `  vaultgraph search meeting notes
  vaultgraph search '"budget risk"' --folder Projects
  vaultgraph search alpha --tags project,archive --tag-mode any --limit 5
  vaultgraph search cafe --mode keyword --format markdown
  vaultgraph search plan --limit 20 --page 2 --sort-by -modified`,
		Args: func(c *cobra.Command, a []string) error {
			if strings.TrimSpace(strings.Join(a, "")) == "" {
				return fmt.Errorf("%w: %s takes a QUERY", vaultgraph.ErrInvalid, c.Name())
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&p.Mode, "mode", string(vaultgraph.SearchHybrid), "hybrid (full text and vectors), keyword or semantic")
	pageFlags(c, vaultgraph.SearchList, &p.Paging, " (reorders the page; the ranking picks its notes)")
	f.StringSliceVar(&p.Tags, "tags", nil, "only notes with these tags (comma-separated or repeated), see --tag-mode")
	f.StringVar(&p.TagMode, "tag-mode", string(vaultgraph.TagsAny), "how --tags filters: "+oneOf(vaultgraph.TagModes))
	f.StringVar(&p.Folder, "folder", "", "only notes in this folder or below it")
	readTool(g, c, "search", &p, &p.Presentation, (*mcp.Tools).Search, func(a []string) error {
		p.Query = strings.Join(a, " ")
		return nil
	})
	g.embedFlags(c) // after RunE is set: it wraps it
	return c
}
