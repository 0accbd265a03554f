package vaultgraph

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// applyHow says how applyDiff applies a set of changes: live (Sync,
// Rescan), or at start-up (Open).
type applyHow struct {
	// full says the diff comes from a scan of the whole vault: the
	// problems and excluded files it found replace the engine's.
	full bool
	// start says the engine was just loaded from the index (Open): its
	// graph is built whole, the files are parsed and written a chunk at a
	// time (an interrupted index keeps its work, marked inconsistent until
	// the end), and links are resolved again only where something changed
	// or the stored resolution is incomplete.
	start bool
	// consistent says the stored resolution matches the stored notes
	// (start only).
	consistent bool
	// graph is the graph cache's graph of the notes as loaded (start
	// only; nil when there is none): taken as is when the start changes
	// nothing, instead of building it (relink).
	graph *graph.Graph
}

// pass is one application of a diff: what it changed so far, and the
// batch not yet written to the index.
type pass struct {
	applyHow
	d     diff
	batch *store.Batch
	// look resolves the links of notes as they are parsed: e.index, or at
	// the start of a big index a lookahead that knows every note about to
	// be parsed, so that few links are written twice.
	look *vault.Index
	// names are the refKeys of the notes and files that appeared or went:
	// the links filed under them may resolve differently now.
	names map[string]struct{}
	// change lists the notes added, removed and edited: the notes parsed
	// anew are those added and edited.
	change Change
	// resolveAll resolves every link of the notes relinked, not only those
	// without a stored resolution.
	resolveAll bool
	locked     bool // the pass holds e.mu
	rep        IndexReport
	// seen are the notes that went and appeared, for finding renames
	// made outside vaultgraph (trackRenames).
	seen renameSeen
	// deferAnchors says the pass leaves the anchor text for its last
	// batch to rewrite whole (store.Batch.DeferAnchors).
	deferAnchors bool
	// packLinks says the links of each chunk's notes are packed once the
	// chunk is written (packLinks).
	packLinks bool
	packer    store.LinkPacker
	// exactLook says p.look is e.index and holds what it holds at the
	// end of the pass (lookahead): every link was resolved as it stays.
	exactLook bool
	// graphBuilt, when set, closes once relink has built the graph in
	// the background (awaitGraph).
	graphBuilt chan struct{}
}

// applyDiff applies the set of changes d to the engine, its graph and its
// index: the notes, problems and attachments gone are dropped, the new
// attachments added, the files d lists parsed and installed (or their
// problems recorded), the links that may now resolve differently resolved
// again, the graph updated, the excluded files and problems kept, the
// index written, and subscribers told (which queues the notes' vectors).
// Start-up and the watcher differ only in how they find d, and in how
// (applyHow). It returns the counts. The caller holds e.syncMu.
func (e *Engine) applyDiff(ctx context.Context, d diff, how applyHow) (IndexReport, error) {
	if err := ctx.Err(); err != nil {
		return IndexReport{}, err
	}
	e.indexed = false
	p := &pass{applyHow: how, d: d, batch: &store.Batch{}, names: map[string]struct{}{}}
	p.resolveAll = !how.start || !how.consistent || d.changes()
	// A start-up pass that parses several chunks and at least half the
	// vault (a cold index) rewrites the anchor text once at its end:
	// each chunk's links touch most notes.
	p.deferAnchors = how.start && len(d.parse) > e.chunkSize() && len(d.parse) >= d.unchanged
	// Such a pass keeps its notes' links packed, as a start from the
	// snapshot cache does, unless notes went: pairing them with the new
	// ones as renames reads the new notes' links (vault.NoteFeatures).
	p.packLinks = p.deferAnchors && len(d.gone) == 0
	p.rep.Unchanged = d.unchanged
	defer func() {
		if p.locked {
			e.mu.Unlock()
		}
	}()
	parseCtx, stopParsing := context.WithCancel(ctx)
	defer stopParsing()
	chunks, err := e.parseDiff(parseCtx, p)
	if err != nil {
		return p.rep, err
	}
	if how.start && d.changes() && e.store != nil {
		// Chunks are written one at a time: until the last, the stored
		// resolution is not to be trusted.
		b := &store.Batch{Meta: map[string]string{metaConsistent: "0", metaVault: e.root}, DeferAnchors: p.deferAnchors,
			Reserve: e.newNotes(d.parse)}
		if err := e.store.Apply(ctx, b); err != nil {
			return p.rep, err
		}
	}
	if err := e.step(ctx, p, false, func() { e.dropGone(p) }); err != nil {
		return p.rep, err
	}
	for c := range chunks {
		if c.err != nil {
			return p.rep, c.err
		}
		if err := e.step(ctx, p, false, func() { e.install(p, c.parsed) }); err != nil {
			return p.rep, err
		}
		if p.packLinks {
			e.packLinks(&p.packer, c.parsed)
		}
	}
	if err := ctx.Err(); err != nil && how.start {
		return p.rep, fmt.Errorf("index: %w", err)
	}
	p.look = nil    // every chunk is in: a big pass's lookahead can go
	p.d.parse = nil // nor the list of files parsed, for the collector to mark
	// Links resolved against the index the pass ends with need no second
	// resolution.
	p.resolveAll = p.resolveAll && !p.exactLook
	err = e.step(ctx, p, true, func() { e.relink(p); e.finishPass(p) })
	p.awaitGraph()
	if err != nil {
		return p.rep, err
	}
	e.indexed = !how.start || how.full // step wrote the last batch
	e.notify(p.change)
	return p.rep, nil
}

