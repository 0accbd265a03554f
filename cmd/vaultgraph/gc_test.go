package main

import (
	"runtime/debug"
	"testing"
)

// TestOneShotGC checks that a one-shot command's collector is off with a
// memory limit until restored, and left alone when the user set GOGC.
func TestOneShotGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)
	restore := oneShotGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent after oneShotGC = %d, want -1 (off)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != oneShotHeapLimit {
		t.Errorf("memory limit after oneShotGC = %d, want %d", got, oneShotHeapLimit)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after restore = %d, want 100", got)
	}

	t.Setenv("GOGC", "200")
	restore = oneShotGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after oneShotGC with GOGC set = %d, want 100 (untouched)", got)
	}
	restore()
}
