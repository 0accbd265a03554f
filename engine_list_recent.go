package vaultgraph

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// recentOrder answers the pages of list_nodes sorted by -modified (the
// notes last changed first, what a client polls for) without a pass over
// every note. It keeps the notes in that order as of its build (base),
// and the notes changed or gone since (changed), those still notes in
// order too (fresh); a page merges base, less what changed, with fresh.
// It is built on the first such page and patched by every change of a
// note's row (Engine.putRow, Engine.dropRow); once more notes changed
// than a rebuild costs to sort, it is dropped and built again when next
// asked.
type recentOrder struct {
	mu    sync.Mutex
	built bool
	base  []recentKey
	// changed maps each note changed since the build to its key now, or
	// to the zero key when it is gone.
	changed map[string]recentKey
	fresh   []recentKey
}

// recentKey is a note's place in a recentOrder.
type recentKey struct {
	modified time.Time
	id       string
}

// recentMinChanged is the fewest changes a recentOrder takes before it
// is rebuilt; more when the vault is large (a thirty-second of it).
const recentMinChanged = 256

// compareRecent orders keys as ListNodes sorts by -modified: the later
// modification time first, then by ID (Engine.sorter).
func compareRecent(a, b recentKey) int {
	if c := b.modified.Compare(a.modified); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// reset drops the order; the next page builds it again.
func (o *recentOrder) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.drop()
}

func (o *recentOrder) drop() {
	o.built, o.base, o.changed, o.fresh = false, nil, nil, nil
}

// first returns the IDs of the first n notes of rows in order, building
// the order from rows if it is not (caller holds e.mu).
func (o *recentOrder) first(rows noteRows, n int) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.built {
		o.base = make([]recentKey, len(rows))
		for i := range rows {
			o.base[i] = recentKey{modified: rows[i].modified, id: rows[i].id}
		}
		slices.SortFunc(o.base, compareRecent)
		o.changed, o.fresh, o.built = map[string]recentKey{}, nil, true
	}
	out := make([]string, 0, min(n, len(rows)))
	i, j := 0, 0
	for len(out) < n {
		for i < len(o.base) && o.stale(o.base[i].id) {
			i++
		}
		switch {
		case i < len(o.base) && (j == len(o.fresh) || compareRecent(o.base[i], o.fresh[j]) < 0):
			out = append(out, o.base[i].id)
			i++
		case j < len(o.fresh):
			out = append(out, o.fresh[j].id)
			j++
		default:
			return out
		}
	}
	return out
}

// stale reports whether the note id changed or went since the build.
func (o *recentOrder) stale(id string) bool {
	_, ok := o.changed[id]
	return ok
}

// remove takes the note id out of the order (caller holds e.mu for
// writing).
func (o *recentOrder) remove(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.built {
		return
	}
	if k, ok := o.changed[id]; ok && k.id != "" {
		if i, found := slices.BinarySearchFunc(o.fresh, k, compareRecent); found {
			o.fresh = slices.Delete(o.fresh, i, i+1)
		}
	}
	o.changed[id] = recentKey{}
	o.bound()
}

// insert puts a note into the order with key k (caller holds e.mu for
// writing; the note is not in the order: remove took it out).
func (o *recentOrder) insert(k recentKey) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.built {
		return
	}
	i, _ := slices.BinarySearchFunc(o.fresh, k, compareRecent)
	o.fresh = slices.Insert(o.fresh, i, k)
	o.changed[k.id] = k
	o.bound()
}

// bound drops the order once more notes changed than it is worth
// keeping apart from the base.
func (o *recentOrder) bound() {
	if len(o.changed) > max(recentMinChanged, len(o.base)/32) {
		o.drop()
	}
}

// putRow sets the row of the note id (noteRows.put) and keeps e.recent
// in step (caller holds e.mu for writing).
func (e *Engine) putRow(id string, old, ns *noteState) {
	if old != nil {
		e.recent.remove(id)
	}
	e.rows.put(id, old, ns)
	r := e.rows.of(ns)
	e.recent.insert(recentKey{modified: r.modified, id: r.id})
}

// dropRow removes the row of the note id (noteRows.drop) and keeps
// e.recent in step (caller holds e.mu for writing).
func (e *Engine) dropRow(id string, ns *noteState) {
	e.recent.remove(id)
	e.rows.drop(ns)
}

// listRecent answers a ListNodes page of q when it can be read from
// e.recent: no filter, sorted by -modified alone (caller holds e.mu).
func (e *Engine) listRecent(q ListQuery, keys []sortKey, page, limit int) (*ListResult, bool) {
	if len(keys) != 1 || keys[0] != (sortKey{field: "modified", desc: true}) || !unfiltered(q) {
		return nil, false
	}
	from, to, pages := pageOf(len(e.rows), page, limit)
	res := &ListResult{Nodes: []*Node{}, Pages: pages}
	ids := e.recent.first(e.rows, to)
	for _, id := range ids[min(from, len(ids)):] {
		res.Nodes = append(res.Nodes, e.nodeAs(id, q.Brief))
	}
	return res, true
}

// unfiltered reports whether q keeps every note.
func unfiltered(q ListQuery) bool {
	return q.Folder == "" && len(q.Tags) == 0 && len(q.Properties) == 0 &&
		q.CreatedAfter.IsZero() && q.CreatedBefore.IsZero() &&
		q.ModifiedAfter.IsZero() && q.ModifiedBefore.IsZero() &&
		!q.Orphans && !q.BrokenLinks && !q.BrokenAnchors
}
