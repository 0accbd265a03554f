package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestHeapProfilePeak: with VAULTGRAPH_HEAPPROFILE=FILE a run writes FILE
// at its end and FILE.peak while the live heap grows: both are gzipped
// profiles.
func TestHeapProfilePeak(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heap.pprof")
	t.Setenv(EnvHeapProfile, path)
	stop := startProfiles(io.Discard)
	var live [][]byte
	deadline := time.Now().Add(30 * time.Second)
	for {
		live = append(live, make([]byte, 8<<20))
		runtime.GC()
		if _, err := os.Stat(path + ".peak"); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(peakHeapEvery)
	}
	runtime.KeepAlive(live)
	stop()
	for _, p := range []string{path, path + ".peak"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("heap profile: %v", err)
		}
		if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
			t.Errorf("%s: %d bytes, not a gzipped profile", p, len(b))
		}
	}
}
