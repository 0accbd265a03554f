package main

// The collector settings of the commands: loadGC for loading an index
// (a one-shot read, serve), limitIndexMemory for building one (index),
// serveGC for a loaded server.

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/vaultgraph/vaultgraph"
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
// text. A smaller vault never reaches it. Once a cold index kept less
// (2026-11-27), 368 MiB took 1.5 to 3% less CPU than 352 MiB at 100,000
// notes on the quiet machine (54.4 to 55.2 s against 55.7 to 57.4 s,
// wall 29.5 to 29.9 s against 30.1 to 31.1 s) for the same peak RSS
// (428 to 430 MiB against 430 to 432); 384 MiB took 53.8 s at 445 MiB.
const indexMemoryLimit = 368 << 20

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

// serveMemory puts the collector back for a loaded server (restore is
// loadGC's), then gives back what loading made: with the collector off,
// all of that garbage is still there, and one collection here costs less
// than the several the load would have made. It starts settleMemory and
// giveBackWhenIdle, which end with ctx.
func serveMemory(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger, restore func()) {
	restore()
	debug.FreeOSMemory()
	serveGC(os.Getenv, liveHeap())
	go settleMemory(ctx, e, log)
	go giveBackWhenIdle(ctx, e, log)
}

// settleMemory gives back what the embedder's start made, once it is
// done: the stored vectors load, and notes changed since are embedded,
// in the background after the server answers, with the collector at
// the GOGC serveGC set from the heap before them. Without this, a
// 100,000-note server with the builtin model idled at twice its live
// heap (813 MB RSS for 389 MB live). It sets serveGC again for the heap
// with the vectors, lets go of the snapshot cache's pages and the index
// connections' page caches (Engine.ReleaseMemory), and logs "embeddings
// ready" (bench waits for it).
func settleMemory(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger) {
	if e.WaitEmbeddings(ctx) != nil {
		return
	}
	releaseMemory(ctx, e, log) // what the start and the embedder's load read
	debug.FreeOSMemory()
	serveGC(os.Getenv, liveHeap())
	log.Info("embeddings ready", "live_heap_mib", liveHeap()>>20)
}

// A server that went quiet gives back the heap its last requests left
// (giveBackWhenIdle): the collector lets the heap grow to twice what is
// live before it collects, and the runtime keeps what it freed. At
// 100,000 notes 300 searches took a server from 364 to 806 MB RSS, and
// it stayed there while idle.
const (
	idleTick   = time.Second // how often the heap is looked at
	idleAllocs = 1 << 20     // at most this allocated in a tick is quiet
	idleSlack  = 64 << 20    // heap held beyond the live heap worth a collection
)

// giveBackWhenIdle collects and returns memory to the system once a
// tick allocated little (the server is idle) and the heap holds more
// than idleSlack beyond what the last collection found live; then not
// again until requests come back. It does nothing when the user set
// GOGC or GOMEMLIMIT. On the first quiet tick after busy ones (and after
// the start) it also lets go of the pages of the snapshot cache the
// requests read and of the index connections' page caches
// (Engine.ReleaseMemory): at 100,000 notes 300 searches brought back 35
// MB of the first, and 100 searches left about 50 MB in the second.
func giveBackWhenIdle(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	t := time.NewTicker(idleTick)
	defer t.Stop()
	samples := []metrics.Sample{
		{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
	}
	read := func() (allocs, live, held uint64) {
		metrics.Read(samples)
		v := func(i int) uint64 {
			if samples[i].Value.Kind() != metrics.KindUint64 {
				return 0
			}
			return samples[i].Value.Uint64()
		}
		return v(0), v(1), v(2) + v(3) + v(4)
	}
	last, _, _ := read()
	busy := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		allocs, live, held := read()
		quiet := allocs-last < idleAllocs
		if quiet && busy {
			releaseMemory(ctx, e, log)
		}
		busy = !quiet
		if idleHeap(allocs-last, live, held) {
			giveBack()
			allocs, _, _ = read()
		}
		last = allocs
	}
}

// releaseMemory calls Engine.ReleaseMemory; a failure loses nothing (the
// memory stays held) and is logged at debug level, except when the
// server is closing.
func releaseMemory(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger) {
	if err := e.ReleaseMemory(ctx); err != nil && ctx.Err() == nil {
		log.Debug("memory not given back", "err", err)
	}
}

// giveBack collects twice, then returns what is free to the system: what
// a sync.Pool holds (the large slices searches reuse) is only dropped by
// the second collection after it was put back. At 100,000 notes, 100
// searches left about 8 MB in them.
func giveBack() {
	runtime.GC()
	debug.FreeOSMemory()
}

// idleHeap reports whether a tick that allocated allocated bytes is
// quiet and the heap holds more than idleSlack beyond live.
func idleHeap(allocated, live, held uint64) bool {
	return allocated < idleAllocs && held > live+idleSlack
}
