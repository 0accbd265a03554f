package vaultgraph

import (
	"cmp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// listRow holds the sort keys of one note.
type listRow struct {
	id, title         string
	created, modified time.Time
	in, out           int
}

// row builds the sort row of the note of ns; the caller holds e.mu.
func (e *Engine) row(ns *noteState) listRow {
	return e.rowOf(e.rows.of(ns), rowNeeds{title: true, degrees: true})
}

// rowNeeds says which sort keys a row needs beyond its ID and times
// (in the note's noteRow): each costs a look-up (the title is in the
// note, the degrees in the graph), and a list_nodes pass builds a row
// for every note.
type rowNeeds struct{ title, degrees bool }

// rowNeedsOf returns what sorting by keys compares.
func rowNeedsOf(keys []sortKey) rowNeeds {
	var n rowNeeds
	for _, k := range keys {
		switch k.field {
		case "title":
			n.title = true
		case "inDegree", "outDegree":
			n.degrees = true
		}
	}
	return n
}

// rowOf builds the sort row of the note of nr with the keys needs names
// (the others are zero); the caller holds e.mu.
func (e *Engine) rowOf(nr *noteRow, needs rowNeeds) listRow {
	r := listRow{id: nr.id, created: nr.created, modified: nr.modified}
	if needs.title {
		r.title = nr.ns.note.Title
	}
	if needs.degrees {
		r.in, r.out = e.graph.InDegree(nr.id), e.graph.OutDegree(nr.id)
	}
	return r
}

// byKeys compares a and b by each of keys in turn, with compare for the
// key's field, reversed for a descending key: 0 when all are equal.
func byKeys[T any](keys []sortKey, a, b T, compare func(field string, a, b T) int) int {
	for _, k := range keys {
		c := compare(k.field, a, b)
		if k.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// sorter builds the comparison of note rows for sort keys; ties end on
// the ID so pages are stable. It is byKeys written out: through byKeys's
// function argument, the rows of every comparison would move to the heap.
func (e *Engine) sorter(keys []sortKey) func(a, b listRow) int {
	return func(a, b listRow) int {
		for _, k := range keys {
			c := e.compareRows(k.field, &a, &b)
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return strings.Compare(a.id, b.id)
	}
}

// compareRows compares two note rows by field, one of SortFields; the
// caller holds e.mu.
func (e *Engine) compareRows(field string, a, b *listRow) int {
	switch field {
	case "title":
		return compareNatural(vault.Fold(a.title), vault.Fold(b.title))
	case "path":
		return compareNatural(a.id, b.id)
	case "created":
		return a.created.Compare(b.created)
	case "modified":
		return a.modified.Compare(b.modified)
	case "inDegree":
		return cmp.Compare(a.in, b.in)
	case "outDegree":
		return cmp.Compare(a.out, b.out)
	}
	return cmp.Compare(e.graph.PageRankOf(a.id), e.graph.PageRankOf(b.id)) // pagerank
}

// sortNotes sorts items, each naming an existing note by id, by keys on
// the notes' sort rows; the caller holds e.mu. Only light rows are built.
func sortNotes[T any](e *Engine, items []T, id func(T) string, keys []sortKey) {
	compare := e.sorter(keys)
	type item struct {
		row listRow
		it  T
	}
	rows := make([]item, len(items))
	for i, it := range items {
		nid := id(it)
		rows[i] = item{row: e.row(e.notes[nid]), it: it}
	}
	sort.Slice(rows, func(i, j int) bool { return compare(rows[i].row, rows[j].row) < 0 })
	for i := range rows {
		items[i] = rows[i].it
	}
}

// tagSorter builds the comparison of tags for sort keys of TagList; ties
// end on the tag so pages are stable.
func tagSorter(keys []sortKey) func(a, b graph.TagCount) int {
	compare := func(field string, a, b graph.TagCount) int {
		if field == "count" {
			return cmp.Compare(a.Count, b.Count)
		}
		return strings.Compare(a.Tag, b.Tag)
	}
	return func(a, b graph.TagCount) int {
		if c := byKeys(keys, a, b, compare); c != 0 {
			return c
		}
		return strings.Compare(a.Tag, b.Tag)
	}
}

// sortHits reorders a page of hits by keys; ties keep their order (the
// rank).
func (e *Engine) sortHits(hits []SearchHit, keys []sortKey) error {
	if len(keys) == 0 || len(hits) < 2 {
		return nil
	}
	if err := e.readLock(); err != nil {
		return err
	}
	defer e.mu.RUnlock()
	type item struct {
		hit SearchHit
		row listRow
	}
	items := make([]item, len(hits))
	for i, h := range hits {
		items[i] = item{hit: h, row: listRow{id: h.ID}}
		if ns := e.notes[h.ID]; ns != nil {
			items[i].row = e.row(ns)
		}
	}
	compare := func(field string, a, b *item) int {
		if field == "score" {
			return cmp.Compare(a.hit.Score, b.hit.Score)
		}
		return e.compareRows(field, &a.row, &b.row)
	}
	slices.SortStableFunc(items, func(a, b item) int { return byKeys(keys, &a, &b, compare) })
	for i := range items {
		hits[i] = items[i].hit
	}
	return nil
}

// compareNatural compares a and b as people sort names: runs of digits by
// their number, so "N2" comes before "N10"; the rest byte by byte. Equal
// numbers written differently ("7", "07") order by length, then the rest.
func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), strings.Compare(na, nb), cmp.Compare(da, db)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun is the length of the ASCII digits s starts with.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}
