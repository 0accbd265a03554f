package vaultgraph

import (
	"context"
	"errors"
	"slices"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Watch follows the vault's changes with a file watcher until ctx ends:
// each debounced burst of events is applied as Sync does, in the next
// pass of the group commit's syncs (syncChanged), lost events and the
// periodic poll with Rescan. Status reports the watcher "running" once
// its watches are in place and what changed before (since Open, or since
// the last Watch) is applied. It returns nil when ctx ends, and
// ErrClosed when a change comes after the engine was closed.
func (e *Engine) Watch(ctx context.Context, opts vault.WatchOptions) error {
	if err := e.readLock(); err != nil {
		return err
	}
	root, ig := e.root, e.ignore
	e.mu.RUnlock()
	warmed := make(chan struct{})
	go func() {
		defer close(warmed)
		e.warmRefs()
	}()
	if opts.Logger == nil {
		opts.Logger = e.log
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := vault.NewWatcher(root, ig, opts)
	changes := make(chan vault.Change, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx, changes)
	}()
	defer e.setWatcher("off")
	closed := func() error {
		cancel()
		<-done
		return ErrClosed
	}
	running := false
	for {
		select {
		case <-done:
			return nil
		case c := <-changes:
			c = pending(c, changes)
			if c.Rescan {
				if _, err := e.Rescan(ctx); errors.Is(err, ErrClosed) {
					return closed()
				} else if err != nil && ctx.Err() == nil {
					e.log.Error("rescan", "err", err)
				}
			}
			if len(c.Paths) > 0 {
				if err := e.syncChanged(c.Paths); errors.Is(err, ErrClosed) {
					return closed()
				} else if err != nil && ctx.Err() == nil {
					e.log.Error("sync", "paths", len(c.Paths), "err", err)
				}
			}
			e.followRenames(ctx)
			if !running { // the first Change is Run's initial Rescan
				running = true
				e.setWatcher("running")
				e.announceRunning(ctx, warmed, opts.Running)
			}
		}
	}
}

// pending adds to c the changes already waiting in changes, so that the
// paths that came due while the last sync ran (or waited for a group's)
// are taken in by one sync, one index transaction.
func pending(c vault.Change, changes <-chan vault.Change) vault.Change {
	c.Paths = slices.Clone(c.Paths)
	for {
		select {
		case more := <-changes:
			c.Paths = append(c.Paths, more.Paths...)
			c.Rescan = c.Rescan || more.Rescan
		default:
			return c
		}
	}
}

// announceRunning calls running, if set, once the rename index is built
// (warmed closed), without holding up the watch loop.
func (e *Engine) announceRunning(ctx context.Context, warmed <-chan struct{}, running func()) {
	if running == nil {
		return
	}
	go func() {
		select {
		case <-warmed:
			running()
		case <-ctx.Done():
		}
	}()
}

func (e *Engine) setWatcher(state string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.watcher = state
}
