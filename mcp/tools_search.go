package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultgraph/vaultgraph"
)

// SearchParams are search's parameters.
type SearchParams struct {
	Query string `json:"query"`
	Mode  string `json:"mode"`
	Paging
	Tags    []string `json:"tags"`
	TagMode string   `json:"tagMode"`
	Folder  string   `json:"folder"`
	Presentation
}

// Search finds notes by words (full text) and meaning (vectors), best
// first, each with a score from 0 to 1 and a snippet of the matching text,
// a page at a time: total is the number of matching notes found, at most
// vaultgraph.MaxSearchTotal (the hint says "at least" when more match).
func (t *Tools) Search(ctx context.Context, p SearchParams) (any, error) {
	if err := required("query", p.Query, `words, a "quoted phrase" or a question`); err != nil {
		return nil, err
	}
	res, err := t.Engine.SearchPage(ctx, vaultgraph.SearchQuery{
		Query: p.Query, Mode: vaultgraph.SearchMode(p.Mode), Limit: p.Limit, Page: p.Page, SortBy: p.SortBy,
		Tags: nonBlank(p.Tags), TagMode: vaultgraph.TagMode(p.TagMode), Folder: p.Folder,
	})
	if err != nil {
		return nil, err
	}
	out := nodePage(vaultgraph.Pages{Total: res.Total, Page: res.Page, TotalPages: res.TotalPages}, res.Warnings)
	out.Hint = searchHint(res)
	if res.Total == 0 {
		out.Hint = emptySearchHint(p)
	}
	return addRanked(ctx, t, out, res.Hits, p.wants(searchFields, "content"),
		func(h vaultgraph.SearchHit) string { return h.ID },
		func(h vaultgraph.SearchHit, item *NodeResponse) { item.Score, item.Snippet = &h.Score, h.Snippet })
}

// emptySearchHint is the hint of a search that found nothing: fewer
// words, the other kind of matching, no filters.
func emptySearchHint(p SearchParams) string {
	h := "no note matches: try fewer or other words"
	switch vaultgraph.SearchMode(p.Mode) {
	case vaultgraph.SearchKeyword:
		h += ", or {mode: hybrid} to match by meaning too"
	case vaultgraph.SearchSemantic:
		h += ", or {mode: keyword} to match words"
	}
	if len(p.Tags) > 0 || strings.TrimSpace(p.Folder) != "" {
		h += "; without the tags or folder filter more notes qualify"
	}
	return h
}

// searchHint is the line that says how to see more of the matching
// notes: the next page, or when the pages end at the notes counted
// (vaultgraph.MaxSearchTotal) with more matching, how to narrow.
func searchHint(res *vaultgraph.SearchResult) string {
	switch {
	case res.AtLeast && res.Page < res.TotalPages:
		return fmt.Sprintf("page %d of %d; at least %d notes match (the best %d are paged): pass {page: %d} for more, or narrow the query, tags or folder",
			res.Page, res.TotalPages, res.Total, res.Total, res.Page+1)
	case res.AtLeast:
		return fmt.Sprintf("at least %d notes match and the pages hold the best %d: narrow the query, tags or folder for others", res.Total, res.Total)
	}
	return pageHint(res.Page, res.TotalPages)
}