// nameChanged records that notes or files of the refKey name appeared or
// went. Only a live pass reads them (relink): a start relinks every note.
func (p *pass) nameChanged(name string) {
	if !p.start {
		p.names[name] = struct{}{}
	}
}

// newNotes returns the IDs of the files in parse the engine does not hold
// yet: a start-up pass reserves their keys in the index before it writes
// them (store.Batch.Reserve), so that links to notes of later chunks are
// written as they will stay.
func (e *Engine) newNotes(parse []vault.File) []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []string
	for _, f := range parse {
		if _, ok := e.notes[f.ID]; !ok {
			out = append(out, f.ID)
		}
	}
	return out
}

// parseDiff parses the files p.d lists. Live, every file is parsed before
// the engine changes, and the results come as one chunk; at start-up they
// are parsed a chunk at a time in the background (parseChunks).
func (e *Engine) parseDiff(ctx context.Context, p *pass) (<-chan chunk, error) {
	if p.start {
		return e.parseChunks(ctx, p.d), nil
	}
	var done atomic.Int64
	results, err := e.parseAll(ctx, p.d.parse, p.d.oldHash, &done, len(p.d.parse), nil)
	if err != nil {
		return nil, err
	}
	out := make(chan chunk, 1)
	out <- chunk{parsed: results}
	close(out)
	return out, nil
}

