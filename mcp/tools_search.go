package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph"
)

// SearchParams are search's parameters.
type SearchParams struct {
	Query   string   `json:"query"`
	Mode    string   `json:"mode"`
	Limit   int      `json:"limit"`
	Tags    []string `json:"tags"`
	TagMode string   `json:"tagMode"`
	Folder  string   `json:"folder"`
	Presentation
}

// Search finds notes by words (full text) and meaning (vectors), best
// first, each with a score from 0 to 1 and a snippet of the matching text.
func (t *Tools) Search(ctx context.Context, p SearchParams) (any, error) {
	if strings.TrimSpace(p.Query) == "" {
		return nil, invalid("query", `required: words, a "quoted phrase" or a question`)
	}
	mode := vaultgraph.SearchMode(strings.ToLower(strings.TrimSpace(p.Mode)))
	switch mode {
	case "", vaultgraph.SearchHybrid, vaultgraph.SearchKeyword, vaultgraph.SearchSemantic:
	default:
		return nil, invalid("mode", "%q: use hybrid, keyword or semantic", p.Mode)
	}
	switch vaultgraph.TagMode(p.TagMode) {
	case "", vaultgraph.TagsAny, vaultgraph.TagsAll, vaultgraph.TagsNone:
	default:
		return nil, invalid("tagMode", "%q: use any, all or none", p.TagMode)
	}
	lim, err := limit("limit", p.Limit, vaultgraph.DefaultSearchLimit, vaultgraph.MaxSearchLimit)
	if err != nil {
		return nil, err
	}
	tags := slices.DeleteFunc(slices.Clone(p.Tags), func(s string) bool { return strings.TrimSpace(s) == "" })
	// One more than asked tells whether the answer was cut.
	ask := min(lim+1, vaultgraph.MaxSearchLimit)
	hits, warnings, err := t.Engine.Search(ctx, vaultgraph.SearchQuery{
		Query: p.Query, Mode: mode, Limit: ask,
		Tags: tags, TagMode: vaultgraph.TagMode(p.TagMode), Folder: p.Folder,
	})
	if err != nil {
		return nil, err
	}
	more := len(hits) > lim
	if more {
		hits = hits[:lim]
	}
	out := &ListResponse{Nodes: []NodeResponse{}, Warnings: warnings}
	withContent := p.wants("search", "content")
	for _, h := range hits {
		n, err := t.Engine.GetNode(ctx, h.ID, withContent)
		if err != nil {
			return nil, err
		}
		if n == nil { // removed since it was found: skip it
			continue
		}
		item := listItem(n)
		score := h.Score
		item.Score = &score
		item.Snippet = h.Snippet
		out.Nodes = append(out.Nodes, item)
	}
	out.Total = len(out.Nodes)
	out.Hint = searchHint(more, lim, len(hits))
	return out, nil
}

// searchHint is the line that says more notes match than were shown.
func searchHint(more bool, lim, n int) string {
	switch {
	case more:
		return fmt.Sprintf("more notes match: pass a larger limit (up to %d) for more", vaultgraph.MaxSearchLimit)
	case lim == vaultgraph.MaxSearchLimit && n == lim:
		return fmt.Sprintf("the top %d are shown, the most search returns: narrow the query, tags or folder for others", lim)
	}
	return ""
}
