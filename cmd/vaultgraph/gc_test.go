package main

import (
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
