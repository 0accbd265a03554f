package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

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
// the function that ends them. A profile that cannot be written is
// reported on stderr and skipped: it never fails the command.
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

// watchPeakHeap writes a heap profile to path each time the live heap (as
// of the last collection) has grown by a tenth past the largest one
// written, until the function it returns is called: the last profile
// written shows what was live near the peak.
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

// writeHeapProfile writes the profile name ("heap": what was live at the
// last collection first; "allocs": what was allocated since start first)
// to path.
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
