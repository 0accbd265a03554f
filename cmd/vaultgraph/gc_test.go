package main

import (
	"runtime"
	"runtime/debug"
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
