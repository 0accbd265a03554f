package store

import (
	"context"
	"testing"
)

// TestLiveReadsTombstonesOnlyWhereFound: ftsReader.live reads a
// segment's tombstones only when the segment has a row of the token, and
// still tells a deleted note's rows from live ones.
func TestLiveReadsTombstonesOnlyWhereFound(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(3000) // a segment too large to merge at once
	notes[0] = bodyNote(900, "gone only")
	if err := s.Apply(ctx, &Batch{Upserts: notes}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{bodyNote(901, "onlyhere common")}, Deletes: []string{"N900.md", notes[150].Note.ID}}); err != nil {
		t.Fatal(err)
	}
	f, done := ftsReaderOf(t, s)
	defer done()
	withTombs := 0
	for _, sg := range f.segs {
		if sg.tombPages > 0 {
			withTombs++
		}
	}
	if withTombs == 0 {
		t.Fatalf("no segment has tombstones: %+v", f.segs)
	}
	read := func() (n int) {
		for _, d := range f.tombs {
			if d != nil {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct {
		token         string
		prefix, found bool
		tombs         int // segments whose tombstones were read, at most
	}{
		{"absent", false, false, 0},
		{"onlyhere", false, true, 1},
		{"gone", false, false, withTombs},
		{"common", false, true, withTombs},
	} {
		found, ok, err := f.live(ctx, tt.token, tt.prefix)
		if err != nil || !ok || found != tt.found {
			t.Errorf("live(%q) = %v, %v, %v; want %v", tt.token, found, ok, err, tt.found)
		}
		if n := read(); n > tt.tombs {
			t.Errorf("after live(%q), tombstones of %d segments read; want at most %d", tt.token, n, tt.tombs)
		}
	}
}
