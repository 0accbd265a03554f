package store_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// checkKeptCache checks that the cache next to index is current (Load
// takes it) and gives what the tables give.
func checkKeptCache(t *testing.T, what, index string) {
	t.Helper()
	kept, cached := load(t, index)
	if !cached {
		t.Fatalf("%s: Load read the tables: the cache was not kept", what)
	}
	if err := os.Remove(index + ".snap"); err != nil {
		t.Fatal(err)
	}
	fromTables, cached := load(t, index)
	if cached || len(fromTables.Notes) == 0 {
		t.Fatalf("%s: the tables gave %d notes (from a cache: %v)", what, len(fromTables.Notes), cached)
	}
	if !reflect.DeepEqual(kept, fromTables) {
		a, _ := json.Marshal(kept)
		b, _ := json.Marshal(fromTables)
		t.Errorf("%s: the kept cache differs from the tables:\n%s\nwant\n%s", what, testutil.Clip(string(a)), testutil.Clip(string(b)))
	}
}

// TestKeepCacheAfterIndex: an index pass leaves the cache current, and
// it gives exactly what the tables give.
func TestKeepCacheAfterIndex(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if _, err := vaultgen.Generate(gen, vaultgen.Config{Notes: 400, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{testutil.CopyTestVault(t), gen} {
		checkKeptCache(t, dir, indexVault(t, dir))
	}
}

// keptLinks answers KeepCache from snap's notes.
func keptLinks(snap *store.Snapshot) func(string) (store.NoteLinks, bool) {
	return func(id string) (store.NoteLinks, bool) {
		i := slices.IndexFunc(snap.Notes, func(r *store.Record) bool { return r.Note.ID == id })
		if i < 0 {
			return store.NoteLinks{}, false
		}
		r := snap.Notes[i]
		return store.NoteLinks{Links: slices.All(r.Note.Links), Resolved: r.Resolved, Status: r.Status}, true
	}
}

// TestKeepCacheOnlyWhenExact: KeepCache writes nothing when the store
// wrote nothing, when another store wrote the index after it, or after
// one of its writes failed; otherwise the cache it writes is current.
func TestKeepCacheOnlyWhenExact(t *testing.T) {
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
	keep := func(what string, s *store.Store, want bool) {
		t.Helper()
		key, err := s.KeepCache(ctx, keptLinks(snap))
		if err != nil || (key != "") != want {
			t.Errorf("%s: KeepCache = %q, %v; want a key: %v", what, key, err, want)
		}
	}
	apply := func(s *store.Store, path string) {
		t.Helper()
		if err := s.Apply(ctx, &store.Batch{AddFiles: []string{path}}); err != nil {
			t.Fatal(err)
		}
	}

	s := open()
	keep("no write", s, false)
	apply(s, "a.png")
	other := open()
	apply(other, "b.png")
	keep("another store wrote after", s, false)
	if _, cached := load(t, index); cached {
		t.Error("the cache made before the other store's write was used")
	}

	apply(s, "c.png")
	keep("its own write last", s, true)
	keep("the cache it kept is current", s, false)
	checkKeptCache(t, "its own write last", index)

	// A write that changes nothing leaves the cache it loaded current.
	s3 := open()
	if _, err := s3.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s3.Apply(ctx, &store.Batch{Meta: map[string]string{"consistent": "1"}}); err != nil {
		t.Fatal(err)
	}
	keep("a write that changed nothing", s3, false)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Apply(cancelled, &store.Batch{AddFiles: []string{"d.png"}}); err == nil {
		t.Fatal("a write with a cancelled context succeeded")
	}
	apply(s, "e.png")
	keep("after a failed write", s, false)

	// A note the caller does not know spoils the cache.
	s2 := open()
	apply(s2, "f.png")
	if key, err := s2.KeepCache(ctx, func(string) (store.NoteLinks, bool) { return store.NoteLinks{}, false }); key != "" || err != nil {
		t.Errorf("KeepCache without the notes' links = %q, %v; want none", key, err)
	}
}

// TestKeepCachePackedLinks: links given packed (LinkPacker, or as a load
// from the cache left them: Record.LazyLinks) are kept as they are, and
// the cache gives exactly what the tables give.
func TestKeepCachePackedLinks(t *testing.T) {
	ctx := context.Background()
	gen := filepath.Join(t.TempDir(), "gen")
	if _, err := vaultgen.Generate(gen, vaultgen.Config{Notes: 300, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	index := indexVault(t, gen)
	os.Remove(index + ".snap")
	fromTables, _ := load(t, index)
	packed := func(snap *store.Snapshot, pack bool) func(string) (store.NoteLinks, bool) {
		return func(id string) (store.NoteLinks, bool) {
			i := slices.IndexFunc(snap.Notes, func(r *store.Record) bool { return r.Note.ID == id })
			if i < 0 {
				return store.NoteLinks{}, false
			}
			r := snap.Notes[i]
			text := r.LazyLinks
			if pack {
				text = new(store.LinkPacker).Pack(r.Note.Links)
			}
			if text == nil { // a note without links: as the engine gives it
				return store.NoteLinks{Links: slices.All(r.Note.Links), Resolved: r.Resolved, Status: r.Status}, true
			}
			return store.NoteLinks{Packed: text, Resolved: r.Resolved, Status: r.Status}, true
		}
	}
	s, err := store.Open(ctx, index)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	keep := func(what string, links func(string) (store.NoteLinks, bool)) {
		t.Helper()
		if err := s.Apply(ctx, &store.Batch{AddFiles: []string{what + ".png"}}); err != nil {
			t.Fatal(err)
		}
		if key, err := s.KeepCache(ctx, links); key == "" || err != nil {
			t.Fatalf("%s: KeepCache = %q, %v; want a key", what, key, err)
		}
		checkKeptCache(t, what, index)
	}
	keep("LinkPacker", packed(fromTables, true))
	fromCache, cached := load(t, index)
	if !cached {
		t.Fatal("the cache was not loaded")
	}
	keep("links loaded from the cache", packed(fromCache, false))
}
