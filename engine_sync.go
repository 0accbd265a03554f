package vaultgraph

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// Sync brings the engine up to date with the given vault-relative paths
// (forward slashes) of files or folders that were created, changed,
// renamed or deleted on disk. A folder stands for everything below it. A
// note whose size and modification time did not change is not read again
// (so the echo of the engine's own write costs nothing). Only the notes
// whose links could resolve differently are resolved again; the graph and
// the index change in one step each.
func (e *Engine) Sync(ctx context.Context, paths ...string) error {
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	if err := e.readLock(); err != nil {
		return err
	}
	d := diff{}
	for _, given := range paths {
		e.expand(given, &d)
	}
	e.mu.RUnlock()
	d.parse = uniqueFiles(d.parse)
	return e.applyDiff(ctx, d, nil)
}

// uniqueFiles drops the repeats of a file, keeping the first: a folder and
// the files in it can both be given to Sync (the watcher reports a new
// folder and what it found inside).
func uniqueFiles(files []vault.File) []vault.File {
	seen := make(map[string]bool, len(files))
	return slices.DeleteFunc(files, func(f vault.File) bool {
		if seen[f.ID] {
			return true
		}
		seen[f.ID] = true
		return false
	})
}

// Rescan compares the whole vault with the engine (as on start, by size
// and modification time) and applies the differences. The watcher asks
// for it when events may have been lost, and on its poll interval.
func (e *Engine) Rescan(ctx context.Context) (IndexReport, error) {
	start := time.Now()
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	if err := e.readLock(); err != nil {
		return IndexReport{}, err
	}
	root, ig := e.root, e.ignore
	e.mu.RUnlock()
	scan, err := vault.Scan(root, ig)
	if err != nil {
		return IndexReport{}, err
	}
	d := e.diffScan(scan)
	rep := IndexReport{Unchanged: d.unchanged, Parsed: len(d.parse)}
	if err := e.applyDiff(ctx, d, &scan.Problems); err != nil {
		return rep, err
	}
	e.mu.RLock()
	rep.Notes, rep.Problems = len(e.notes), len(e.noteProblems)+len(e.scanProblems)
	e.mu.RUnlock()
	rep.Removed = len(d.gone)
	rep.Duration = time.Since(start)
	return rep, nil
}

