package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
	"github.com/vaultgraph/vaultgraph/vault"
)

// indexVault indexes the vault into a new index file and returns its path.
func indexVault(t *testing.T, dir string) string {
	t.Helper()
	index := filepath.Join(t.TempDir(), "index.db")
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return index
}

// load opens the index and loads it, saying whether the cache answered.
func load(t *testing.T, index string) (*store.Snapshot, bool) {
	t.Helper()
	before, _ := os.Stat(index + ".snap")
	s, err := store.Open(context.Background(), index)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snap, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(index + ".snap")
	if err != nil {
		t.Fatalf("no snapshot cache after Load: %v", err)
	}
	cached := before != nil && os.SameFile(before, after)
	if lazy := decodeLazyLinks(t, snap); cached != (lazy > 0) && hasLinks(snap) {
		t.Errorf("Load left %d notes' links undecoded; from the cache: %v", lazy, cached)
	}
	return snap, cached
}

// decodeLazyLinks decodes the links a load from the cache left in its
// bytes (Record.LazyLinks) into the notes, as the tables give them, and
// returns how many notes had them. Links and All must agree.
func decodeLazyLinks(t *testing.T, snap *store.Snapshot) int {
	t.Helper()
	n := 0
	for _, r := range snap.Notes {
		if r.LazyLinks == nil {
			continue
		}
		n++
		if r.Note.Links != nil {
			t.Errorf("%s: links both decoded and not", r.Note.ID)
		}
		links, err := r.LazyLinks.Links()
		if err != nil {
			t.Fatalf("%s: %v", r.Note.ID, err)
		}
		var each []vault.Link
		for _, l := range r.LazyLinks.All() {
			each = append(each, l)
		}
		if len(links) != r.LazyLinks.Len() || len(links) != len(r.Resolved) || !reflect.DeepEqual(each, links) {
			t.Errorf("%s: Links gives %d, All %d, Len %d, resolutions %d", r.Note.ID, len(links), len(each), r.LazyLinks.Len(), len(r.Resolved))
		}
		anchored := 0
		for _, l := range links {
			if l.Fragment != "" {
				anchored++
			}
		}
		if got := r.LazyLinks.Anchored(); got != anchored {
			t.Errorf("%s: Anchored() = %d, want %d", r.Note.ID, got, anchored)
		}
		var anchors []store.LinkAnchor
		for _, a := range r.LazyLinks.Anchors() {
			anchors = append(anchors, a)
		}
		for i, l := range links {
			if want := (store.LinkAnchor{Kind: l.Kind, Fragment: l.Fragment}); i >= len(anchors) || anchors[i] != want {
				t.Errorf("%s: Anchors() gives %d of %d links, link %d differs: want %+v", r.Note.ID, len(anchors), len(links), i, want)
				break
			}
			if got, ok := r.LazyLinks.Link(i); !ok || got != l {
				t.Errorf("%s: Link(%d) = %+v, %v, want %+v", r.Note.ID, i, got, ok, l)
			}
		}
		if _, ok := r.LazyLinks.Link(len(links)); ok {
			t.Errorf("%s: Link(%d) past the end is ok", r.Note.ID, len(links))
		}
		r.Note.Links, r.LazyLinks = links, nil
	}
	return n
}

// hasLinks reports whether a note of snap has a link.
func hasLinks(snap *store.Snapshot) bool {
	for _, r := range snap.Notes {
		if len(r.Resolved) > 0 {
			return true
		}
	}
	return false
}

// checkCacheSame loads index from its tables and then from the cache, and
// compares the two snapshots.
func checkCacheSame(t *testing.T, index string) {
	t.Helper()
	os.Remove(index + ".snap")
	fromTables, cached := load(t, index)
	if cached {
		t.Fatal("the first Load used a cache that was removed")
	}
	fromCache, cached := load(t, index)
	if !cached {
		t.Fatal("the second Load read the tables, not the cache")
	}
	if len(fromTables.Notes) == 0 {
		t.Fatal("no notes loaded")
	}
	if !reflect.DeepEqual(fromCache, fromTables) {
		a, _ := json.Marshal(fromCache)
		b, _ := json.Marshal(fromTables)
		t.Errorf("Load from the cache differs from the tables:\n%s\nwant\n%s", testutil.Clip(string(a)), testutil.Clip(string(b)))
	}
}

