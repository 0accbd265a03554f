package vaultgraph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/vaultgraph/vaultgraph/graph"
)

// NeighborPage is one page of a note's neighbours.
type NeighborPage struct {
	Neighbors  []Neighbor `json:"neighbors"`
	Total      int        `json:"total"`
	Page       int        `json:"page"`
	TotalPages int        `json:"totalPages"`
	// Warnings are non-fatal notes on the lookup, e.g. the note name is
	// shared by several notes.
	Warnings []string `json:"warnings,omitempty"`
}

// TagPage is one page of tags.
type TagPage struct {
	Tags       []TagCount `json:"tags"`
	Total      int        `json:"total"`
	Page       int        `json:"page"`
	TotalPages int        `json:"totalPages"`
}

// NeighborsPage is like Neighbors, but sorted by q.SortBy (the keys of
// SortFields) and paged. The default order is the graph's: outgoing links
// first, in file order, then incoming ones. It returns nil (and no error)
// when no note matches id.
func (e *Engine) NeighborsPage(ctx context.Context, id string, dir graph.Direction, q PageQuery) (*NeighborPage, error) {
	dir, err := checkDirection(dir)
	if err != nil {
		return nil, err
	}
	keys, page, err := q.check(NeighborList)
	if err != nil {
		return nil, err
	}
	if err := e.readLock(); err != nil {
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
	from, to, pages := pageBounds(len(all), page, q.Limit)
	res := &NeighborPage{
		Neighbors: make([]Neighbor, 0, to-from),
		Total:     len(all), Page: page, TotalPages: pages,
		Warnings: warnings,
	}
	for _, nb := range all[from:to] {
		res.Neighbors = append(res.Neighbors, Neighbor{Node: e.node(nb.ID), Direction: nb.Direction})
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
	keys, page, err := q.check(TaggedList)
	if err != nil {
		return nil, err
	}
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	ids := e.graph.WithTags(tags, all) // sorted by ID: the default order
	if len(keys) > 0 {
		sortNotes(e, ids, func(id string) string { return id }, keys)
	}
	from, to, pages := pageBounds(len(ids), page, q.Limit)
	res := &ListResult{Nodes: make([]*Node, 0, to-from), Total: len(ids), Page: page, TotalPages: pages}
	for _, id := range ids[from:to] {
		res.Nodes = append(res.Nodes, e.node(id))
	}
	return res, nil
}

// ListTagsPage returns the tags with their note counts, sorted by q.SortBy
// (the keys of TagSortFields; default "-count", "tag": most used first)
// and paged.
func (e *Engine) ListTagsPage(ctx context.Context, q PageQuery) (*TagPage, error) {
	keys, page, err := q.check(TagList)
	if err != nil {
		return nil, err
	}
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	tags := e.graph.Tags() // by count descending, then tag: the default order
	if len(keys) > 0 {
		slices.SortFunc(tags, tagSorter(keys))
	}
	from, to, pages := pageBounds(len(tags), page, q.Limit)
	res := &TagPage{Tags: make([]TagCount, 0, to-from), Total: len(tags), Page: page, TotalPages: pages}
	for _, t := range tags[from:to] {
		res.Tags = append(res.Tags, TagCount{Tag: t.Tag, Count: t.Count})
	}
	return res, nil
}

// pageBounds returns the range [from, to) of page (1-based) in n items
// cut into pages of limit (0: one page holding everything), and the number
// of pages. A page past the end is the empty range n, n.
func pageBounds(n, page, limit int) (from, to, pages int) {
	if n == 0 {
		return 0, 0, 0
	}
	if limit == 0 {
		limit = n
	}
	pages = (n + limit - 1) / limit
	if page > pages {
		return n, n, pages
	}
	from = (page - 1) * limit
	return from, min(from+limit, n), pages
}

// sortNotes sorts items, each naming an existing note by id, by keys on
// the notes' sort rows; the caller holds e.mu. Only light rows are built.
func sortNotes[T any](e *Engine, items []T, id func(T) string, keys []sortKey) {
	less := e.sorter(keys)
	type item struct {
		row listRow
		it  T
	}
	rows := make([]item, len(items))
	for i, it := range items {
		nid := id(it)
		rows[i] = item{row: e.row(nid, e.notes[nid]), it: it}
	}
	sort.Slice(rows, func(i, j int) bool { return less(&rows[i].row, &rows[j].row) })
	for i := range rows {
		items[i] = rows[i].it
	}
}

// tagSorter builds the comparison of tags for sort keys of TagList; ties
// end on the tag so pages are stable.
func tagSorter(keys []sortKey) func(a, b graph.TagCount) int {
	return func(a, b graph.TagCount) int {
		for _, k := range keys {
			c := strings.Compare(a.Tag, b.Tag)
			if k.field == "count" {
				c = cmp.Compare(a.Count, b.Count)
			}
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.Tag, b.Tag)
	}
}
