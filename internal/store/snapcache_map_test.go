//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
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
	b, release, err := readCacheFile(p)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
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
