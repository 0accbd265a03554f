package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// Environment variables that make any command write Go profiles, for
// `make profile` and `go tool pprof`: a CPU profile of the whole run, and
// a heap profile (allocations since start, and what is live) at its end.
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
		stops = append(stops, func() {
			f, err := os.Create(path)
			if err == nil {
				runtime.GC() // the live heap as of the end
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "heap profile %s: %v\n", path, err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
