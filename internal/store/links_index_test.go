package store

import (
	"context"
	"reflect"
	"testing"
)

// linksToExists reports whether s's index has links_to.
func linksToExists(t *testing.T, s *Store) bool {
	t.Helper()
	var has bool
	if err := s.db.QueryRowContext(context.Background(), hasLinksTo).Scan(&has); err != nil {
		t.Fatal(err)
	}
	return has
}

// linkRowsOf returns the link rows of s as text, in order.
func linkRowsOf(t *testing.T, s *Store) [][]string {
	t.Helper()
	var out [][]string
	if err := queryStrings(context.Background(), s.db, `SELECT source, seq, kind, target, coalesce(resolved, ''), coalesce(status, ''), context
		FROM link_rows ORDER BY source, seq`, func(v ...string) { out = append(out, append([]string(nil), v...)) }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLinksToDeferred: a pass that defers the anchor text over an empty
// index writes its links without links_to, and its last batch makes it;
// the rows are those of the same notes written in one batch.
func TestLinksToDeferred(t *testing.T) {
	ctx := context.Background()
	recs := linkNotes(300, 8)
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Note.ID
	}
	s, _ := openTemp(t)
	apply := func(b *Batch) {
		t.Helper()
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	apply(&Batch{Reserve: ids, DeferAnchors: true, Meta: map[string]string{"consistent": "0"}})
	if linksToExists(t, s) {
		t.Errorf("links_to after the first batch of a cold pass, want none")
	}
	apply(&Batch{Upserts: recs[:100], DeferAnchors: true})
	apply(&Batch{Upserts: recs[100:200], DeferAnchors: true})
	if linksToExists(t, s) {
		t.Errorf("links_to while the pass writes, want none")
	}
	apply(&Batch{Upserts: recs[200:], Meta: map[string]string{"consistent": "1"}})
	if !linksToExists(t, s) {
		t.Fatalf("no links_to after the pass")
	}
	// A pass over an index that has links keeps links_to.
	apply(&Batch{Upserts: recs[:10], DeferAnchors: true})
	if !linksToExists(t, s) {
		t.Errorf("a deferring batch over links dropped links_to")
	}
	apply(&Batch{Upserts: recs[10:20]})
	one, _ := openTemp(t)
	if err := one.Apply(ctx, &Batch{Upserts: recs}); err != nil {
		t.Fatal(err)
	}
	if got, want := linkRowsOf(t, s), linkRowsOf(t, one); !reflect.DeepEqual(got, want) {
		t.Errorf("link rows of the pass differ from those written in one batch")
	}
}

// TestLinksToPending: a batch written without links_to makes it before
// it rewrites the links to a note that was pending, and they resolve to
// the note.
func TestLinksToPending(t *testing.T) {
	ctx := context.Background()
	recs := linkNotes(50, 4)
	ids := make([]string, 25)
	for i := range ids {
		ids[i] = recs[i].Note.ID
	}
	s, _ := openTemp(t)
	// The notes of the second batch are not reserved: the links to them
	// are written to pending names, which that batch claims.
	for _, b := range []*Batch{{Reserve: ids, DeferAnchors: true}, {Upserts: recs[:25], DeferAnchors: true}} {
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if linksToExists(t, s) {
		t.Fatalf("links_to before pending notes were claimed, want none")
	}
	if err := s.Apply(ctx, &Batch{Upserts: recs[25:], DeferAnchors: true}); err != nil {
		t.Fatal(err)
	}
	if !linksToExists(t, s) {
		t.Errorf("no links_to after a batch that claimed pending notes")
	}
	one, _ := openTemp(t)
	if err := one.Apply(ctx, &Batch{Upserts: recs}); err != nil {
		t.Fatal(err)
	}
	if got, want := linkRowsOf(t, s), linkRowsOf(t, one); !reflect.DeepEqual(got, want) {
		t.Errorf("link rows after claiming pending notes differ from those written in one batch")
	}
}

// TestLinksToRepair: an index left without links_to (a pass interrupted)
// gets it back when opened.
func TestLinksToRepair(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	recs := linkNotes(20, 2)
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Note.ID
	}
	for _, b := range []*Batch{{Reserve: ids, DeferAnchors: true}, {Upserts: recs, DeferAnchors: true}} {
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if linksToExists(t, s) {
		t.Fatalf("links_to after a deferring batch over an empty index, want none")
	}
	s.Close()
	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if !linksToExists(t, s2) {
		t.Errorf("no links_to after Open")
	}
}

// TestBoundedSort: the statement boundedSort runs (makeLinksTo's CREATE
// INDEX) sorts with the temporary storage in files and a small page
// cache, so that SQLite sorts in bounded runs; the connection has Open's
// settings before and after. A probe statement records the settings in
// effect when it runs.
func TestBoundedSort(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	c, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	settings := func(from string) (tempStore, cache int64) {
		t.Helper()
		if err := c.QueryRowContext(ctx, "SELECT * FROM "+from).Scan(&tempStore, &cache); err != nil {
			t.Fatal(err)
		}
		return tempStore, cache
	}
	const pragmas = "pragma_temp_store, pragma_cache_size"
	open := func() (int64, int64) { return settings(pragmas) }
	wantStore, wantCache := open()
	if err := boundedSort(ctx, c, "CREATE TABLE probe AS SELECT * FROM "+pragmas); err != nil {
		t.Fatal(err)
	}
	if ts, cache := settings("probe"); ts != 1 || cache != -2048 {
		t.Errorf("boundedSort ran its statement with temp_store %d and cache_size %d, want 1 (FILE) and -2048", ts, cache)
	}
	if ts, cache := open(); ts != wantStore || cache != wantCache {
		t.Errorf("after boundedSort temp_store = %d, cache_size = %d, want %d, %d as Open set them", ts, cache, wantStore, wantCache)
	}
}
