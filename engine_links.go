package vaultgraph

import (
	"context"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/slab"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// lazyLinks holds the links of a note taken from the snapshot cache
// until something reads them: most starts never do, and they are large.
type lazyLinks struct {
	once sync.Once
	text *store.LinkText
}

// newLazyLinks returns the holder of text, nil when there is none.
func newLazyLinks(text *store.LinkText) *lazyLinks {
	if text == nil {
		return nil
	}
	return &lazyLinks{text: text}
}

// full returns the note with its links, decoding them the first time
// (safe under the engine's read lock: once).
func (ns *noteState) full() *vault.Note {
	if l := ns.lazy; l != nil {
		l.once.Do(func() {
			// The cache's checksum held when it was loaded, so this
			// cannot fail short of a fault in the decoder; the note
			// then has no links rather than wrong ones.
			links, err := l.text.Links()
			if err == nil {
				ns.note.Links = links
			}
		})
	}
	return ns.note
}

// eachLink yields the note's links without decoding them into the note
// (nothing is kept): for what only reads them once.
func (ns *noteState) eachLink() iter.Seq2[int, vault.Link] {
	if ns.lazy != nil {
		return ns.lazy.text.All()
	}
	return slices.All(ns.note.Links)
}

// eachAnchor yields each link's kind and fragment (what an anchor check
// reads), without decoding the rest of a link the cache holds.
func (ns *noteState) eachAnchor() iter.Seq2[int, store.LinkAnchor] {
	if ns.lazy != nil {
		return ns.lazy.text.Anchors()
	}
	return func(yield func(int, store.LinkAnchor) bool) {
		for i, l := range ns.note.Links {
			if !yield(i, store.LinkAnchor{Kind: l.Kind, Fragment: l.Fragment}) {
				return
			}
		}
	}
}

// link returns link i of the note, decoding that one alone from the
// cache.
func (ns *noteState) link(i int) vault.Link {
	if ns.lazy != nil {
		l, _ := ns.lazy.text.Link(i)
		return l
	}
	return ns.note.Links[i]
}

// linkLen returns the number of the note's links, without decoding them.
func (ns *noteState) linkLen() int {
	if ns.lazy != nil {
		return ns.lazy.text.Len()
	}
	return len(ns.note.Links)
}

// resolveLinks resolves every link of ns against index, into slices
// cut from slabs.
func resolveLinks(index *vault.Index, ns *noteState, slabs *linkSlabs) {
	ns.resolved, ns.status = slabs.take(ns.linkLen())
	for i, l := range ns.eachLink() {
		ns.resolved[i], ns.status[i] = index.Resolve(ns.note.ID, l)
	}
}

// linkSlabs hands out the per-link slices of the notes of one chunk
// (noteState.resolved and status) from one allocation each
// (slab.Take), instead of two per note: at 100,000 notes 200,000 fewer
// objects for the collector to mark and sweep through a cold index. A
// slab lives as long as one of its notes' slices; a note whose
// resolution changes gets new ones (resolveChanged).
type linkSlabs struct {
	resolved []string
	status   []vault.Status
	n        int // the chunk's links: the size of a slab
}

// linkSlabsFor returns slabs for the links of the notes installed from
// results (caller holds e.mu).
func (e *Engine) linkSlabsFor(results []parsed) linkSlabs {
	n := 0
	for _, r := range results {
		n += e.notes[r.file.ID].linkLen()
	}
	return linkSlabs{n: n}
}

// take cuts the slices of a note of n links, capped at n so that no
// append reaches the next note's.
func (s *linkSlabs) take(n int) ([]string, []vault.Status) {
	return slab.Take(&s.resolved, n, s.n), slab.Take(&s.status, n, s.n)
}

// refKey is the key under which a link is filed in Engine.refs: the folded
// base name of its target, without a ".md" extension in any letter case (as
// the resolver matches it). A link's resolution can only change when a note
// or file with that base name appears or goes.
func refKey(target string) string { return vault.Fold(refName(target)) }

// refName is the base name refKey folds.
func refName(target string) string { return vault.BaseName(strings.TrimSuffix(target, "/")) }

// appendRefKey appends refKey(target) to dst, with no allocation of its
// own for an ASCII name (which Fold only lowers).
func appendRefKey(dst []byte, target string) []byte {
	name := refName(target)
	if !textfold.IsASCII(name) {
		return append(dst, vault.Fold(name)...)
	}
	for i := range len(name) {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// refIndex returns e.refs, building it from the notes the first time
// (caller holds e.mu, for reading or writing). A one-shot read never needs
// it, so start-up does not build it; a server builds it in the background
// once it watches (warmRefs).
func (e *Engine) refIndex() idLists {
	e.refsMu.Lock()
	defer e.refsMu.Unlock()
	if e.refs == nil {
		e.refs = buildRefs(e.notes)
	}
	return e.refs
}

// warmRefs builds e.refs, so that the first live change does not wait for
// it; then the pages of the snapshot cache that reading every note's links
// brought back are let go (store.Store.DropCachePages).
func (e *Engine) warmRefs() {
	if e.readLock() != nil {
		return
	}
	defer e.mu.RUnlock()
	e.refIndex()
	if e.store != nil {
		e.store.DropCachePages()
	}
}

// addRefs files the note under the name of each of its links' targets (a
// nil refs, not built yet, is left alone).
func addRefs(refs idLists, ns *noteState) {
	if refs == nil {
		return
	}
	for _, l := range ns.eachLink() {
		if !l.IsSelf() {
			refs.add(refKey(l.Target), ns.note.ID)
		}
	}
}

// dropRefs removes what addRefs filed of the note.
func dropRefs(refs idLists, ns *noteState) {
	if refs == nil {
		return
	}
	for _, l := range ns.eachLink() {
		refs.drop(refKey(l.Target), ns.note.ID)
	}
}

// idLists files note IDs under keys: each key's IDs sorted, each once, as
// one slice of the strings the notes already hold (a set per key costs
// twice the memory).
type idLists map[string][]string

// add files id under k.
func (m idLists) add(k, id string) {
	ids := m[k]
	if i, found := slices.BinarySearch(ids, id); !found {
		m[k] = slices.Insert(ids, i, id)
	}
}

// drop removes id from k's IDs.
func (m idLists) drop(k, id string) {
	ids := m[k]
	i, found := slices.BinarySearch(ids, id)
	switch {
	case !found:
	case len(ids) == 1:
		delete(m, k)
	default:
		m[k] = slices.Delete(ids, i, i+1)
	}
}

// linkCounts counts the note's links to notes (resolved or broken), the
// broken ones, and its links to attachments.
func (ns *noteState) linkCounts() (links, broken, attachments int) {
	for _, st := range ns.status {
		switch st {
		case vault.Resolved:
			links++
		case vault.Broken:
			links++
			broken++
		case vault.Attachment:
			attachments++
		}
	}
	return links, broken, attachments
}

// packLinks keeps the links of the notes of results, written to the
// index, packed (store.LinkPacker) instead of as link structs, as a start
// from the snapshot cache holds them: what reads them later goes through
// eachLink or full. The caller holds e.syncMu, so no other pass changes
// the notes meanwhile; they are packed outside e.mu and swapped in under
// it. The holders of a chunk's packed links are one allocation. With
// Options.IndexOnly the notes' headings, properties and block IDs go too,
// and the notes are copied into one allocation per chunk.
func (e *Engine) packLinks(packer *store.LinkPacker, results []parsed) {
	packed := make([]*store.LinkText, len(results))
	n := 0
	for i, r := range results {
		if r.note != nil && len(r.note.Links) > 0 {
			packed[i] = packer.Pack(r.note.Links)
			n++
		}
	}
	holders := make([]lazyLinks, n)
	var kept []vault.Note
	if e.opts.IndexOnly {
		kept = make([]vault.Note, 0, len(results))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, r := range results {
		ns := e.notes[r.file.ID]
		if ns == nil || ns.note != r.note || ns.lazy != nil {
			continue
		}
		if packed[i] != nil {
			ns.lazy, holders = &holders[0], holders[1:]
			ns.lazy.text = packed[i]
			ns.note.Links = nil
		}
		if e.opts.IndexOnly {
			// The slimmed note moves into the chunk's slab: one object
			// for the chunk's notes, which stay to the end of the run,
			// and the spans the parse left them in are freed. What
			// resolving links, building the graph and counting (Report,
			// Status) read stays.
			kept = append(kept, *ns.note)
			ns.note = &kept[len(kept)-1]
			ns.note.Headings, ns.note.Properties, ns.note.BlockIDs = nil, nil, nil
		}
	}
}

// resolveAgain resolves again the links of the notes of touched (nil
// entries skipped) that have no stored resolution of every link, or of
// all of them with all, and returns those whose resolution changed
// (caller holds e.mu). The notes are shared among the cores: a start
// resolves every note's links again.
func (e *Engine) resolveAgain(touched map[string]*noteState, all bool) []*noteState {
	var todo []*noteState
	for _, ns := range touched {
		if ns != nil && (all || len(ns.resolved) != ns.linkLen()) {
			todo = append(todo, ns)
		}
	}
	changed := make([]bool, len(todo))
	embed.Each(context.Background(), len(todo), resolvePerWorker, func(i int) {
		changed[i] = resolveChanged(e.index, todo[i])
	})
	var out []*noteState
	for i, ns := range todo {
		if changed[i] {
			out = append(out, ns)
		}
	}
	return out
}

// resolveChanged resolves every link of ns against index again and
// reports whether the resolution changed: the target or the status (a
// link to a file that appears goes from broken to attachment without a
// target either way). Unchanged, the note keeps its
// slices (nothing is allocated: at start most notes resolve as stored);
// changed, it gets new ones.
func resolveChanged(index *vault.Index, ns *noteState) bool {
	n := ns.linkLen()
	ids, status := ns.resolved, ns.status
	same := len(ids) == n && len(status) == n
	if !same {
		ids, status = make([]string, n), make([]vault.Status, n)
	}
	for i, l := range ns.eachLink() {
		id, st := index.Resolve(ns.note.ID, l)
		if same {
			if ids[i] == id && status[i] == st {
				continue
			}
			// The first difference: the note gets new slices.
			ids, status = slices.Clone(ids), slices.Clone(status)
			same = false
		}
		ids[i], status[i] = id, st
	}
	if same {
		return false
	}
	ns.resolved, ns.status = ids, status
	return true
}

// resolvePerWorker is the fewest notes resolveAgain gives a goroutine.
const resolvePerWorker = 500