func TestSnapshotCacheTestvault(t *testing.T) {
	checkCacheSame(t, indexVault(t, testutil.CopyTestVault(t)))
}

func TestSnapshotCacheGenerated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gen")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 500, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	checkCacheSame(t, indexVault(t, dir))
}

// TestSnapshotCacheStale checks that any change to the index, by this
// process or another, makes the cache stale, and a bad cache file is
// ignored.
func TestSnapshotCacheStale(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	index := indexVault(t, dir)
	checkCacheSame(t, index)
	ctx := context.Background()
	change := func(desc string, b *store.Batch) {
		s, err := store.Open(ctx, index)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
		s.Close()
		snap, cached := load(t, index)
		if cached {
			t.Errorf("%s: Load used the cache made before it", desc)
		}
		checkCacheSame(t, index)
		_ = snap
	}
	change("an attachment", &store.Batch{AddFiles: []string{"new.png"}})
	change("a problem", &store.Batch{Problems: []vault.Problem{{Path: "x.md", Reason: "unreadable"}}})
	change("a meta key", &store.Batch{Meta: map[string]string{"consistent": "0"}})
	change("a deleted note", &store.Batch{Deletes: []string{"Home.md"}})

	// Unchanged values are not a change.
	s, err := store.Open(ctx, index)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, &store.Batch{Meta: map[string]string{"consistent": "0"}, Problems: []vault.Problem{{Path: "x.md", Reason: "unreadable"}}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, cached := load(t, index); !cached {
		t.Error("rewriting the same meta and problems made the cache stale")
	}

	for _, bad := range []string{"", "vaultgraph snapshot 3\n\x00\x00\x00\x00", "not a cache at all, but long enough"} {
		if err := os.WriteFile(index+".snap", []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, cached := load(t, index); cached {
			t.Errorf("Load used the bad cache %q", bad)
		}
	}
	// A cache cut short or with a flipped byte is not used either.
	b, err := os.ReadFile(index + ".snap")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{b[:len(b)/2], append(append([]byte{}, b[:len(b)-10]...), b[len(b)-10]^1)} {
		os.WriteFile(index+".snap", bad, 0o644)
		if _, cached := load(t, index); cached {
			t.Error("Load used a damaged cache")
		}
	}
}

// TestSnapshotCacheUpgrade opens an index written by the release before
// the cache (testdata/schema4.db, schema 4 without the change counter):
// the counter is added in place, the tables load as before and the cache
// gives the same snapshot.
func TestSnapshotCacheUpgrade(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "schema4.db"))
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.db")
	if err := os.WriteFile(index, b, 0o644); err != nil {
		t.Fatal(err)
	}
	checkCacheSame(t, index)
	snap, _ := load(t, index)
	if len(snap.Notes) != 13 || snap.Meta["consistent"] != "1" {
		t.Errorf("upgraded index: %d notes, consistent %q; want 13, 1", len(snap.Notes), snap.Meta["consistent"])
	}
}

// TestSnapshotCacheLostTrigger checks that an index missing one of the
// counter's triggers (a table made again by some migration) is read from
// its tables, and gets the trigger back on the next open.
func TestSnapshotCacheLostTrigger(t *testing.T) {
	index := indexVault(t, testutil.CopyTestVault(t))
	checkCacheSame(t, index)
	db, err := sql.Open("sqlite", index)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DROP TRIGGER snapgen_links_u"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// While the trigger was gone, changes went uncounted: the cache is
	// not used (Open puts the trigger back, which changes the schema
	// version the cache records), then made again.
	if _, cached := load(t, index); cached {
		t.Error("Load used the cache of an index that lost a trigger")
	}
	checkCacheSame(t, index)
}
