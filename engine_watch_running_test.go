package vaultgraph_test

import (
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// WatchOptions.Running is called once, after the watcher runs, and not
// again for later changes (serve gives start-up's memory back there).
func TestWatchRunningCalledOnce(t *testing.T) {
	dir := copyTestVault(t)
	var calls atomic.Int32
	called := make(chan string, 4)
	opts := watchFast
	e := openWatched(t, dir)
	opts.Running = func() {
		calls.Add(1)
		called <- watcherState(t, e)
	}
	w := watch(t, e, opts)
	select {
	case state := <-called:
		if state != "running" {
			t.Errorf("Running called with the watcher %q, want running", state)
		}
	case <-time.After(watchWait):
		t.Fatalf("Running not called %v after the watcher ran", watchWait)
	}
	if err := os.WriteFile(w.path("Running.md"), []byte("# Running\n\nSee [[Home]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.settle("create", func() bool { return w.node("Running") != nil })
	if n := calls.Load(); n != 1 {
		t.Errorf("Running called %d times, want once", n)
	}
}
