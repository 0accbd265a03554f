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

// PageQuery sorts and pages a list answer.
type PageQuery struct {
	// SortBy: keys as ListQuery.SortBy ("-" prefix = descending, "+"
	// optional); nil or empty = the call's default order. An element may
	// hold several keys separated by commas ("-modified,title").
	SortBy []string
	// Page is 1-based (0 means 1); Limit is the page size (0 means
	// everything on one page).
	Page, Limit int
}

// TagSortFields are the keys ListTagsPage accepts ("name" is also read as
// "tag").
var TagSortFields = []string{"count", "tag"}

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
	keys, less, page, err := e.pageOrder(q)
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
		sortNotes(e, all, func(nb graph.Neighbor) string { return nb.ID }, less)
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

// pageOrder checks q's sort keys and page: the keys (nil: the call's
// default order), their comparison and the page number.
func (e *Engine) pageOrder(q PageQuery) ([]string, func(a, b *listRow) bool, int, error) {
	keys := sortKeys(q.SortBy)
	less, err := e.sorter(keys)
	if err != nil {
		return nil, nil, 0, err
	}
	page, err := q.page()
	if err != nil {
		return nil, nil, 0, err
	}
	return keys, less, page, nil
}

// SearchByTagsPage returns the notes having any (or, with all, every) of
// tags, sorted by q.SortBy (the keys of SortFields; default path) and
// paged, as ListNodes does. Tags match as in SearchByTags.
func (e *Engine) SearchByTagsPage(ctx context.Context, tags []string, all bool, q PageQuery) (*ListResult, error) {
	if len(tags) == 0 {
		return nil, fmt.Errorf("%w: tags: give at least one tag", ErrInvalid)
	}
	keys, less, page, err := e.pageOrder(q)
	if err != nil {
		return nil, err
	}
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	ids := e.graph.WithTags(tags, all) // sorted by ID: the default order
	if len(keys) > 0 {
		sortNotes(e, ids, func(id string) string { return id }, less)
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
	keys := sortKeys(q.SortBy)
	compare, err := tagSorter(keys)
	if err != nil {
		return nil, err
	}
	page, err := q.page()
	if err != nil {
		return nil, err
	}
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	tags := e.graph.Tags() // by count descending, then tag: the default order
	if len(keys) > 0 {
		slices.SortFunc(tags, compare)
	}
	from, to, pages := pageBounds(len(tags), page, q.Limit)
	res := &TagPage{Tags: make([]TagCount, 0, to-from), Total: len(tags), Page: page, TotalPages: pages}
	for _, t := range tags[from:to] {
		res.Tags = append(res.Tags, TagCount{Tag: t.Tag, Count: t.Count})
	}
	return res, nil
}

// checkDirection returns dir, "" read as graph.Both, or ErrInvalid.
func checkDirection(dir graph.Direction) (graph.Direction, error) {
	switch dir {
	case graph.Out, graph.In, graph.Both:
		return dir, nil
	case "":
		return graph.Both, nil
	}
	return "", fmt.Errorf("%w: direction %q: use in, out or both", ErrInvalid, dir)
}

// page checks q's paging and returns its page number, 0 read as 1.
func (q PageQuery) page() (int, error) {
	if q.Page < 0 {
		return 0, fmt.Errorf("%w: page %d: pages start at 1", ErrInvalid, q.Page)
	}
	if q.Limit < 0 {
		return 0, fmt.Errorf("%w: limit %d: use 0 (everything) or more", ErrInvalid, q.Limit)
	}
	return max(q.Page, 1), nil
}

// sortKeys splits keys given as comma-separated lists and drops blank ones.
func sortKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		for part := range strings.SplitSeq(k, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
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

// sortNotes sorts items, each naming an existing note by id, with less on
// the notes' sort rows; the caller holds e.mu. Only light rows are built.
func sortNotes[T any](e *Engine, items []T, id func(T) string, less func(a, b *listRow) bool) {
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

// tagSorter builds the comparison for tag sort keys; ties end on the tag
// so pages are stable.
func tagSorter(keys []string) (func(a, b graph.TagCount) int, error) {
	type key struct {
		cmp  func(a, b graph.TagCount) int
		desc bool
	}
	var ks []key
	for _, raw := range keys {
		name := strings.TrimSpace(raw)
		if name == "" {
			continue
		}
		desc := strings.HasPrefix(name, "-")
		name = strings.TrimLeft(name, "-+")
		var c func(a, b graph.TagCount) int
		switch strings.ToLower(name) {
		case "count":
			c = func(a, b graph.TagCount) int { return cmp.Compare(a.Count, b.Count) }
		case "tag", "name":
			c = func(a, b graph.TagCount) int { return strings.Compare(a.Tag, b.Tag) }
		default:
			return nil, fmt.Errorf("%w: sortBy %q: use one of %s, with '-' for descending", ErrInvalid, raw, strings.Join(TagSortFields, ", "))
		}
		ks = append(ks, key{cmp: c, desc: desc})
	}
	return func(a, b graph.TagCount) int {
		for _, k := range ks {
			c := k.cmp(a, b)
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.Tag, b.Tag)
	}, nil
}
