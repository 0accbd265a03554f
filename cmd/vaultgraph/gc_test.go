package main

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// TestLoadGC checks that the collector is off with a
// memory limit until restored, and left alone when the user set GOGC.
func TestLoadGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	restore := loadGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent after loadGC = %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != loadHeapLimit {
		t.Errorf("memory limit after loadGC = %d, want %d", got, loadHeapLimit)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after restore = %d, want 100", got)
	}

	t.Setenv("GOGC", "200")
	restore = loadGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after loadGC with GOGC set = %d, want 100 (untouched)", got)
	}
	restore()
}

// TestServeGC checks the GOGC a loaded server runs with: headroom of
// serveHeadroom over a small live heap, 100 over a large one, and the
// user's own setting left alone.
func TestServeGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	none := func(string) string { return "" }
	for _, tt := range []struct {
		desc string
		live uint64
		want int
	}{
		{"64 MiB live", 64 << 20, 400},
		{"half the headroom", serveHeadroom / 2, 200},
		{"as much as the headroom", serveHeadroom, 100},
		{"1 GiB live", 1 << 30, 100},
		{"unknown", 0, 100},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			if got := serveGC(none, tt.live); got != tt.want {
				t.Errorf("serveGC(%d) = %d, want %d", tt.live, got, tt.want)
			}
			if got := debug.SetGCPercent(100); got != tt.want {
				t.Errorf("GOGC after serveGC(%d) = %d, want %d", tt.live, got, tt.want)
			}
		})
	}
	debug.SetGCPercent(150)
	gogc := func(k string) string {
		if k == "GOGC" {
			return "150"
		}
		return ""
	}
	if got := serveGC(gogc, 64<<20); got != 150 {
		t.Errorf("serveGC with GOGC set = %d, want 150 (untouched)", got)
	}
	runtime.GC()
	if live := liveHeap(); live == 0 {
		t.Error("liveHeap() = 0")
	}
}

// TestIdleHeap checks when a quiet server gives its heap back: only in a
// tick that allocated little, and only when the heap holds more than
// idleSlack beyond what is live.
func TestIdleHeap(t *testing.T) {
	const live = 300 << 20
	for _, tt := range []struct {
		desc            string
		allocated, held uint64
		want            bool
	}{
		{"quiet, twice the live heap held", 0, 2 * live, true},
		{"quiet, a little garbage", 1 << 10, live + idleSlack/2, false},
		{"busy, twice the live heap held", 50 << 20, 2 * live, false},
		{"just quiet", idleAllocs - 1, live + idleSlack + 1, true},
		{"just busy", idleAllocs, live + idleSlack + 1, false},
	} {
		if got := idleHeap(tt.allocated, live, tt.held); got != tt.want {
			t.Errorf("%s: idleHeap(%d, %d, %d) = %v, want %v", tt.desc, tt.allocated, live, tt.held, got, tt.want)
		}
	}
}

// TestGiveBackPools checks that giving the heap back also drops what a
// sync.Pool holds, which one collection only moves aside.
func TestGiveBackPools(t *testing.T) {
	var pool sync.Pool
	b := make([]byte, 1<<20)
	pool.Put(&b)
	giveBack()
	if got := pool.Get(); got != nil {
		t.Errorf("after giveBack the pool still holds %T", got)
	}
}