// step runs f under e.mu and writes what it batched to the index. Live,
// the lock the first step takes is held until the last, so that readers
// see the engine change at once, and the batch is written once; at
// start-up each step is written as it is made (the final one not by a
// reader that trusts the index: its view may be older than the server's).
// A written step is written even when ctx ends meanwhile: the engine has
// changed, and the index follows.
func (e *Engine) step(ctx context.Context, p *pass, last bool, f func()) error {
	if !p.locked {
		e.mu.Lock()
		p.locked = true
		if !e.open {
			return ErrClosed
		}
	}
	f()
	if !p.start && !last {
		return nil
	}
	e.mu.Unlock()
	p.locked = false
	b := p.batch
	b.DeferAnchors = p.deferAnchors && !last
	if last && p.deferAnchors {
		b.Keep = e.keepAhead(p) // the batch rewrites every note's anchor text
	}
	p.batch = &store.Batch{}
	if e.store == nil || (last && p.start && !p.full) {
		return nil
	}
	if err := e.store.Apply(context.WithoutCancel(ctx), b); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	if err := ctx.Err(); err != nil && !last {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// dropGone drops the notes, problems and attachments gone and adds the new
// attachments (caller holds e.mu).
func (e *Engine) dropGone(p *pass) {
	d := &p.d
	for _, id := range d.gone {
		ns, ok := e.notes[id]
		if !ok {
			continue
		}
		e.seeGone(p, ns)
		dropRefs(e.refs, ns)
		e.titles.drop(ns)
		e.dropRow(id, ns)
		delete(e.notes, id)
		e.index.RemoveNote(id)
		p.nameChanged(refKey(id))
		p.change.Removed = append(p.change.Removed, id)
		p.batch.Deletes = append(p.batch.Deletes, id)
		p.rep.Removed++
	}
	for _, id := range d.goneProblems {
		delete(e.noteProblems, id)
	}
	for _, f := range d.addFiles {
		e.index.AddFile(f)
		p.nameChanged(refKey(f))
		p.batch.AddFiles = append(p.batch.AddFiles, f)
	}
	for _, f := range d.removeFiles {
		e.index.RemoveFile(f)
		p.nameChanged(refKey(f))
		p.batch.RemoveFiles = append(p.batch.RemoveFiles, f)
	}
	if p.start && len(e.notes) == 0 {
		// Room for the notes, which a cold index then fills without
		// growing the map and rows step by step.
		e.notes = make(map[string]*noteState, len(d.parse))
		e.rows = slices.Grow(e.rows[:0], len(d.parse))
	}
	p.look = e.index
	if p.start && len(d.parse) > e.chunkSize() {
		p.look = e.lookahead(p)
	}
}

// install puts parse results in the engine and batches their records, the
// links resolved against p.look (caller holds e.mu).
func (e *Engine) install(p *pass, results []parsed) {
	var ok []parsed
	for _, r := range results {
		id := r.file.ID
		_, existed := e.notes[id]
		switch {
		case r.same:
			p.rep.Unchanged++
			if existed {
				p.batch.Touches = append(p.batch.Touches, e.touch(r.file))
			}
			continue
		case e.putParsed(r):
			ok = append(ok, r)
			if existed {
				p.change.Edited = append(p.change.Edited, id)
			} else {
				p.nameChanged(refKey(id))
				p.change.Added = append(p.change.Added, id)
				p.seeAdded(e.notes[id])
			}
		default:
			p.exactLook = false // links may have resolved to it: resolve all again
			if existed {
				p.nameChanged(refKey(id))
				p.change.Removed = append(p.change.Removed, id)
				p.batch.Deletes = append(p.batch.Deletes, id)
			}
		}
		p.rep.Parsed++
	}
	ie := e.inlineEmbedder()
	slabs := e.linkSlabsFor(ok)
	for _, r := range ok {
		ns := e.notes[r.file.ID]
		resolveLinks(p.look, ns, &slabs)
		rec := e.record(ns, r.body)
		rec.Prepared = r.prepared
		p.batch.Upserts = append(p.batch.Upserts, rec)
		ie.batchVectors(p.batch, r.file.ID, ns.note.Hash, r.vecs)
	}
}

// relink resolves again the links of the notes that may resolve
// differently now, batching those that do, and brings the graph up to
// date (caller holds e.mu). At start-up that is every note, into the empty
// graph; live, the notes parsed anew and those linking to a name that
// appeared or went.
func (e *Engine) relink(p *pass) {
	if p.start && p.graph != nil && !p.resolveAll && e.refs == nil && allResolved(e.notes) {
		e.graph = p.graph // the graph of exactly these notes and links
		e.graphCached = true
		return
	}
	touched := e.notes
	if !p.start {
		touched = map[string]*noteState{}
		for _, id := range slices.Concat(p.change.Added, p.change.Edited) {
			touched[id] = e.notes[id]
		}
		for name := range p.names {
			for _, id := range e.refIndex()[name] {
				touched[id] = e.notes[id]
			}
		}
	}
	for _, ns := range e.resolveAgain(touched, p.resolveAll) {
		p.batch.Relinks = append(p.batch.Relinks, e.record(ns, ""))
	}
	if e.refs != nil {
		for _, ns := range touched {
			if ns != nil {
				addRefs(e.refs, ns)
			}
		}
	}
	if p.start && len(p.change.Removed) == 0 {
		// Every node into the empty graph, on another core while the
		// pass's last batch is written (the graph's lock keeps readers
		// out until it is built): nothing changes the notes until the
		// pass ends (awaitGraph).
		g, built := e.graph, make(chan struct{})
		p.graphBuilt = built
		go func() {
			defer close(built)
			g.Build(func(tx *graph.Tx) { putGraph(tx, touched) })
		}()
		return
	}
	update := e.graph.Update
	if p.start {
		update = e.graph.Build // every node into the empty graph
	}
	update(func(tx *graph.Tx) {
		for _, id := range p.change.Removed {
			tx.Remove(id)
		}
		putGraph(tx, touched)
	})
}

// putGraph puts the notes of touched (nil: gone) into the graph with
// their links.
func putGraph(tx *graph.Tx, touched map[string]*noteState) {
	for id, ns := range touched {
		if ns != nil {
			tx.PutNode(id, ns.note.Tags)
		}
	}
	for id, ns := range touched {
		if ns != nil {
			tx.SetOut(id, ns.resolved)
		}
	}
}

// awaitGraph waits for the graph relink builds in the background, if it
// does.
func (p *pass) awaitGraph() {
	if p.graphBuilt != nil {
		<-p.graphBuilt
		p.graphBuilt = nil
	}
}

// allResolved reports whether every note has a stored resolution of each
// of its links, which relink then keeps.
func allResolved(notes map[string]*noteState) bool {
	for _, ns := range notes {
		if len(ns.resolved) != ns.linkLen() {
			return false
		}
	}
	return true
}

// finishPass keeps the problems and excluded files the diff found, and
// batches the problems (caller holds e.mu). A full pass counts the notes
// and links.
func (e *Engine) finishPass(p *pass) {
	if p.full {
		e.scanProblems = p.d.scanProblems
	}
	e.applyExcluded(p.d, p.full)
	p.batch.Problems = e.problemList()
	if p.start {
		p.batch.Meta = map[string]string{metaConsistent: "1", metaVault: e.root}
	}
	e.trackRenames(p)
	e.lastSync = time.Now()
	if !p.start && !p.full {
		return
	}
	p.rep.Problems = len(p.batch.Problems)
	p.rep.Notes = len(e.notes)
	for _, ns := range e.notes {
		links, broken, _ := ns.linkCounts()
		p.rep.Links += links
		p.rep.BrokenLinks += broken
	}
}

// putParsed installs a parse result in the engine's maps (caller holds
// e.mu). It returns false when the file could not be parsed, in which case
// the note is dropped and a problem recorded.
func (e *Engine) putParsed(r parsed) bool {
	id := r.file.ID
	old := e.notes[id]
	if old != nil {
		dropRefs(e.refs, old)
		e.titles.drop(old)
	}
	if r.err != nil {
		if old != nil {
			e.dropRow(id, old)
		}
		delete(e.notes, id)
		e.index.RemoveNote(id)
		e.noteProblems[id] = vault.Problem{Path: id, Reason: r.err.Error()}
		return false
	}
	delete(e.noteProblems, id)
	ns := &noteState{note: r.note, path: r.file.Path}
	e.putRow(id, old, ns)
	e.notes[id] = ns
	e.titles.add(e.notes[id])
	e.index.AddNote(id)
	return true
}

// touch records that a note's file changed size or time but not content
// (caller holds e.mu) and returns the record to store.
func (e *Engine) touch(f vault.File) *store.Record {
	ns := e.notes[f.ID]
	ns.note.Size, ns.note.ModTime = f.Size, f.ModTime
	e.putRow(f.ID, ns, ns) // created may fall back to the modification time
	return e.record(ns, "")
}

// record is the store record of a note (caller holds e.mu).
func (e *Engine) record(ns *noteState, body string) *store.Record {
	rel, err := filepath.Rel(e.root, ns.path)
	if err != nil {
		rel = ns.note.ID
	}
	return &store.Record{Note: ns.full(), Path: filepath.ToSlash(rel), Resolved: ns.resolved, Status: ns.status, Body: body}
}

// problemList returns every problem, sorted by path (caller holds e.mu).
func (e *Engine) problemList() []vault.Problem {
	out := make([]vault.Problem, 0, len(e.scanProblems)+len(e.noteProblems))
	out = append(out, e.scanProblems...)
	for _, p := range e.noteProblems {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
