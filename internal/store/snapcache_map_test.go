//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestReadCacheFileMapped checks that the snapshot cache's bytes are
// read without a copy of them on the heap (the decoded snapshot keeps
// them all for the process's lifetime), that they are the file's, and
// that they stay so once dropCachePages let the process's pages go and
// after the file was replaced the way a new cache is written (a
// rename).
func TestReadCacheFileMapped(t *testing.T) {
	want := bytes.Repeat([]byte("vaultgraph snapshot cache "), 1<<16) // 1.6 MiB
	dir := t.TempDir()
	p := filepath.Join(dir, "index.db.snap")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, mapped, release, err := readCacheFile(p)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if !mapped {
		t.Error("readCacheFile read the cache as a copy, want it mapped")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Errorf("reading a cache of %d bytes allocated %d bytes on the heap, want it mapped", len(want), got)
	}
	dropCachePages(b)
	next := filepath.Join(dir, "next")
	if err := os.WriteFile(next, bytes.Repeat([]byte("x"), len(want)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, p); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		t.Error("the cache's bytes changed after their pages were let go and the file replaced")
	}
}

// TestDropCachePages checks, where /proc/self/smaps tells, that a
// mapped cache whose bytes were all read holds no pages in the process
// once dropCachePages let them go, and still reads the same.
func TestDropCachePages(t *testing.T) {
	want := bytes.Repeat([]byte("snapshot pages "), 1<<16) // 960 KiB
	p := filepath.Join(t.TempDir(), "index.db.snap")
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	b, mapped, release, err := readCacheFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if !mapped {
		t.Fatal("readCacheFile read the cache as a copy, want it mapped")
	}
	if !bytes.Equal(b, want) { // reads every page
		t.Fatal("the mapped cache differs from the file")
	}
	before, ok := mappedRSS(t, b)
	if !ok {
		t.Skip("no /proc/self/smaps")
	}
	dropCachePages(b)
	after, _ := mappedRSS(t, b)
	if before == 0 || after != 0 {
		t.Errorf("the cache's map held %d KiB in the process once read and %d KiB after dropCachePages, want some, then none", before, after)
	}
	if !bytes.Equal(b, want) {
		t.Error("the mapped cache differs from the file after its pages were let go")
	}
}

// mappedRSS returns the Rss (KiB) /proc/self/smaps gives the mapping
// that holds b.
func mappedRSS(t *testing.T, b []byte) (kib int, ok bool) {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0, false
	}
	at := uint64(uintptr(unsafe.Pointer(&b[0])))
	in := false
	for _, line := range strings.Split(string(smaps), "\n") {
		var lo, hi uint64
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= at && at < hi
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			fmt.Sscanf(strings.TrimPrefix(line, "Rss:"), "%d", &kib)
			return kib, true
		}
	}
	return 0, false
}
