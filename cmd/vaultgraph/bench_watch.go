package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// watchLatency times edits on an engine watching the vault (warm, from
// index), as bench's help describes watch_p50/p99: even ones create a
// note, odd ones append a line to an existing note.
func watchLatency(ctx context.Context, vaultDir, index string, edits int) ([]time.Duration, error) {
	e := vaultgraph.New(vaultgraph.Options{Vault: vaultDir, Index: index})
	if err := e.Open(ctx); err != nil {
		return nil, err
	}
	defer e.Close()
	ctx, cancel := context.WithCancel(ctx)
	watchDone := make(chan error, 1)
	go func() { watchDone <- e.Watch(ctx, vault.WatchOptions{}) }()
	defer func() {
		cancel()
		<-watchDone
	}()

	notes, err := notePaths(vaultDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(vaultDir, watchFolder), 0o755); err != nil {
		return nil, err
	}
	w := &watchBench{ctx: ctx, e: e, vaultDir: vaultDir, watchDone: watchDone}

	// A first edit, not timed, waits until the watcher has its watches in
	// place (it starts by comparing the whole vault with the index).
	visible, err := w.create("Warm Up")
	if err != nil {
		return nil, err
	}
	if _, err := w.wait(time.Now(), visible, 2*time.Minute); err != nil {
		return nil, err
	}
	lat := make([]time.Duration, 0, edits)
	for i := range edits {
		start := time.Now()
		if i%2 == 0 {
			visible, err = w.create(fmt.Sprintf("Edit %04d", i))
		} else {
			visible, err = w.appendTo(notes[(i*7919)%len(notes)], i)
		}
		if err != nil {
			return nil, err
		}
		d, err := w.wait(start, visible, 30*time.Second)
		if err != nil {
			return nil, fmt.Errorf("edit %d: %w", i, err)
		}
		lat = append(lat, d)
	}
	return lat, nil
}

// watchFolder is the vault folder the watch benchmark creates notes in.
const watchFolder = "vaultgraph-bench-watch"

// watchBench makes the watch benchmark's edits on an engine whose watcher
// runs until ctx ends, reporting its end on watchDone.
type watchBench struct {
	ctx       context.Context
	e         *vaultgraph.Engine
	vaultDir  string
	watchDone chan error
}

// create writes a new note and reports when it is visible.
func (w *watchBench) create(name string) (func() bool, error) {
	id := watchFolder + "/" + name + ".md"
	err := os.WriteFile(filepath.Join(w.vaultDir, filepath.FromSlash(id)), []byte("# "+name+"\n\nA note the benchmark wrote.\n"), 0o644)
	return func() bool {
		n, _ := w.e.GetNode(w.ctx, id, false)
		return n != nil
	}, err
}

// appendTo appends a line to a note and reports when the engine has it.
func (w *watchBench) appendTo(p string, i int) (func() bool, error) {
	rel, err := filepath.Rel(w.vaultDir, p)
	if err != nil {
		return nil, err
	}
	id := filepath.ToSlash(rel)
	if err := appendText(p, fmt.Sprintf("\nEdit %d by vaultgraph bench.\n", i)); err != nil {
		return nil, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	return func() bool {
		n, _ := w.e.GetNode(w.ctx, id, false)
		return n != nil && n.Size == fi.Size()
	}, nil
}

// wait polls until visible reports the edit made at start, for at most
// limit, and returns how long it took.
func (w *watchBench) wait(start time.Time, visible func() bool, limit time.Duration) (time.Duration, error) {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !visible() {
		if time.Since(start) > limit {
			return 0, fmt.Errorf("an edit was not visible after %s", limit)
		}
		select {
		case <-w.ctx.Done():
			return 0, w.ctx.Err()
		case err := <-w.watchDone:
			w.watchDone <- err
			return 0, fmt.Errorf("the watcher stopped: %v", err)
		case <-tick.C:
		}
	}
	return time.Since(start), nil
}
