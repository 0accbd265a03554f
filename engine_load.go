package vaultgraph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// chunkSize is how many notes a cold index parses and writes per
// transaction, so that an interrupted index keeps most of its work. A
// variable so that tests can make it small.
var chunkSize = 2000

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

// parsed is the outcome of reading and parsing one file.
type parsed struct {
	file vault.File
	note *vault.Note
	body string // text for the full-text index
	err  error
	// same is set, and note nil, when the file's content hash equals the
	// one indexed: only its size or time changed.
	same bool
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
	var rep IndexReport
	var snap *store.Snapshot
	if !e.opts.NoIndex {
		st, loaded, reason, err := store.OpenAndLoad(ctx, e.IndexPath())
		if err != nil {
			return fmt.Errorf("open index: %w", err)
		}
		snap = loaded
		if reason != "" {
			e.log.Warn("index rebuilt", "reason", reason)
			rep.Rebuilt = reason
		}
		if e.opts.Rebuild {
			if err := st.Reset(ctx); err != nil {
				st.Close()
				return err
			}
			snap = &store.Snapshot{Meta: map[string]string{}}
			rep.Rebuilt = "asked for a full rebuild"
		}
		if v := snap.Meta[metaVault]; v != "" && v != e.root {
			// A copied or moved vault, or an --index shared by two
			// vaults: every note is parsed again and every row
			// rewritten, and notes that are not here are dropped. The
			// index is not emptied, so the vectors of notes whose
			// content is unchanged (by hash) are kept, of every model:
			// nothing is embedded twice.
			e.log.Info("index was written for another vault path; parsing every note again (vectors of unchanged notes are kept)", "index", e.IndexPath(), "was", v)
			rep.Rebuilt = "the index belonged to " + v
			e.reparseAll = true
			delete(snap.Meta, metaConsistent)
		}
		e.store = st
	}

	e.mu.Lock()
	e.ignore = ig
	e.notes = map[string]*noteState{}
	e.index = vault.NewIndex()
	e.graph = graph.New()
	e.refs = map[string]map[string]struct{}{}
	e.noteProblems = map[string]vault.Problem{}
	e.scanProblems = nil
	consistent := false
	if snap != nil {
		for _, r := range snap.Notes {
			ns := &noteState{note: r.Note, path: filepath.Join(e.root, filepath.FromSlash(r.Path)), resolved: r.Resolved, status: r.Status, created: created(r.Note)}
			e.notes[r.Note.ID] = ns
			e.index.AddNote(r.Note.ID)
		}
		for _, a := range snap.Attachments {
			e.index.AddFile(a)
		}
		consistent = snap.Meta[metaConsistent] == "1"
	}
	trust := e.opts.TrustIndex && consistent
	if trust {
		// No scan will find the problems again: keep the stored ones.
		for _, p := range snap.Problems {
			e.noteProblems[p.Path] = p
		}
	}
	e.open = true
	e.mu.Unlock()

	if err := e.initialSync(ctx, &rep, consistent, !trust); err != nil {
		return err
	}
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

// IndexPath returns the index file the engine uses (after Open).
func (e *Engine) IndexPath() string {
	if e.opts.Index != "" {
		return e.opts.Index
	}
	return filepath.Join(e.root, IndexDir, IndexFile)
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

// Report returns what the last full index pass (Open or Reindex) did.
func (e *Engine) Report() IndexReport {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.report
}

// diff compares a scan with the engine's notes: the files to parse, the
// note IDs gone, the attachments added and removed.
type diff struct {
	parse        []vault.File
	gone         []string
	addFiles     []string
	removeFiles  []string
	goneProblems []string
	scanProblems []vault.Problem
	unchanged    int
	// exclAdd are user-excluded folders and files found (a full scan's
	// replace the engine's set); exclGone are excluded paths now gone.
	exclAdd  excludedSet
	exclGone []string
	// oldHash holds the indexed content hash of files in parse that are
	// known notes, so that a file whose bytes did not change is not parsed.
	oldHash map[string]string
}

// addParse schedules f for parsing, remembering the hash of the note it
// replaces (if any).
func (d *diff) addParse(f vault.File, old *noteState) {
	d.parse = append(d.parse, f)
	if old != nil {
		if d.oldHash == nil {
			d.oldHash = map[string]string{}
		}
		d.oldHash[f.ID] = old.note.Hash
	}
}

func (e *Engine) diffScan(scan vault.ScanResult) diff {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.diffScanLocked(scan, "")
}

// diffScanLocked is diffScan for a scan of the folder prefix ("" for the
// whole vault, else ending in "/"); the caller holds e.mu.
func (e *Engine) diffScanLocked(scan vault.ScanResult, prefix string) diff {
	d := diff{scanProblems: scan.Problems}
	d.exclAdd.add(scan.ExcludedDirs, scan.ExcludedFiles)
	seen := make(map[string]bool, len(scan.Notes))
	for _, f := range scan.Notes {
		seen[f.ID] = true
		ns, ok := e.notes[f.ID]
		if ok && !e.reparseAll && ns.note.Size == f.Size && ns.note.ModTime.Equal(f.ModTime) {
			d.unchanged++
			continue
		}
		d.addParse(f, ns)
	}
	for id := range e.notes {
		if !seen[id] && strings.HasPrefix(id, prefix) {
			d.gone = append(d.gone, id)
		}
	}
	// Files that failed to parse are not notes, so they are tried again
	// (above); drop the problems of those that are gone.
	for p := range e.noteProblems {
		if !seen[p] && strings.HasPrefix(p, prefix) {
			d.goneProblems = append(d.goneProblems, p)
		}
	}
	files := make(map[string]bool, len(scan.Attachments))
	for _, a := range scan.Attachments {
		files[a] = true
		if !e.index.HasFile(a) {
			d.addFiles = append(d.addFiles, a)
		}
	}
	for _, a := range e.index.Files() {
		if !files[a] && strings.HasPrefix(a, prefix) {
			d.removeFiles = append(d.removeFiles, a)
		}
	}
	return d
}

// initialSync brings a freshly loaded engine up to date with the files and
// builds the graph. Notes are parsed and written in chunks; resolution is
// done once at the end over the whole vault (unless nothing changed and
// the stored resolution is known to be complete).
func (e *Engine) initialSync(ctx context.Context, rep *IndexReport, consistent, rescan bool) error {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	var d diff
	if rescan {
		scan, err := vault.Scan(e.root, e.ignore)
		if err != nil {
			return err
		}
		d = e.diffScan(scan)
	} else {
		d.unchanged = len(e.notes)
	}
	rep.Unchanged = d.unchanged
	changed := len(d.parse) > 0 || len(d.gone) > 0 || len(d.addFiles) > 0 || len(d.removeFiles) > 0
	if changed && e.store != nil {
		if err := e.store.Apply(ctx, &store.Batch{Meta: map[string]string{metaConsistent: "0", metaVault: e.root}}); err != nil {
			return err
		}
	}

	// Drop what is gone, add and remove attachments.
	e.mu.Lock()
	for _, id := range d.gone {
		if _, ok := e.notes[id]; ok {
			rep.Removed++
		}
		delete(e.notes, id)
		e.index.RemoveNote(id)
	}
	for _, p := range d.goneProblems {
		delete(e.noteProblems, p)
	}
	for _, a := range d.addFiles {
		e.index.AddFile(a)
	}
	for _, a := range d.removeFiles {
		e.index.RemoveFile(a)
	}
	e.scanProblems = d.scanProblems
	if rescan {
		e.excluded = &d.exclAdd
	}
	e.mu.Unlock()
	if e.store != nil {
		if err := e.store.Apply(ctx, &store.Batch{Deletes: d.gone, AddFiles: d.addFiles, RemoveFiles: d.removeFiles}); err != nil {
			return err
		}
	}

	// Parse what changed, a chunk at a time. Links are resolved against
	// look, which knows every note about to be parsed, so that they are
	// written resolved as they will end and the final pass rewrites few
	// (only where a file failed to parse or names collide).
	look := e.index
	if len(d.parse) > chunkSize {
		look = e.lookahead(d.parse)
	}
	parseCtx, stopParsing := context.WithCancel(ctx)
	defer stopParsing()
	for results := range e.parseChunks(parseCtx, d) {
		if results.err != nil {
			return results.err
		}
		batch := &store.Batch{}
		e.mu.Lock()
		var ok []parsed
		for _, r := range results.parsed {
			if r.same {
				rep.Unchanged++
				batch.Touches = append(batch.Touches, e.touch(r.file))
				continue
			}
			rep.Parsed++
			if e.putParsed(r) {
				ok = append(ok, r)
			} else {
				batch.Deletes = append(batch.Deletes, r.file.ID)
			}
		}
		for _, r := range ok {
			ns := e.notes[r.note.ID]
			resolveLinks(look, ns)
			batch.Upserts = append(batch.Upserts, e.record(ns, r.body))
		}
		e.mu.Unlock()
		if e.store != nil {
			// A parsed chunk is always written, even when ctx ends
			// meanwhile: cancelling stops the parsing, not the saving.
			if err := e.store.Apply(context.WithoutCancel(ctx), batch); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("index: %w", err)
	}

	// Resolve every link against the complete vault and build the graph.
	batch := &store.Batch{Meta: map[string]string{metaConsistent: "1", metaVault: e.root}, Problems: []vault.Problem{}}
	e.mu.Lock()
	g := graph.New()
	resolveAll := changed || !consistent
	g.Update(func(tx *graph.Tx) {
		for id, ns := range e.notes {
			tx.PutNode(id, ns.note.Tags)
		}
		for id, ns := range e.notes {
			if resolveAll || len(ns.resolved) != len(ns.note.Links) {
				ids, status := ns.resolved, ns.status
				resolveLinks(e.index, ns)
				if !ns.resolvedAs(ids, status) {
					batch.Relinks = append(batch.Relinks, e.record(ns, ""))
				}
			}
			addRefs(e.refs, ns)
			tx.SetOut(id, ns.resolved)
		}
	})
	e.graph = g
	batch.Problems = e.problemList()
	rep.Problems = len(batch.Problems)
	rep.Notes = len(e.notes)
	for _, ns := range e.notes {
		links, broken, _ := ns.linkCounts()
		rep.Links += links
		rep.BrokenLinks += broken
	}
	e.mu.Unlock()
	// A trusting reader (TrustIndex, while a server keeps the index) found
	// nothing to change and must not write: its view may already be older
	// than the server's.
	if e.store != nil && rescan {
		if err := e.store.Apply(ctx, batch); err != nil {
			return err
		}
	}
	return nil
}

// lookahead returns an index of the notes and attachments the engine
// knows plus the notes in parse, for resolving links while a big index
// pass is under way.
func (e *Engine) lookahead(parse []vault.File) *vault.Index {
	e.mu.RLock()
	defer e.mu.RUnlock()
	x := vault.NewIndex()
	for id := range e.notes {
		x.AddNote(id)
	}
	for _, f := range parse {
		x.AddNote(f.ID)
	}
	for _, a := range e.index.Files() {
		x.AddFile(a)
	}
	return x
}

// putParsed installs a parse result in the engine's maps (caller holds
// e.mu). It returns false when the file could not be parsed, in which case
// the note is dropped and a problem recorded.
func (e *Engine) putParsed(r parsed) bool {
	id := r.file.ID
	if old, ok := e.notes[id]; ok {
		dropRefs(e.refs, old)
	}
	if r.err != nil {
		delete(e.notes, id)
		e.index.RemoveNote(id)
		e.noteProblems[id] = vault.Problem{Path: id, Reason: r.err.Error()}
		return false
	}
	delete(e.noteProblems, id)
	e.notes[id] = &noteState{note: r.note, path: r.file.Path, created: created(r.note)}
	e.index.AddNote(id)
	return true
}

// record is the store record of a note (caller holds e.mu).
func (e *Engine) record(ns *noteState, body string) *store.Record {
	rel, err := filepath.Rel(e.root, ns.path)
	if err != nil {
		rel = ns.note.ID
	}
	return &store.Record{Note: ns.note, Path: filepath.ToSlash(rel), Resolved: ns.resolved, Status: ns.status, Body: body}
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

// chunk is one chunk of parse results, or the error that ended parsing.
type chunk struct {
	parsed []parsed
	err    error
}

// parseChunks parses d.parse a chunk at a time in the background, one
// chunk ahead of the caller, so that parsing the next chunk overlaps with
// writing the last one. The channel closes after the last chunk or the
// first error, or early when ctx ends (the caller must then check ctx).
func (e *Engine) parseChunks(ctx context.Context, d diff) <-chan chunk {
	out := make(chan chunk, 1)
	go func() {
		defer close(out)
		var done atomic.Int64
		for from := 0; from < len(d.parse); from += chunkSize {
			files := d.parse[from:min(from+chunkSize, len(d.parse))]
			results, err := e.parseAll(ctx, files, d.oldHash, &done, len(d.parse))
			select {
			case out <- chunk{parsed: results, err: err}:
			case <-ctx.Done():
				return // the caller stopped reading
			}
			if err != nil {
				return
			}
		}
	}()
	return out
}

// touch records that a note's file changed size or time but not content
// (caller holds e.mu) and returns the record to store.
func (e *Engine) touch(f vault.File) *store.Record {
	ns := e.notes[f.ID]
	ns.note.Size, ns.note.ModTime = f.Size, f.ModTime
	ns.created = created(ns.note) // may fall back to the modification time
	return e.record(ns, "")
}

// parseAll reads and parses files on e.opts.Workers goroutines, keeping
// their order. A file whose content hash equals oldHash[its ID] is not
// parsed (parsed.same). done counts files across calls for progress.
func (e *Engine) parseAll(ctx context.Context, files []vault.File, oldHash map[string]string, done *atomic.Int64, total int) ([]parsed, error) {
	out := make([]parsed, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range e.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = e.parseFile(files[i], oldHash[files[i].ID])
				n := done.Add(1)
				if e.opts.Progress != nil {
					e.opts.Progress(int(n), total)
				}
			}
		}()
	}
	var err error
feed:
	for i := range files {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("parse vault: %w", err)
	}
	return out, nil
}

// parseFile reads and parses one note file, unless its content hash is
// oldHash.
func (e *Engine) parseFile(f vault.File, oldHash string) parsed {
	src, err := os.ReadFile(f.Path)
	if err != nil {
		return parsed{file: f, err: fmt.Errorf("unreadable: %w", err)}
	}
	if oldHash != "" && vault.Hash(src) == oldHash {
		if f.Size == 0 && f.ModTime.IsZero() {
			if fi, err := os.Stat(f.Path); err == nil {
				f.Size, f.ModTime = fi.Size(), fi.ModTime()
			}
		}
		return parsed{file: f, same: true}
	}
	n, err := e.parser.Parse(f.ID, src)
	if err != nil {
		return parsed{file: f, err: err}
	}
	n.ModTime = f.ModTime
	n.Size = f.Size
	for _, w := range n.Warnings {
		e.log.Debug("note", "id", f.ID, "warning", w)
	}
	var body string
	if !strings.HasSuffix(strings.ToLower(f.ID), ".excalidraw.md") && n.BodyStart <= len(src) && len(src) <= vault.MaxParseBytes {
		body = strings.ToValidUTF8(string(src[n.BodyStart:]), "\uFFFD")
	}
	return parsed{file: f, note: n, body: body}
}

// resolveLinks resolves every link of ns against index.
func resolveLinks(index *vault.Index, ns *noteState) {
	links := ns.note.Links
	ns.resolved = make([]string, len(links))
	ns.status = make([]vault.Status, len(links))
	for i, l := range links {
		ns.resolved[i], ns.status[i] = index.Resolve(ns.note.ID, l)
	}
}

// refKey is the key under which a link is filed in Engine.refs: the folded
// base name of its target, without a ".md" extension in any letter case (as
// the resolver matches it). A link's resolution can only change when a note
// or file with that base name appears or goes.
func refKey(target string) string {
	return vault.Fold(vault.BaseName(strings.TrimSuffix(target, "/")))
}

func addRefs(refs map[string]map[string]struct{}, ns *noteState) {
	for _, l := range ns.note.Links {
		if l.IsSelf() {
			continue
		}
		k := refKey(l.Target)
		if refs[k] == nil {
			refs[k] = map[string]struct{}{}
		}
		refs[k][ns.note.ID] = struct{}{}
	}
}

func dropRefs(refs map[string]map[string]struct{}, ns *noteState) {
	for _, l := range ns.note.Links {
		k := refKey(l.Target)
		delete(refs[k], ns.note.ID)
		if len(refs[k]) == 0 {
			delete(refs, k)
		}
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

// resolvedAs reports whether ns's links resolve to the targets ids with
// the statuses status. Both count: a link to a file that appears goes
// from broken to attachment without a target either way.
func (ns *noteState) resolvedAs(ids []string, status []vault.Status) bool {
	return slices.Equal(ids, ns.resolved) && slices.Equal(status, ns.status)
}
