package vaultgraph

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// Meta keys: metaConsistent says the stored link resolution matches the
// stored notes (set after a complete index); metaVault is the vault the
// index belongs to.
const (
	metaConsistent = "consistent"
	metaVault      = "vault"
)

// IndexReport says what an index pass did.
type IndexReport struct {
	Notes       int `json:"notes"`
	Links       int `json:"links"`
	BrokenLinks int `json:"brokenLinks"`
	// Parsed counts notes read and parsed; Unchanged those skipped
	// because their size and modification time matched the index.
	Parsed    int `json:"parsed"`
	Unchanged int `json:"unchanged"`
	Removed   int `json:"removed"`
	// Problems counts files that could not be indexed.
	Problems int           `json:"problems"`
	Duration time.Duration `json:"-"`
	// Rebuilt says why the index file was set aside and rebuilt, if it
	// was.
	Rebuilt string `json:"rebuilt,omitempty"`
}

// load opens the index (when there is one), takes every note it holds as
// is, then brings it up to date with the files: only notes whose size or
// modification time changed are parsed again.
func (e *Engine) load(ctx context.Context) error {
	start := time.Now()
	ig, err := vault.LoadIgnore(e.root)
	if err != nil {
		e.log.Warn("ignore filters", "err", err)
	}
	// The vault is scanned (and cleaned up after a crash) while the
	// index is read: the scan is mostly system calls, the read mostly
	// decoding (the clean-up touches only the files).
	var scanned chan scanOutcome
	if !e.opts.TrustIndex {
		scanned = make(chan scanOutcome, 1)
		go func() {
			s, err := vault.Scan(e.root, ig)
			// The scan met what an interrupted write leaves, if it is
			// there: only then is the vault put in order, and scanned
			// again.
			if err == nil && !e.opts.ReadOnly && commit.Interrupted(e.root, s.Marked, s.Unwalked) {
				e.recoverWrites()
				s, err = vault.Scan(e.root, ig)
			}
			scanned <- scanOutcome{s, err}
		}()
	}
	var snap *store.Snapshot
	var rebuilt string
	if !e.opts.NoIndex {
		if snap, rebuilt, err = e.openIndex(ctx); err != nil {
			if scanned != nil {
				<-scanned // no clean-up goes on after Open returns
			}
			return err
		}
	}
	// The graph cache is read while the notes are taken in.
	var cached *graph.Graph
	decoded := make(chan struct{})
	go func() {
		defer close(decoded)
		cached = e.cachedGraph(snap)
	}()
	consistent, trust := e.takeSnapshot(ig, snap)
	<-decoded

	e.syncMu.Lock()
	d := diff{unchanged: len(e.notes)}
	switch {
	case trust:
	case scanned != nil:
		s := <-scanned
		if err = s.err; err == nil {
			d = e.diffScan(s.scan)
		}
	default:
		d, err = e.scanDiff()
	}
	var rep IndexReport
	if err == nil {
		rep, err = e.applyDiff(ctx, d, applyHow{start: true, full: !trust, consistent: consistent, graph: cached})
	}
	e.syncMu.Unlock()
	if err != nil {
		return err
	}
	e.keepGraph(ctx, snap, cached)
	rep.Rebuilt = rebuilt
	rep.Duration = time.Since(start)
	e.mu.Lock()
	e.reparseAll = false
	e.loadTime = rep.Duration
	e.report = rep
	e.lastSync = time.Now()
	e.mu.Unlock()
	e.log.Info("vault indexed", "notes", rep.Notes, "parsed", rep.Parsed, "unchanged", rep.Unchanged,
		"removed", rep.Removed, "problems", rep.Problems, "took", rep.Duration.Round(time.Millisecond))
	return nil
}

// cachedGraph returns the graph the graph cache holds for snap, or nil.
func (e *Engine) cachedGraph(snap *store.Snapshot) *graph.Graph {
	if e.store == nil || snap == nil {
		return nil
	}
	b := e.store.LoadGraphCache(snap.Key)
	if b == nil {
		return nil
	}
	g, err := graph.Decode(b)
	if err != nil {
		e.log.Warn("graph cache unreadable; building the graph", "err", err)
		return nil
	}
	return g
}

// keepGraph writes the graph to the graph cache under snap's key after a
// start that built it, when the index is still in the state snap was
// read from: the start changed nothing, so the next start from the same
// index takes the graph as it is (relink).
func (e *Engine) keepGraph(ctx context.Context, snap *store.Snapshot, cached *graph.Graph) {
	e.mu.RLock()
	g, st := e.graph, e.store
	e.mu.RUnlock()
	if st == nil || snap == nil || snap.Key == "" || g == cached || st.CacheKey(ctx) != snap.Key {
		return
	}
	st.WriteGraphCache(snap.Key, g.AppendBinary(nil))
}

// keepCaches writes the snapshot and graph caches for the index as this
// engine's writes left it, so that the next start (a one-shot read after
// an index, say) need not read every table or build the graph again. The
// store writes nothing unless the index is still as this engine's last
// write left it (store.KeepCache), and only when the last pass ended
// with its last batch written (e.indexed): a pass cut short holds notes
// in memory that the index does not. The caller holds e.syncMu and e.mu,
// so that no write is under way.
func (e *Engine) keepCaches(ctx context.Context) {
	if e.store == nil || !e.open || !e.indexed {
		return
	}
	key, err := e.store.KeepCache(ctx, e.noteLinks)
	if err != nil {
		e.log.Warn("snapshot cache not written", "err", err)
		return
	}
	if key != "" && e.graph != nil {
		e.store.WriteGraphCache(key, e.graph.AppendBinary(nil))
	}
}

