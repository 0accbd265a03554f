package store_test

import (
	"bytes"
	"context"
	"os"
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// TestKeepAhead: the batch that ends a bulk pass (the anchor text left
// stale) with Keep set writes the snapshot and graph caches as it
// commits, before Apply returns, with no KeepCache: the cache gives
// exactly what the tables give. It writes none when the batch writes a
// notes row, when another store wrote the index since this one's last
// write, when the links spoil it, or when the batch ends no bulk pass.
func TestKeepAhead(t *testing.T) {
	ctx := context.Background()
	index := indexVault(t, testutil.CopyTestVault(t))
	os.Remove(index + ".snap")
	snap, _ := load(t, index) // from the tables, with every link decoded
	open := func() *store.Store {
		s, err := store.Open(ctx, index)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	graph := []byte("the graph")
	keep := func(links func(string) (store.NoteLinks, bool)) *store.Keep {
		return &store.Keep{Links: links, Graph: func() []byte { return graph }}
	}
	apply := func(s *store.Store, b *store.Batch) {
		t.Helper()
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	stale := func(s *store.Store, path string) { // a bulk pass's batch
		apply(s, &store.Batch{AddFiles: []string{path}, DeferAnchors: true})
	}
	notKept := func(what string, s *store.Store) {
		t.Helper()
		if _, cached := load(t, index); cached {
			t.Errorf("%s: a cache was kept", what)
		}
		if got := s.LoadGraphCache(s.CacheKey(ctx)); got != nil {
			t.Errorf("%s: a graph cache was kept: %q", what, got)
		}
	}

	s := open()
	stale(s, "a.png")
	apply(s, &store.Batch{AddFiles: []string{"b.png"}, Meta: map[string]string{"consistent": "1"}, Keep: keep(keptLinks(snap))})
	checkKeptCache(t, "a bulk pass's last batch", index)
	// The keeper's connection went back to the pool with the usual page
	// cache (it reads with a small one).
	sizes, err := store.CacheSizes(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) < 2 {
		t.Errorf("%d idle connections after the keeper, want the writer's and the keeper's", len(sizes))
	}
	for _, n := range sizes {
		if n != -16384 {
			t.Errorf("a pool connection's cache_size is %d after the keeper, want -16384", n)
		}
	}
	if got := s.LoadGraphCache(s.CacheKey(ctx)); !bytes.Equal(got, graph) {
		t.Errorf("graph cache = %q, want %q", got, graph)
	}
	if key, err := s.KeepCache(ctx, keptLinks(snap)); key != "" || err != nil {
		t.Errorf("KeepCache after the batch kept the caches = %q, %v; want nothing to do", key, err)
	}

	stale(s, "c.png")
	touched, note := *snap.Notes[0], *snap.Notes[0].Note
	note.Size++
	touched.Note = &note
	apply(s, &store.Batch{Touches: []*store.Record{&touched}, Keep: keep(keptLinks(snap))})
	notKept("a batch that writes a notes row", s)

	stale(s, "d.png")
	// The other store resolves a note's links elsewhere: the links s
	// holds are no longer those of the index.
	i := slices.IndexFunc(snap.Notes, func(r *store.Record) bool {
		return slices.ContainsFunc(r.Resolved, func(id string) bool { return id != "" })
	})
	relinked := *snap.Notes[i]
	relinked.Resolved = make([]string, len(relinked.Resolved))
	apply(open(), &store.Batch{Relinks: []*store.Record{&relinked}, DeferAnchors: true})
	apply(s, &store.Batch{AddFiles: []string{"f.png"}, Keep: keep(keptLinks(snap))})
	notKept("another store wrote after", s)

	s = open()
	stale(s, "g.png")
	apply(s, &store.Batch{AddFiles: []string{"h.png"}, Keep: keep(func(string) (store.NoteLinks, bool) { return store.NoteLinks{}, false })})
	notKept("links that spoil the cache", s)

	apply(s, &store.Batch{AddFiles: []string{"i.png"}, Keep: keep(keptLinks(snap))})
	notKept("a batch that ends no bulk pass", s)
}
