package vaultgraph_test

// Hostile sizes: a huge note and a note with 100,000 links, with memory
// bounded.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

// heapWatch samples the heap while fn runs and returns the largest
// HeapInuse growth over the start.
func heapWatch(fn func()) (growth uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	peak.Store(base)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	return peak.Load() - base
}

// hostileMemLimit bounds the heap growth of indexing one hostile note.
const hostileMemLimit = 600 << 20

// TestHostileHugeNote indexes a 50 MB note: it is indexed (by name and
// frontmatter) with a warning, memory stays bounded, and reads of it are
// cut to size.
func TestHostileHugeNote(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and indexes a 50 MB note")
	}
	dir := makeVault(t, map[string]string{"Small.md": "# Small\n[[Huge]]\n"})
	var b strings.Builder
	b.WriteString("---\ntags: [big]\n---\n# Huge\n")
	line := "word [[Small]] #tag another line of text with a [link](Small.md) and **bold** and `code`\n"
	for b.Len() < 50<<20 {
		b.WriteString(line)
	}
	write(t, dir, "Huge.md", b.String())
	b.Reset()

	var e *vaultgraph.Engine
	start := time.Now()
	growth := heapWatch(func() {
		e = vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	defer e.Close()
	t.Logf("Open with a 50 MB note: %v, heap growth %d MB", time.Since(start).Round(time.Millisecond), growth>>20)
	if growth > hostileMemLimit {
		t.Errorf("Open with a 50 MB note grew the heap by %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	n, err := e.GetNode(context.Background(), "Huge", false)
	if err != nil || n == nil {
		t.Fatalf("GetNode(Huge) = %v, %v; want the note", n, err)
	}
	if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "byte limit") }) {
		t.Errorf("Huge warnings = %q, want one about its size", n.Warnings)
	}
	if !slices.Contains(n.Tags, "big") {
		t.Errorf("Huge tags = %q, want the frontmatter tag big", n.Tags)
	}
	h := newHostileTools(e)
	growth = heapWatch(func() {
		for _, args := range []map[string]any{
			{"id": "Huge"},
			{"id": "Huge", "depth": 1, "format": "json", "detail": "full"},
			{"id": "Small", "depth": 1, "format": "json"},
			{"id": "Huge", "maxTokens": 50},
		} {
			text, isErr := h.call(t, "get_node", args)
			if isErr || len(text) > 100_000 {
				t.Errorf("get_node(%v) = %d bytes (isError %v), want a note cut to size", args, len(text), isErr)
			}
		}
		if text, isErr := h.call(t, "list_nodes", map[string]any{"format": "json"}); isErr || len(text) > 20_000 {
			t.Errorf("list_nodes = %d bytes (isError %v), want a list cut to size", len(text), isErr)
		}
		if text, isErr := h.call(t, "search", map[string]any{"query": "another line of text", "mode": "keyword"}); isErr {
			t.Errorf("search = %.300q", text)
		}
	})
	t.Logf("reads of the 50 MB note: heap growth %d MB", growth>>20)
	if growth > hostileMemLimit {
		t.Errorf("reads of a 50 MB note grew the heap by %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	// Rewriting it (a rename of the note it links to) is refused or done,
	// never half done, and its bytes are never lost.
	size := fileSize(t, filepath.Join(dir, "Huge.md"))
	if text, isErr := h.call(t, "update_node", map[string]any{"id": "Small", "title": "Small Two"}); isErr {
		t.Logf("rename of a note the huge one links to: %.300s", text)
	}
	if got := fileSize(t, filepath.Join(dir, "Huge.md")); got < size {
		t.Errorf("Huge.md shrank from %d to %d bytes", size, got)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("leftovers %q", l)
	}
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestHostileManyLinks: one note with 100,000 links (half to one note,
// half broken) is indexed in bounded time and memory, answers stay small,
// and renaming the target rewrites all 50,000 links in that note.
func TestHostileManyLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes and rewrites 100,000 links")
	}
	var b strings.Builder
	b.WriteString("# Many\n")
	for i := range 50_000 {
		fmt.Fprintf(&b, "[[Target]] [[Missing %d]]\n", i)
	}
	dir := makeVault(t, map[string]string{"Many.md": b.String(), "Target.md": "# Target\n", "Other.md": "[[Many]]\n"})
	var e *vaultgraph.Engine
	start := time.Now()
	growth := heapWatch(func() {
		e = vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	defer e.Close()
	t.Logf("Open with 100,000 links in one note: %v, heap growth %d MB", time.Since(start).Round(time.Millisecond), growth>>20)
	if growth > hostileMemLimit {
		t.Errorf("heap growth %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Links < 100_001 || st.BrokenLinks < 50_000 {
		t.Errorf("vault_status links %d, broken %d; want at least 100,001 and 50,000", st.Links, st.BrokenLinks)
	}
	h := newHostileTools(e)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": "Many", "format": "json", "detail": "full"}},
		{"get_node", map[string]any{"id": "Many", "depth": 1}},
		{"get_node", map[string]any{"id": "Target", "depth": 1, "format": "json"}},
		{"get_neighbors", map[string]any{"id": "Many", "format": "json"}},
		{"list_nodes", map[string]any{"brokenLinks": true}},
		{"get_hubs", map[string]any{"metric": "pagerank"}},
		{"vault_status", map[string]any{"format": "json"}},
		{"get_node", map[string]any{"id": "Many", "format": "json", "detail": "full", "maxTokens": 200}},
	} {
		start := time.Now()
		text, isErr := h.call(t, c.tool, c.args)
		took := time.Since(start)
		t.Logf("%s(%v): %d bytes in %v", c.tool, c.args, len(text), took.Round(time.Millisecond))
		if isErr {
			t.Errorf("%s(%v) = %.300q", c.tool, c.args, text)
		}
		if len(text) > 256<<10 {
			t.Errorf("%s(%v) answers %d bytes, want long lists capped (mcp.MaxListedItems)", c.tool, c.args, len(text))
		}
	}
	if hostileRace() {
		// The rename below takes seconds, minutes under the race
		// detector.
		t.Log("race detector on: the rename of 50,000 links is not run")
	} else {
		start = time.Now()
		text, isErr := h.call(t, "update_node", map[string]any{"id": "Target", "title": "Target Two", "format": "json"})
		took := time.Since(start)
		t.Logf("rename rewriting 50,000 links in one note: %v, answer %d bytes", took.Round(time.Millisecond), len(text))
		if isErr {
			t.Fatalf("rename Target = %.300q", text)
		}
		data, err := os.ReadFile(filepath.Join(dir, "Many.md"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(data), "[[Target Two]]"); got != 50_000 || strings.Contains(string(data), "[[Target]]") {
			t.Errorf("Many.md holds %d [[Target Two]] links, want 50,000 and no [[Target]]", got)
		}
		if len(text) > 256<<10 {
			t.Errorf("the rename answer is %d bytes, want the link changes capped (mcp.MaxListedItems)", len(text))
		}
	}
}
