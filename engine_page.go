package vaultgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/graph"
)

// NeighborPage is one page of a note's neighbours.
type NeighborPage struct {
	// ID is the note asked about, as found.
	ID        string     `json:"id"`
	Neighbors []Neighbor `json:"neighbors"`
	Pages
	// Warnings are non-fatal notes on the lookup, e.g. the note name is
	// shared by several notes.
	Warnings []string `json:"warnings,omitempty"`
}

// TagPage is one page of tags.
type TagPage struct {
	Tags []TagCount `json:"tags"`
	Pages
}

// NeighborsPage is like Neighbors, but sorted by q.SortBy (the keys of
// SortFields) and paged. The default order is the graph's: outgoing links
// first, in file order, then incoming ones. It returns nil (and no error)
// when no note matches id.
func (e *Engine) NeighborsPage(ctx context.Context, id string, dir graph.Direction, q PageQuery) (*NeighborPage, error) {
	dir, err := Directions.Parse("direction", dir)
	if err != nil {
		return nil, err
	}
	keys, page, err := e.readPage(q, NeighborList)
	if err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	found, warnings, err := e.lookup(id)
	if err != nil || found == "" {
		return nil, err
	}
	all := e.graph.Neighbors(found, dir, 0)
	if len(keys) > 0 {
		sortNotes(e, all, func(nb graph.Neighbor) string { return nb.ID }, keys)
	}
	from, to, pages := pageOf(len(all), page, q.Limit)
	res := &NeighborPage{ID: found, Neighbors: make([]Neighbor, 0, to-from), Pages: pages, Warnings: warnings}
	for _, nb := range all[from:to] {
		res.Neighbors = append(res.Neighbors, Neighbor{Node: e.nodeAs(nb.ID, q.Brief), Direction: nb.Direction})
	}
	return res, nil
}

// SearchByTagsPage returns the notes having any (or, with all, every) of
// tags, sorted by q.SortBy (the keys of SortFields; default path) and
// paged, as ListNodes does. Tags match as in SearchByTags.
func (e *Engine) SearchByTagsPage(ctx context.Context, tags []string, all bool, q PageQuery) (*ListResult, error) {
	if len(tags) == 0 {
		return nil, fmt.Errorf("%w: tags: give at least one tag", ErrInvalid)
	}
	keys, page, err := e.readPage(q, TaggedList)
	if err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	ids := e.graph.WithTags(tags, all) // sorted by ID: the default order
	if len(keys) > 0 {
		sortNotes(e, ids, func(id string) string { return id }, keys)
	}
	from, to, pages := pageOf(len(ids), page, q.Limit)
	res := &ListResult{Nodes: make([]*Node, 0, to-from), Pages: pages}
	for _, id := range ids[from:to] {
		res.Nodes = append(res.Nodes, e.nodeAs(id, q.Brief))
	}
	return res, nil
}

// ListTagsPage returns the tags with their note counts, sorted by q.SortBy
// (the keys of TagSortFields; default "-count", "tag": most used first)
// and paged.
func (e *Engine) ListTagsPage(ctx context.Context, q PageQuery) (*TagPage, error) {
	keys, page, err := e.readPage(q, TagList)
	if err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	tags := e.graph.Tags() // by count descending, then tag: the default order
	if len(keys) > 0 {
		slices.SortFunc(tags, tagSorter(keys))
	}
	from, to, pages := pageOf(len(tags), page, q.Limit)
	res := &TagPage{Tags: make([]TagCount, 0, to-from), Pages: pages}
	spelling := e.tagSpellings(tags[from:to])
	for _, t := range tags[from:to] {
		res.Tags = append(res.Tags, TagCount{Tag: spelling[t.Tag], Count: t.Count})
	}
	return res, nil
}

// tagSpellings maps each of tags (lower case, as the graph keeps them) to
// the spelling notes use for it: tags keep the letter case they are
// written in, everywhere, and a tag written in several ways is listed
// under the most used one (ties: the first in byte order). The caller
// holds e.mu.
func (e *Engine) tagSpellings(tags []graph.TagCount) map[string]string {
	uses := make(map[string]map[string]int, len(tags))
	for _, t := range tags {
		uses[t.Tag] = map[string]int{}
	}
	for _, ns := range e.notes {
		for _, tag := range ns.note.Tags {
			if u, ok := uses[strings.ToLower(tag)]; ok {
				u[tag]++
			}
		}
	}
	out := make(map[string]string, len(tags))
	for key, u := range uses {
		best, n := key, 0
		for s, c := range u {
			if c > n || c == n && s < best {
				best, n = s, c
			}
		}
		out[key] = best
	}
	return out
}
