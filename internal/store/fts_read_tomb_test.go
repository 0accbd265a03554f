package store

import (
	"context"
	"slices"
	"testing"
)

// TestTombSet checks the set of deleted rowids: bits below maxTombBit, a
// map above, nothing in a nil set.
func TestTombSet(t *testing.T) {
	var nilSet *tombSet
	if nilSet.has(0) || nilSet.has(5) {
		t.Error("a nil set has rowids")
	}
	var s tombSet
	in := []int64{0, 1, 63, 64, 1000, maxTombBit - 1, maxTombBit, 1 << 40, -3}
	for _, r := range in {
		s.add(r)
	}
	for _, r := range []int64{0, 1, 2, 62, 63, 64, 65, 999, 1000, 1001, maxTombBit - 1, maxTombBit, maxTombBit + 1, 1 << 40, -3, -1} {
		if got, want := s.has(r), slices.Contains(in, r); got != want {
			t.Errorf("has(%d) = %v, want %v", r, got, want)
		}
	}
}

// TestTombstonesKept: a segment's tombstones are read once and kept
// while its count of tombstones stays (a later search reads no page of
// them), and read again, with the new rowid, once a delete adds one.
func TestTombstonesKept(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(3000) // a segment too large to merge at once
	if err := s.Apply(ctx, &Batch{Upserts: notes}); err != nil {
		t.Fatal(err)
	}
	docOf := func(id string) int64 {
		t.Helper()
		var doc int64
		if err := s.db.QueryRowContext(ctx, "SELECT rowid FROM notes WHERE id = ?", id).Scan(&doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	first, second := notes[150].Note.ID, notes[2000].Note.ID
	firstDoc, secondDoc := docOf(first), docOf(second)
	// Deleted, each in a write of its own: one tombstone each.
	for _, id := range []string{first, second} {
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{bodyNote(9000+len(id), "other text")}, Deletes: []string{id}}); err != nil {
			t.Fatal(err)
		}
		if id == first {
			// What a search finds with one tombstone, twice.
			for range 2 {
				dead := bigTombstones(t, s)
				if !dead.has(firstDoc) || dead.has(secondDoc) {
					t.Errorf("tombstones have %d: %v, %d: %v; want true, false", firstDoc, dead.has(firstDoc), secondDoc, dead.has(secondDoc))
				}
			}
			if n := s.ranks.segs.tombReads; n != 1 {
				t.Errorf("tombstones read %d times by two searches of one state, want 1", n)
			}
		}
	}
	dead := bigTombstones(t, s)
	if !dead.has(firstDoc) || !dead.has(secondDoc) {
		t.Errorf("after a second delete, tombstones have %d: %v, %d: %v; want both", firstDoc, dead.has(firstDoc), secondDoc, dead.has(secondDoc))
	}
	if n := s.ranks.segs.tombReads; n != 2 {
		t.Errorf("tombstones read %d times after a delete added one, want 2", n)
	}
}

// ftsReaderOf opens a read transaction on s and the reader of its fts
// table, and returns the reader and the function that ends the
// transaction.
func ftsReaderOf(t *testing.T, s *Store) (*ftsReader, func()) {
	t.Helper()
	rt, done, err := s.readConn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f, ok, err := rt.reader(context.Background(), "fts", &s.ranks.segs)
	if err != nil || !ok {
		done()
		t.Fatalf("reader(fts) = %v, %v", ok, err)
	}
	return f, done
}

// bigTombstones returns, in a read transaction of its own, the
// tombstones of fts's largest segment.
func bigTombstones(t *testing.T, s *Store) *tombSet {
	t.Helper()
	ctx := context.Background()
	f, done := ftsReaderOf(t, s)
	defer done()
	big := -1
	for i, sg := range f.segs {
		if big < 0 || sg.last-sg.first > f.segs[big].last-f.segs[big].first {
			big = i
		}
	}
	if big < 0 || f.segs[big].tombPages == 0 {
		t.Fatalf("the largest segment has no tombstones: %+v", f.segs)
	}
	dead, err := f.tombstones(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	return dead
}

// TestPutWholeTooLarge: a segment's tombstones (or rows) that would take
// more than a quarter of the cache are not kept, as a read too large is
// not (segCache.put).
func TestPutWholeTooLarge(t *testing.T) {
	var c segCache
	k := segReadKey{table: "fts", seg: segIdent{id: 1, first: 1, last: 40, origin1: 1, origin2: 2}, tombs: 2}
	big := &tombSet{}
	big.add(maxTombBit - 1) // 2 MB of bits
	c.putWhole(k, &segRead{pages: -1, dead: big})
	if c.get(k) != nil || c.bytes != 0 {
		t.Errorf("tombstones of %d bytes kept (cache holds %d bytes), want them read each time", big.size(), c.bytes)
	}
	small := &tombSet{}
	small.add(100)
	c.putWhole(k, &segRead{pages: -1, dead: small})
	if r := c.get(k); r == nil || !r.dead.has(100) {
		t.Errorf("tombstones of %d bytes not kept", small.size())
	}
}
