package main

import (
	"os"
	"runtime/debug"
)

// loadHeapLimit bounds the heap while the collector is off (loadGC): past
// it the collector runs again, so a huge vault is read in bounded memory.
const loadHeapLimit = 1 << 30

// loadGC turns the garbage collector off while the engine loads the
// index, up to loadHeapLimit: almost everything the load allocates stays
// live (until a one-shot command exits, or as a server's graph), so
// collections would find little to free (at 100,000 notes they cost a
// sixth of a one-shot command's CPU). It does nothing when the user set
// GOGC or GOMEMLIMIT. The function it returns puts the collector back: a
// server calls it once loaded, a one-shot command before it embeds (which
// allocates much); a one-shot read keeps it off until it exits.
func loadGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(loadHeapLimit)
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
