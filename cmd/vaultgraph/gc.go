package main

// The collector settings of the commands: loadGC for loading an index
// (a one-shot read, serve), limitIndexMemory for building one (index).

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

// indexMemoryLimit is the soft limit of the Go heap an index run sets
// when $GOMEMLIMIT does not set one. A cold index holds every note it
// parses, and the garbage collector would otherwise let the heap grow to
// twice that: at 100,000 notes the peak RSS went from 1,165 MiB to 690
// MiB for 12% more CPU time. A smaller vault never reaches it.
const indexMemoryLimit = 600 << 20

// indexGCPercent is the GOGC an index run sets when $GOGC does not: the
// collector runs half as often while the heap is small (the memory limit
// still bounds it). At 10,000 notes a cold index took 8 to 10% less CPU
// time for a peak RSS of 230 to 250 MiB instead of 185; at 100,000 notes,
// where the limit rules, the CPU time was 1 to 7% lower and the peak the
// same.
const indexGCPercent = 200

// limitIndexMemory sets indexMemoryLimit unless getenv("GOMEMLIMIT")
// sets a limit, and indexGCPercent unless getenv("GOGC") sets one; it
// returns the limit in force.
func limitIndexMemory(getenv func(string) string) int64 {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(indexGCPercent)
	}
	if getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1)
	}
	debug.SetMemoryLimit(indexMemoryLimit)
	return indexMemoryLimit
}