// expand adds to d what one changed path means (caller holds e.mu for
// reading): a file to parse, a note or attachment gone, or for a folder,
// everything below it.
func (e *Engine) expand(given string, d *diff) {
	clean := path.Clean(filepath.ToSlash(given))
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || path.IsAbs(clean) {
		return // not a path inside the vault
	}
	rel := vault.NFC(clean) // the ID; the disk may spell the name decomposed
	abs := filepath.Join(e.root, filepath.FromSlash(clean))
	if e.ignore.Skip(rel, false) {
		e.expandExcluded(rel, abs, d)
		return
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		if ns, ok := e.notes[rel]; ok && ns.path != abs {
			abs = ns.path // known under another Unicode spelling on disk
			fi, err = os.Stat(abs)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.expandGone(rel, d)
	case err != nil:
		if vault.HasMD(rel) {
			d.parse = append(d.parse, vault.File{ID: rel, Path: abs})
		}
	case fi.IsDir():
		e.expandDir(rel, clean, d)
	case !fi.Mode().IsRegular():
	case vault.HasMD(rel):
		ns, ok := e.notes[rel]
		if ok && ns.note.Size == fi.Size() && ns.note.ModTime.Equal(fi.ModTime()) {
			return // unchanged, e.g. the echo of our own write
		}
		d.addParse(vault.File{ID: rel, Path: abs, Size: fi.Size(), ModTime: fi.ModTime()}, ns)
	default:
		if !e.index.HasFile(rel) {
			d.addFiles = append(d.addFiles, rel)
		}
	}
}

// expandGone records that rel, a file or a whole folder, is no longer on
// disk.
func (e *Engine) expandGone(rel string, d *diff) {
	prefix := rel + "/"
	d.exclGone = append(d.exclGone, rel)
	if _, ok := e.notes[rel]; ok {
		d.gone = append(d.gone, rel)
	}
	if e.index.HasFile(rel) {
		d.removeFiles = append(d.removeFiles, rel)
	}
	if _, ok := e.noteProblems[rel]; ok {
		d.goneProblems = append(d.goneProblems, rel)
	}
	for id := range e.notes {
		if strings.HasPrefix(id, prefix) {
			d.gone = append(d.gone, id)
		}
	}
	for id := range e.noteProblems {
		if strings.HasPrefix(id, prefix) {
			d.goneProblems = append(d.goneProblems, id)
		}
	}
	for _, f := range e.index.Files() {
		if strings.HasPrefix(f, prefix) {
			d.removeFiles = append(d.removeFiles, f)
		}
	}
}

// expandDir records everything in the folder rel (spelled disk on disk):
// new and changed notes, new attachments, and what the engine knows below
// rel that is gone.
func (e *Engine) expandDir(rel, disk string, d *diff) {
	scan, err := vault.ScanUnder(e.root, disk, e.ignore)
	if err != nil {
		e.log.Warn("sync folder", "path", rel, "err", err)
		return
	}
	sub := e.diffScanLocked(scan, rel+"/")
	for _, f := range sub.parse {
		d.addParse(f, e.notes[f.ID])
	}
	d.gone = append(d.gone, sub.gone...)
	d.goneProblems = append(d.goneProblems, sub.goneProblems...)
	d.addFiles = append(d.addFiles, sub.addFiles...)
	d.removeFiles = append(d.removeFiles, sub.removeFiles...)
	d.exclAdd.add(slices.Collect(maps.Keys(sub.exclAdd.dirs)), slices.Collect(maps.Keys(sub.exclAdd.files)))
}

// applyDiff parses what d lists and applies the result to the engine's
// state, graph and index. scanProblems, when non-nil, replaces the
// problems of the last full scan. The caller holds e.syncMu.
func (e *Engine) applyDiff(ctx context.Context, d diff, scanProblems *[]vault.Problem) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var done atomic.Int64
	results, err := e.parseAll(ctx, d.parse, d.oldHash, &done, len(d.parse))
	if err != nil {
		return err
	}
	batch := &store.Batch{}
	e.mu.Lock()
	if !e.open {
		e.mu.Unlock()
		return ErrClosed
	}
	names := map[string]struct{}{} // base names that appeared or went
	var added, removed []string
	for _, id := range d.gone {
		ns, ok := e.notes[id]
		if !ok {
			continue
		}
		dropRefs(e.refs, ns)
		delete(e.notes, id)
		e.index.RemoveNote(id)
		names[refKey(id)] = struct{}{}
		removed = append(removed, id)
		batch.Deletes = append(batch.Deletes, id)
	}
	for _, p := range d.goneProblems {
		delete(e.noteProblems, p)
	}
	for _, f := range d.addFiles {
		e.index.AddFile(f)
		names[refKey(f)] = struct{}{}
		batch.AddFiles = append(batch.AddFiles, f)
	}
	for _, f := range d.removeFiles {
		e.index.RemoveFile(f)
		names[refKey(f)] = struct{}{}
		batch.RemoveFiles = append(batch.RemoveFiles, f)
	}
	upserted := map[string]string{} // ID -> body
	for _, r := range results {
		id := r.file.ID
		_, existed := e.notes[id]
		if r.same {
			if existed {
				batch.Touches = append(batch.Touches, e.touch(r.file))
			}
			continue
		}
		if e.putParsed(r) {
			upserted[id] = r.body
			if !existed {
				names[refKey(id)] = struct{}{}
				added = append(added, id)
			}
			continue
		}
		if existed {
			names[refKey(id)] = struct{}{}
			removed = append(removed, id)
			batch.Deletes = append(batch.Deletes, id)
		}
	}
	touched := map[string]struct{}{}
	for id := range upserted {
		touched[id] = struct{}{}
	}
	for name := range names {
		for id := range e.refs[name] {
			touched[id] = struct{}{}
		}
	}
	e.graph.Update(func(tx *graph.Tx) {
		for _, id := range removed {
			tx.Remove(id)
		}
		for id := range upserted {
			tx.PutNode(id, e.notes[id].note.Tags)
		}
		for id := range touched {
			ns, ok := e.notes[id]
			if !ok {
				continue
			}
			ids, status := ns.resolved, ns.status
			resolveLinks(e.index, ns)
			if body, ok := upserted[id]; ok {
				addRefs(e.refs, ns)
				batch.Upserts = append(batch.Upserts, e.record(ns, body))
			} else if !ns.resolvedAs(ids, status) {
				batch.Relinks = append(batch.Relinks, e.record(ns, ""))
			}
			tx.SetOut(id, ns.resolved)
		}
	})
	if scanProblems != nil {
		e.scanProblems = *scanProblems
	}
	e.applyExcluded(d, scanProblems != nil)
	batch.Problems = e.problemList()
	e.lastSync = time.Now()
	e.mu.Unlock()

	if e.store != nil {
		// The engine has changed: the index follows even if ctx ends now,
		// or it would lag behind until these notes change again.
		if err := e.store.Apply(context.WithoutCancel(ctx), batch); err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	e.notify(added, removed, upserted)
	return nil
}

// Change says which notes one sync added, removed or edited (IDs, sorted).
type Change struct {
	Added, Removed, Edited []string
}

// notify tells subscribers what a sync changed, if anything.
func (e *Engine) notify(added, removed []string, upserted map[string]string) {
	c := Change{Added: added, Removed: removed}
	for id := range upserted {
		if !slices.Contains(added, id) {
			c.Edited = append(c.Edited, id)
		}
	}
	if len(c.Added)+len(c.Removed)+len(c.Edited) == 0 {
		return
	}
	slices.Sort(c.Added)
	slices.Sort(c.Removed)
	slices.Sort(c.Edited)
	e.subMu.Lock()
	defer e.subMu.Unlock()
	for _, fn := range e.subs {
		fn(c)
	}
}

// OnChange registers fn to be called after each sync that added, removed
// or edited notes. fn must not block.
func (e *Engine) OnChange(fn func(Change)) {
	e.subMu.Lock()
	defer e.subMu.Unlock()
	e.subs = append(e.subs, fn)
}

// Watch follows the vault's changes with a file watcher until ctx ends:
// each debounced burst of events is applied with Sync, lost events and
// the periodic poll with Rescan. Status reports the watcher "running" once
// its watches are in place and what changed before (since Open, or since
// the last Watch) is applied. It returns nil when ctx ends, and
// ErrClosed when a change comes after the engine was closed.
func (e *Engine) Watch(ctx context.Context, opts vault.WatchOptions) error {
	if err := e.readLock(); err != nil {
		return err
	}
	root, ig := e.root, e.ignore
	e.mu.RUnlock()
	if opts.Logger == nil {
		opts.Logger = e.log
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := vault.NewWatcher(root, ig, opts)
	changes := make(chan vault.Change, 16)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx, changes) }()
	defer e.setWatcher("off")
	closed := func() error {
		cancel()
		<-done
		return ErrClosed
	}
	running := false
	for {
		select {
		case err := <-done:
			return err
		case c := <-changes:
			if c.Rescan {
				if _, err := e.Rescan(ctx); errors.Is(err, ErrClosed) {
					return closed()
				} else if err != nil && ctx.Err() == nil {
					e.log.Error("rescan", "err", err)
				}
			}
			if len(c.Paths) > 0 {
				if err := e.Sync(ctx, c.Paths...); errors.Is(err, ErrClosed) {
					return closed()
				} else if err != nil && ctx.Err() == nil {
					e.log.Error("sync", "paths", len(c.Paths), "err", err)
				}
			}
			if !running { // the first Change is Run's initial Rescan
				running = true
				e.setWatcher("running")
			}
		}
	}
}

func (e *Engine) setWatcher(state string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.watcher = state
}
