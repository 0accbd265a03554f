package vaultgraph

import (
	"context"
	"errors"
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
