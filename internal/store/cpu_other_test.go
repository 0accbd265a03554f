//go:build !unix

package store

// processCPU returns 0: the process's CPU time is read on Unix only.
func processCPU() int64 { return 0 }
