package main

// The collector settings of the commands: loadGC for loading an index
// (a one-shot read, serve), limitIndexMemory for building one (index),
// serveGC for a loaded server.

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// loadHeapLimit bounds the heap while the collector is off (loadGC): past
// it the collector runs again, so a huge vault is read in bounded memory.
// A read whose snapshot cache is fresh never reaches it (378 MB peak RSS
// at 100,000 notes); the first read after the index changed reads the
// tables and rewrites the caches, and is the one it bounds. That read at
// 100,000 notes, CPU time (user) and peak RSS by limit, back to back on
// copies of one index: 1 GiB 4.9-5.2 s, 1,045 MB; 768 MiB 5.0-5.5 s, 830
// MB; 640 MiB 5.4-5.7 s, 695 MB; 512 MiB 9.7-10.1 s, 660 MB; 384 MiB 12-13
// s; 256 MiB 15 s (below about 600 MiB the live heap is near the limit
// and the collector runs again and again). The collector on at GOGC=100
// throughout: 5.4-5.7 s, 725 MB.
const loadHeapLimit = 640 << 20

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
// MiB with a 600 MiB limit for 12% more CPU time. Since an index run
// keeps less of each note (Options.IndexOnly), makes less garbage and
// writes the snapshot cache as it encodes it, its live heap ends near
// 230 MB. At 100,000 notes, back to back on the shared machine: 600 MiB
// 68.5 s of CPU and 686 MiB peak RSS (the build before: 74.9 s, 689
// MiB), 384 MiB 80.3 s and 479 MiB, 352 MiB 83.0 s and 448 MiB (470 MB,
// under the 500 MB target) with the same wall time (51 s) as the build
// before; the rest of the RSS is SQLite's page caches and the program's
// text. A smaller vault never reaches it.
const indexMemoryLimit = 352 << 20

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

// serveHeadroom is how much a server's heap may grow between two
// collections, at least: GOGC=100 lets it grow by what is live, and a
// server's live heap at 10,000 notes (graph, caches, vector index) is
// about 70 MB (a heap profile under `make load`). There the collector
// took 8 to 10% of serve's CPU at GOGC=100, and 2 to 2.5% at GOGC=500
// and with this headroom (GOGC about 370). A vault whose live heap is
// larger than the headroom keeps GOGC=100, so the heap stays within
// twice what is live, as before.
const serveHeadroom = 256 << 20

// serveGC sets the GOGC of a loaded server so that its heap may grow by
// serveHeadroom (or by what is live, if more) between collections, given
// the live heap; it does nothing when getenv("GOGC") or
// getenv("GOMEMLIMIT") sets one. It returns the GOGC in force.
func serveGC(getenv func(string) string, live uint64) int {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		percent := debug.SetGCPercent(100)
		debug.SetGCPercent(percent)
		return percent
	}
	percent := 100
	if live > 0 && live < serveHeadroom {
		percent = int(serveHeadroom * 100 / live)
	}
	debug.SetGCPercent(percent)
	return percent
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
