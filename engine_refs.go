package vaultgraph

import (
	"slices"
	"strings"
)

// buildRefs files every note under the name of each of its links'
// targets (refKey), but not for its links to itself: what Engine.refs
// holds. The lists are carved from one slice, and the names copied into
// one string: appending to a list per name (as addRefs files one note)
// leaves the heap full of holes. A link's name is folded into one buffer
// (appendRefKey): only a name seen first is allocated.
func buildRefs(notes map[string]*noteState) idLists {
	type ref struct{ key, note int32 }
	ids := make([]string, 0, len(notes))
	total := 0
	states := make([]*noteState, 0, len(notes))
	for _, ns := range notes {
		ids = append(ids, ns.note.ID)
		states = append(states, ns)
		total += len(ns.status)
	}
	refs := make([]ref, 0, total)
	byKey := map[string]int32{}
	var keys []string
	var counts []int32
	var k []byte
	for i, ns := range states {
		for _, l := range ns.eachLink() {
			if l.IsSelf() {
				continue
			}
			k = appendRefKey(k[:0], l.Target)
			at, ok := byKey[string(k)]
			if !ok {
				at = int32(len(keys))
				keys = append(keys, string(k))
				byKey[keys[at]] = at
				counts = append(counts, 0)
			}
			refs = append(refs, ref{at, int32(i)})
			counts[at]++
		}
	}
	byKey = nil
	// Each name's place in the slab, then its notes, in turn.
	next := make([]int32, len(keys))
	sum := int32(0)
	for k, n := range counts {
		next[k], sum = sum, sum+n
	}
	slab := make([]string, len(refs))
	for _, r := range refs {
		slab[next[r.key]] = ids[r.note]
		next[r.key]++
	}
	names := joinedStrings(keys)
	out := make(idLists, len(keys))
	for k, end := range next {
		l := slab[end-counts[k] : end]
		slices.Sort(l)
		l = slices.Compact(l)
		out[names[k]] = l[:len(l):len(l)]
	}
	return out
}

// joinedStrings returns a copy of l whose strings share one allocation.
func joinedStrings(l []string) []string {
	n := 0
	for _, s := range l {
		n += len(s)
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range l {
		b.WriteString(s)
	}
	all, out := b.String(), make([]string, len(l))
	for i, s := range l {
		out[i], all = all[:len(s)], all[len(s):]
	}
	return out
}
