package vaultgraph

import (
	"context"
	"os"
	"slices"
	"time"

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
	// The echoes of writes the engine has already taken in (most often a
	// group's own files, reported by the watcher while the next group is
	// indexed) need nothing, and no wait for e.syncMu.
	if err := ctx.Err(); err != nil {
		return err
	}
	if paths = e.outOfStep(paths); len(paths) == 0 {
		return nil
	}
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
	_, err := e.applyDiff(ctx, d, applyHow{})
	return err
}

// outOfStep returns the paths a Sync has work for: it leaves out each
// note whose size and modification time on disk are the ones the engine
// has. Anything else (a folder, an attachment, an ignored or missing
// file, a note the engine knows under another spelling) stays.
func (e *Engine) outOfStep(paths []string) []string {
	if len(paths) == 0 || e.readLock() != nil {
		return paths
	}
	defer e.mu.RUnlock()
	return slices.DeleteFunc(slices.Clone(paths), e.inStep)
}

// inStep reports whether given names a note whose size and modification
// time on disk are the ones the engine has (caller holds e.mu).
func (e *Engine) inStep(given string) bool {
	rel, _, abs, ok := e.syncPath(given)
	if !ok || !vault.HasMD(rel) || e.ignore.Skip(rel, false) {
		return false
	}
	ns, ok := e.notes[rel]
	if !ok || ns.path != abs {
		return false
	}
	fi, err := os.Stat(abs)
	return err == nil && fi.Mode().IsRegular() && ns.note.Size == fi.Size() && ns.note.ModTime.Equal(fi.ModTime())
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
	e.mu.RUnlock()
	d, err := e.scanDiff()
	if err != nil {
		return IndexReport{}, err
	}
	rep, err := e.applyDiff(ctx, d, applyHow{full: true})
	rep.Duration = time.Since(start)
	return rep, err
}

// Change says which notes one sync added, removed or edited (IDs, sorted).
type Change struct {
	Added, Removed, Edited []string
}

// notify tells subscribers what a sync changed, if anything.
func (e *Engine) notify(c Change) {
	if len(c.Added)+len(c.Removed)+len(c.Edited) == 0 {
		return
	}
	e.subMu.Lock()
	defer e.subMu.Unlock()
	if len(e.subs) == 0 {
		return
	}
	slices.Sort(c.Added)
	slices.Sort(c.Removed)
	slices.Sort(c.Edited)
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
