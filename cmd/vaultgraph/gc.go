package main

// The collector settings of the commands: loadGC for loading an index
// (a one-shot read, serve), limitIndexMemory for building one (index),
// serveGC for a loaded server; and the profiles any command writes.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

// loadHeapLimit bounds the heap while the collector is off (loadGC): past
// it the collector runs again, so a huge vault is read in bounded memory.
// A read whose snapshot cache is fresh never reaches it; the first read
// after the index changed (it rewrites the caches) does. Below about 600
// MiB the live heap of that read at 100,000 notes is near the limit and
// the collector runs again and again.
const loadHeapLimit = 640 << 20

// loadGC turns the garbage collector off while the engine loads the
// index, up to loadHeapLimit: almost everything the load allocates stays
// live (until a one-shot command exits, or as a server's graph), so
// collections would find little to free. It does nothing when userGC.
// The function it returns puts the collector back: a server calls it once
// loaded, a one-shot command before it embeds (which allocates much); a
// one-shot read keeps it off until it exits.
func loadGC() (restore func()) {
	if userGC(os.Getenv) {
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
// twice that; with the limit a 100,000-note cold index stays under the
// 500 MB target of peak RSS (the rest of the RSS is SQLite's page caches
// and the program's text). A smaller vault never reaches it.
const indexMemoryLimit = 368 << 20

// indexGCPercent is the GOGC an index run sets when $GOGC does not: the
// collector runs half as often while the heap is small (the memory limit
// still bounds it), for less CPU time.
const indexGCPercent = 200

// limitIndexMemory sets indexMemoryLimit and indexGCPercent where getenv
// sets none; it returns the memory limit in force.
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
// collections, at least: GOGC=100 lets it grow by what is live, and on a
// small server's live heap (about 70 MB at 10,000 notes) the collector
// then takes several times the CPU it does with this headroom. A vault
// whose live heap is larger than the headroom keeps GOGC=100, so the
// heap stays within twice what is live.
const serveHeadroom = 256 << 20

// serveGC sets the GOGC of a loaded server for serveHeadroom, given the
// live heap, unless userGC(getenv); it returns the GOGC in force.
func serveGC(getenv func(string) string, live uint64) int {
	if userGC(getenv) {
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

// userGC reports whether getenv("GOGC") or getenv("GOMEMLIMIT") sets
// the collector: the user's settings stand.
func userGC(getenv func(string) string) bool {
	return getenv("GOGC") != "" || getenv("GOMEMLIMIT") != ""
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return sampleUint(s[0])
}

// sampleUint is a metric's value, 0 when it is not a uint64.
func sampleUint(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// serveMemory puts the collector back for a loaded server (restore is
// loadGC's) and gives back the garbage the load left, in one collection
// rather than the several the load would have made; then it starts
// settleMemory and giveBackWhenIdle, which end with ctx.
func serveMemory(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger, restore func()) {
	restore()
	debug.FreeOSMemory()
	serveGC(os.Getenv, liveHeap())
	go settleMemory(ctx, e, log)
	go giveBackWhenIdle(ctx, e, log)
}

// settleMemory gives back what the embedder's start made (the stored
// vectors load and changed notes are embedded in the background, with
// the GOGC set before them) once it is done, sets serveGC again for the
// heap with the vectors, and logs "embeddings ready" (bench waits for it).
// Without this, a server idles at about twice its live heap.
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
// live before it collects, and the runtime keeps what it freed.
const (
	idleTick   = time.Second // how often the heap is looked at
	idleAllocs = 1 << 20     // at most this allocated in a tick is quiet
	idleSlack  = 64 << 20    // heap held beyond the live heap worth a collection
)

// giveBackWhenIdle collects and returns memory to the system once a
// tick is quiet (idleHeap), then not again until requests come back; on
// the first quiet tick after busy ones it also calls releaseMemory. It
// does nothing when userGC.
func giveBackWhenIdle(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger) {
	if userGC(os.Getenv) {
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
		v := func(i int) uint64 { return sampleUint(samples[i]) }
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
// memory stays held) and is logged at debug level.
func releaseMemory(ctx context.Context, e *vaultgraph.Engine, log *slog.Logger) {
	if err := e.ReleaseMemory(ctx); err != nil && ctx.Err() == nil {
		log.Debug("memory not given back", "err", err)
	}
}

// giveBack collects twice, then returns what is free to the system: what
// a sync.Pool holds (the large slices searches reuse) is only dropped by
// the second collection after it was put back.
func giveBack() {
	runtime.GC()
	debug.FreeOSMemory()
}

// idleHeap reports whether a tick that allocated allocated bytes is quiet
// with more than idleSlack held beyond live.
func idleHeap(allocated, live, held uint64) bool {
	return allocated < idleAllocs && held > live+idleSlack
}

// Environment variables that make any command write Go profiles, for
// `make profile` and `go tool pprof`: a CPU profile of the whole run, and
// a heap profile (allocations since start, and what is live) at its end,
// and beside it (FILE.peak) one taken when the live heap was at its
// largest, which is what bounds the peak RSS.
const (
	EnvCPUProfile  = "VAULTGRAPH_CPUPROFILE"
	EnvHeapProfile = "VAULTGRAPH_HEAPPROFILE"
)

// startProfiles starts the profiles the environment asks for and returns
// what ends them; one that cannot be written is reported on stderr only.
func startProfiles(stderr io.Writer) (stop func()) {
	var stops []func()
	if path := os.Getenv(EnvCPUProfile); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "cpu profile %s: %v\n", path, err)
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if path := os.Getenv(EnvHeapProfile); path != "" {
		stops = append(stops, watchPeakHeap(path+".peak", stderr))
		stops = append(stops, func() {
			runtime.GC() // the live heap as of the end
			if err := writeHeapProfile(path, "allocs"); err != nil {
				fmt.Fprintln(stderr, err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// peakHeapEvery is how often watchPeakHeap reads the live heap.
const peakHeapEvery = 250 * time.Millisecond

// watchPeakHeap writes a heap profile to path each time the live heap has
// grown by a tenth past the largest written, until stop: the last one
// shows what was live near the peak.
func watchPeakHeap(path string, stderr io.Writer) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var written uint64
		tick := time.NewTicker(peakHeapEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			live := liveHeap()
			if live < written+written/10 || live == 0 {
				continue
			}
			written = live
			if err := writeHeapProfile(path, "heap"); err != nil {
				fmt.Fprintln(stderr, err)
				return
			}
		}
	}()
	return func() { close(done); <-finished }
}

// writeHeapProfile writes the profile name ("heap" or "allocs") to path.
func writeHeapProfile(path, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	err = pprof.Lookup(name).WriteTo(f, 0)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("heap profile %s: %w", path, err)
	}
	return nil
}
