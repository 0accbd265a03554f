package vaultgraph

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Bounds of RelatedPage.
const (
	// DefaultRelatedLimit and MaxRelatedLimit bound a page of related
	// notes (RelatedList).
	DefaultRelatedLimit = 10
	MaxRelatedLimit     = 50
	// RelatedSearchSeeds is how many of a query's best search hits seed
	// RelatedPage ("search, then expand").
	RelatedSearchSeeds = 5
	// MaxRelatedSeeds bounds the notes a caller may give as seeds.
	MaxRelatedSeeds = 20
	// MaxRelatedVia is how many shared neighbours a related note names.
	MaxRelatedVia = 3
)

// RelatedList is RelatedPage (get_related): the score first, then the
// keys of notes; sortBy reorders a page only.
var RelatedList = ListKind{SortFields: SearchSortFields, aliases: noteAliases, DefaultLimit: DefaultRelatedLimit, MaxLimit: MaxRelatedLimit}

// RelatedQuery asks for the notes closest to some notes in the link
// graph.
type RelatedQuery struct {
	// IDs are the seed notes, in any form Lookup accepts.
	IDs []string
	// Query, when set, adds the RelatedSearchSeeds best notes Search
	// finds for it to the seeds.
	Query string
	// ExcludeLinked leaves out the notes linked with a seed, to find
	// notes that are close but not yet linked.
	ExcludeLinked bool
	// SortBy, Page and Limit page the ranking as PageQuery does (Limit 0:
	// everything); SortBy (RelatedList's keys) reorders only the page.
	SortBy      []string
	Page, Limit int
}

// RelatedNote is a note close to the seeds, with why.
type RelatedNote struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Score is the note's personalized PageRank over the best note's
	// (the closest scores 1).
	Score float64 `json:"score"`
	// Distance is the fewest links between the note and a seed, in
	// either direction (0: more than 6).
	Distance int `json:"distance"`
	// Shared is how many of the seeds' neighbours the note is linked with
	// too; Via names up to MaxRelatedVia of them (IDs).
	Shared int      `json:"shared"`
	Via    []string `json:"via,omitempty"`
}

// RelatedPage is one page of the notes closest to the seeds.
type RelatedPage struct {
	// Seeds are the notes the walk started from.
	Seeds []string      `json:"seeds"`
	Notes []RelatedNote `json:"notes"`
	Pages
	Warnings []string `json:"warnings,omitempty"`
}

// RelatedPage ranks the notes by personalized PageRank over the links
// (both directions), restarting at the seeds: q.IDs and, with q.Query,
// the best notes Search finds for it. The seeds are left out, and with
// q.ExcludeLinked so are the notes linked with them. Each note says why
// it is related: its distance from the nearest seed and the seeds'
// neighbours it shares. It returns nil when q names notes, none exists
// and there is no query.
func (e *Engine) RelatedPage(ctx context.Context, q RelatedQuery) (*RelatedPage, error) {
	if len(q.IDs) == 0 && strings.TrimSpace(q.Query) == "" {
		return nil, fmt.Errorf("%w: ids: give one or more notes, or a query", ErrInvalid)
	}
	if len(q.IDs) > MaxRelatedSeeds {
		return nil, fmt.Errorf("%w: ids: %d notes: give at most %d", ErrInvalid, len(q.IDs), MaxRelatedSeeds)
	}
	keys, page, err := PageQuery{SortBy: q.SortBy, Page: q.Page, Limit: q.Limit}.check(RelatedList)
	if err != nil {
		return nil, err
	}
	seeds, warnings, err := e.relatedSeeds(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(seeds) == 0 && strings.TrimSpace(q.Query) == "" {
		return nil, nil
	}
	res := &RelatedPage{Seeds: seeds, Notes: []RelatedNote{}, Pages: Pages{Page: page}, Warnings: warnings}
	if len(seeds) == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no note matches the query %q, so there is nothing to start from", q.Query))
		return res, nil
	}
	g := e.Graph()
	ranked, total := g.Related(seeds, q.ExcludeLinked, page*q.Limit) // limit 0: everything
	from, to, pages := pageOf(total, page, q.Limit)
	to = min(to, len(ranked))
	from = min(from, to)
	res.Pages = pages
	hits := make([]SearchHit, 0, to-from)
	for _, r := range ranked[from:to] {
		hits = append(hits, SearchHit{ID: r.ID, Score: r.Score})
	}
	if err := e.sortHits(hits, keys); err != nil {
		return nil, err
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	why := g.RelatedWhy(seeds, ids)
	for i, h := range hits {
		w := why[i]
		res.Notes = append(res.Notes, RelatedNote{ID: h.ID, Title: e.title(h.ID), Score: math.Round(h.Score*1e4) / 1e4,
			Distance: w.Distance, Shared: len(w.Shared), Via: w.Shared[:min(len(w.Shared), MaxRelatedVia)]})
	}
	return res, nil
}

// relatedSeeds are the notes q starts from, in order, each once, with
// warnings for the IDs that match no note.
func (e *Engine) relatedSeeds(ctx context.Context, q RelatedQuery) ([]string, []string, error) {
	var seeds, warnings []string
	for _, raw := range q.IDs {
		id, w, err := e.Lookup(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("ids: %w", err)
		}
		warnings = append(warnings, w...)
		switch {
		case id == "":
			warnings = append(warnings, fmt.Sprintf("no note matches %q", raw))
		case !slices.Contains(seeds, id):
			seeds = append(seeds, id)
		}
	}
	if strings.TrimSpace(q.Query) == "" {
		return seeds, warnings, nil
	}
	mode := SearchHybrid
	if e.emb == nil {
		mode = SearchKeyword // no vectors to fuse: no warning about them
	}
	hits, w, err := e.Search(ctx, SearchQuery{Query: q.Query, Mode: mode, Limit: RelatedSearchSeeds})
	if err != nil {
		return nil, nil, fmt.Errorf("query: %w", err)
	}
	warnings = append(warnings, w...)
	for _, h := range hits {
		if !slices.Contains(seeds, h.ID) {
			seeds = append(seeds, h.ID)
		}
	}
	return seeds, warnings, nil
}

// title is the title of the note id, or id when it is gone.
func (e *Engine) title(id string) string {
	if err := e.readLock(); err != nil {
		return id
	}
	defer e.mu.RUnlock()
	if ns, ok := e.notes[id]; ok {
		return ns.note.Title
	}
	return id
}