// noteLinks answers store.KeepCache for the note id: its links as the
// engine holds them (caller holds e.mu, or e.syncMu in a pass that
// changes no note meanwhile).
func (e *Engine) noteLinks(id string) (store.NoteLinks, bool) {
	ns := e.notes[id]
	if ns == nil {
		return store.NoteLinks{}, false
	}
	nl := store.NoteLinks{Links: ns.eachLink(), Resolved: ns.resolved, Status: ns.status}
	if ns.lazy != nil {
		nl.Packed = ns.lazy.text // copied as the cache holds it
	}
	return nl, true
}

// keepAhead has the last batch of pass p write the snapshot and graph
// caches while its transaction merges the full-text segments, after the
// anchor text is rewritten (store.Keep): a cold index then closes with
// both current, made on the other core. It runs
// while p holds e.syncMu, after the graph is built (graphBuilt), so that
// neither the notes nor the graph change meanwhile.
func (e *Engine) keepAhead(p *pass) *store.Keep {
	built := p.graphBuilt
	return &store.Keep{
		Links: func(id string) (store.NoteLinks, bool) {
			e.mu.RLock()
			defer e.mu.RUnlock()
			return e.noteLinks(id)
		},
		Graph: func() []byte {
			if built != nil {
				<-built
			}
			return e.Graph().AppendBinary(nil)
		},
	}
}

// scanOutcome is a scan made in the background.
type scanOutcome struct {
	scan vault.ScanResult
	err  error
}

// openIndex opens the index file and loads what it holds, and says why it
// was set aside and rebuilt, if it was.
func (e *Engine) openIndex(ctx context.Context) (*store.Snapshot, string, error) {
	// Snippets read the bodies from the files: the index keeps no copy.
	st, snap, rebuilt, err := store.OpenAndLoad(ctx, e.IndexPath(), store.WithVault(e.root), store.WithMmap(e.opts.IndexMmap))
	if err != nil {
		return nil, "", fmt.Errorf("open index: %w", err)
	}
	if rebuilt != "" {
		e.log.Warn("index rebuilt", "reason", rebuilt)
	}
	if e.opts.Rebuild {
		if err := st.Reset(ctx); err != nil {
			st.Close()
			return nil, "", fmt.Errorf("rebuild index: %w", err)
		}
		snap = &store.Snapshot{Meta: map[string]string{}}
		rebuilt = "asked for a full rebuild"
	}
	if v := snap.Meta[metaVault]; v != "" && v != e.root {
		// A copied or moved vault, or an --index shared by two vaults:
		// every note is parsed again and every row rewritten, and notes
		// that are not here are dropped. The index is not emptied, so the
		// vectors of notes whose content is unchanged (by hash) are kept,
		// of every model: nothing is embedded twice.
		e.log.Info("index was written for another vault path; parsing every note again (vectors of unchanged notes are kept)", "index", e.IndexPath(), "was", v)
		rebuilt = "the index belonged to " + v
		e.reparseAll = true
		delete(snap.Meta, metaConsistent)
	}
	e.store = st
	return snap, rebuilt, nil
}

// takeSnapshot resets the engine to the notes and attachments of snap (nil
// without an index) and opens it. consistent says the stored resolution
// matches the stored notes; trust that the files need not be compared
// with them (Options.TrustIndex), whose problems are then kept as stored.
func (e *Engine) takeSnapshot(ig *vault.Ignore, snap *store.Snapshot) (consistent, trust bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var n int
	if snap != nil {
		n = len(snap.Notes)
	}
	e.ignore = ig
	e.notes = make(map[string]*noteState, n)
	e.rows = make(noteRows, 0, n)
	e.recent.reset()
	e.index = vault.NewIndex()
	e.graph = graph.New()
	e.graphCached = false
	e.refs = nil   // built when first needed (refIndex)
	e.titles = nil // the same (titleIndexOf)
	e.noteProblems = map[string]vault.Problem{}
	e.scanProblems = nil
	if snap != nil {
		// The name index is built beside the notes: half the work.
		built := make(chan *vault.Index, 1)
		go func() {
			x := vault.NewIndexFor(len(snap.Notes), len(snap.Attachments))
			for _, r := range snap.Notes {
				x.AddNote(r.Note.ID)
			}
			for _, a := range snap.Attachments {
				x.AddFile(a)
			}
			built <- x
		}()
		for _, r := range snap.Notes {
			ns := &noteState{note: r.Note, lazy: newLazyLinks(r.LazyLinks), path: filepath.Join(e.root, filepath.FromSlash(r.Path)), resolved: r.Resolved, status: r.Status}
			e.rows.put(r.Note.ID, nil, ns)
			e.notes[r.Note.ID] = ns
		}
		e.index = <-built
		consistent = snap.Meta[metaConsistent] == "1"
		e.loadRepairs(snap.Meta)
	}
	trust = e.opts.TrustIndex && consistent
	if trust {
		// No scan will find the problems again: keep the stored ones.
		for _, p := range snap.Problems {
			e.noteProblems[p.Path] = p
		}
	}
	e.open = true
	return consistent, trust
}

// IndexPath returns the index file the engine uses (after Open).
func (e *Engine) IndexPath() string {
	return cmp.Or(e.opts.Index, filepath.Join(e.root, IndexDir, IndexFile))
}

// DefaultIndexPath returns the index file for the vault folder when no
// other is given: <vault>/.vaultgraph/index.db.
func DefaultIndexPath(vaultDir string) (string, error) {
	root, err := filepath.Abs(vaultDir)
	if err != nil {
		return "", fmt.Errorf("vault path: %w", err)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	return filepath.Join(root, IndexDir, IndexFile), nil
}

// Report returns what the index pass of Open did.
func (e *Engine) Report() IndexReport {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.report
}
