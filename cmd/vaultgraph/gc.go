package main

import (
	"os"
	"runtime/debug"
)

// oneShotHeapLimit bounds the heap of a one-shot command while its
// collector is off (oneShotGC): past it the collector runs again, so a
// huge vault is read in bounded memory.
const oneShotHeapLimit = 1 << 30

// oneShotGC turns the garbage collector off for a one-shot command, up to
// oneShotHeapLimit: almost everything loading the index allocates stays
// live until the process exits, so collections would find little to free
// (at 100,000 notes they cost a sixth of the command's CPU). It does
// nothing when the user set GOGC or GOMEMLIMIT. The function it returns
// puts the collector back, for a command that goes on to allocate much
// (embedding).
func oneShotGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(oneShotHeapLimit)
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
