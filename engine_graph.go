package vaultgraph

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/vaultgraph/vaultgraph/graph"
)

// Neighbor is a note linked to or from the note asked about, with the
// direction of the link.
type Neighbor struct {
	*Node
	// Direction is "out" when the asked note links to this one, "in" when
	// this one links to the asked note, "both" when both are true.
	Direction graph.Direction `json:"direction"`
}

// Neighbors returns up to limit notes linked with id in direction dir
// (graph.Out, graph.In or graph.Both), outgoing first, and how many there
// are in all. A missing note gives a nil slice (an existing note without
// neighbours an empty one).
func (e *Engine) Neighbors(ctx context.Context, id string, dir graph.Direction, limit int) ([]Neighbor, int, []string, error) {
	p, err := e.NeighborsPage(ctx, id, dir, PageQuery{Limit: max(limit, 0)})
	if err != nil || p == nil {
		return nil, 0, nil, err
	}
	return p.Neighbors, p.Total, p.Warnings, nil
}

// Path is a shortest path between two notes.
type Path struct {
	Path   []string `json:"path"`
	Length int      `json:"length"`
}

// FindPath returns a shortest path from source to target, following links
// in either direction unless directed, or nil when there is none (or a
// note is missing).
func (e *Engine) FindPath(ctx context.Context, source, target string, directed bool) (*Path, []string, error) {
	if err := e.readLock(); err != nil {
		return nil, nil, err
	}
	defer e.mu.RUnlock()
	src, w1, err := e.lookup(source)
	if err != nil {
		return nil, nil, fmt.Errorf("source: %w", err)
	}
	dst, w2, err := e.lookup(target)
	if err != nil {
		return nil, nil, fmt.Errorf("target: %w", err)
	}
	warnings := append(w1, w2...)
	if src == "" || dst == "" {
		return nil, warnings, nil
	}
	p := e.graph.ShortestPath(src, dst, directed)
	if p == nil {
		return nil, warnings, nil
	}
	return &Path{Path: p, Length: len(p) - 1}, warnings, nil
}

// Hub is a note with its score on a centrality metric.
type Hub struct {
	ID    string  `json:"id"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

// HubPage is one page of the ranking of notes by a centrality metric.
type HubPage struct {
	// Metric is the metric that ranks the notes ("" asked is Metrics.Default).
	Metric graph.Metric `json:"metric"`
	Hubs   []Hub        `json:"hubs"`
	// Pages: Total is the number of ranked notes, those scoring above 0
	// (every note for pagerank; notes with no link in, or out, rank
	// nowhere by degree).
	Pages
	// Unranked is how many notes score 0 and are left out of the ranking.
	Unranked int `json:"unranked"`
}

// HubsPage returns page q.Page (q.Limit notes a page; 0: all on one page)
// of the ranking by metric: highest score first, ties by ID; notes
// scoring 0 are not ranked (HubPage.Unranked counts them).
// The ranking chooses which notes are on the page; q.SortBy (the
// keys of SortFields) then only reorders that page's notes (nil keeps the
// ranking's order). A page past the end is empty.
func (e *Engine) HubsPage(ctx context.Context, metric graph.Metric, q PageQuery) (*HubPage, error) {
	metric, err := Metrics.Parse("metric", metric)
	if err != nil {
		return nil, err
	}
	keys, page, err := e.readPage(q, HubList)
	if err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	total := e.graph.Ranked(metric)
	from, to, pages := pageOf(total, page, q.Limit)
	var ranked []graph.Hub
	if to > from {
		// The top "to" notes, of which the page is the last to-from.
		ranked = e.graph.Hubs(metric, to)
		ranked = ranked[min(from, len(ranked)):]
	}
	if len(keys) > 0 {
		sortNotes(e, ranked, func(h graph.Hub) string { return h.ID }, keys)
	}
	return &HubPage{Metric: metric, Hubs: e.hubs(ranked), Pages: pages, Unranked: e.graph.Len() - total}, nil
}

// hubs gives the graph's ranked notes their titles.
func (e *Engine) hubs(ranked []graph.Hub) []Hub {
	out := make([]Hub, 0, len(ranked))
	for _, h := range ranked {
		out = append(out, Hub{ID: h.ID, Title: e.notes[h.ID].note.Title, Score: h.Score})
	}
	return out
}

// SearchByTags returns up to limit notes having any (or, with all, every)
// of tags, sorted by ID, and how many match in all. Matching ignores case
// and a leading '#', and a parent tag matches its nested tags.
func (e *Engine) SearchByTags(ctx context.Context, tags []string, all bool, limit int) ([]*Node, int, error) {
	res, err := e.SearchByTagsPage(ctx, tags, all, PageQuery{Limit: max(limit, 0)})
	if err != nil {
		return nil, 0, err
	}
	return res.Nodes, res.Total, nil
}

// TagCount is a tag and how many notes carry it.
type TagCount struct {
	Tag   string `json:"tag"`
	Count int    `json:"count"`
}

// ListTags returns every tag with its note count, most used first.
func (e *Engine) ListTags(ctx context.Context) ([]TagCount, error) {
	p, err := e.ListTagsPage(ctx, PageQuery{})
	if err != nil {
		return nil, err
	}
	return p.Tags, nil
}

// RandomNode returns a random note, among those with any of tags when
// given, or nil when there is none. r may be nil.
func (e *Engine) RandomNode(ctx context.Context, r *rand.Rand, tags []string) (*Node, error) {
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	id, ok := e.graph.Random(r, tags)
	if !ok {
		return nil, nil
	}
	return e.nodeAs(id, false), nil
}
