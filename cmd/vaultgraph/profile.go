package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Environment variables that make any command write pprof profiles, for
// `make profile`: a CPU profile of the whole run and a heap profile at its
// end.
const (
	EnvCPUProfile  = "VAULTGRAPH_CPUPROFILE"
	EnvHeapProfile = "VAULTGRAPH_HEAPPROFILE"
)

// startProfiles starts the profiles the environment asks for and returns
// the function that writes them at the end of the run.
func startProfiles() (stop func(), err error) {
	var cpu *os.File
	if p := os.Getenv(EnvCPUProfile); p != "" {
		if cpu, err = os.Create(p); err != nil {
			return nil, fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("cpu profile: %w", err)
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if p := os.Getenv(EnvHeapProfile); p != "" {
			writeHeapProfile(p)
		}
	}, nil
}

// writeHeapProfile writes the heap profile (in-use and allocated) to p;
// a failure is reported on stderr, never fatal.
func writeHeapProfile(p string) {
	f, err := os.Create(p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "vaultgraph: heap profile: %v\n", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintf(os.Stderr, "vaultgraph: heap profile: %v\n", err)
	}
}
