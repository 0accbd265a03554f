package vaultgraph

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// readAheadFixture writes n files of distinct sizes and contents and
// returns them as vault.Files, with one missing file at index gone (-1
// for none).
func readAheadFixture(t *testing.T, n, gone int) ([]vault.File, [][]byte) {
	t.Helper()
	dir := t.TempDir()
	files := make([]vault.File, n)
	want := make([][]byte, n)
	for i := range files {
		path := filepath.Join(dir, fmt.Sprintf("n%03d.md", i))
		files[i] = vault.File{ID: fmt.Sprintf("n%03d", i), Path: path}
		if i == gone {
			continue
		}
		want[i] = bytes.Repeat([]byte(fmt.Sprintf("note %d\n", i)), i%7+1)
		if err := os.WriteFile(path, want[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files, want
}

// TestReadAheadOrder: three workers taking files in the order parseAll
// hands them out get each file's own content, and a missing file's
// error, for more files than the read-ahead window holds.
func TestReadAheadOrder(t *testing.T) {
	n := readAheadFiles*3 + 5
	files, want := readAheadFixture(t, n, 17)
	r := readAhead(files)
	next := make(chan int)
	var wg sync.WaitGroup
	got := make([][]byte, n)
	errs := make([]error, n)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				got[i], errs[i] = r.take(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	r.close()
	for i := range n {
		if i == 17 {
			if !errors.Is(errs[i], fs.ErrNotExist) {
				t.Errorf("file %d: err %v, want not exist", i, errs[i])
			}
			continue
		}
		if errs[i] != nil || !bytes.Equal(got[i], want[i]) {
			t.Errorf("file %d: got %q, %v; want %q", i, got[i], errs[i], want[i])
		}
	}
}

// TestReadAheadBounded: with no file taken, the readers read exactly
// readAheadFiles files and wait; a take lets one more be read; close
// ends readers that are waiting (a parse that stopped early).
func TestReadAheadBounded(t *testing.T) {
	files, _ := readAheadFixture(t, readAheadFiles*2, -1)
	r := readAhead(files)
	waitFor := func(n int64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for r.next.Load() < n && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond) // let any reader go too far
		if got := r.next.Load(); got != n {
			t.Fatalf("files claimed = %d, want %d", got, n)
		}
	}
	waitFor(readAheadFiles)
	if _, err := r.take(0); err != nil {
		t.Fatal(err)
	}
	waitFor(readAheadFiles + 1)
	done := make(chan struct{})
	go func() { r.close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("close did not end the waiting readers")
	}
}
