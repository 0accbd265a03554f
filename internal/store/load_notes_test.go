package store

import (
	"context"
	"fmt"
	"testing"
)

// TestReadNotesBatches: the notes table read in scanned batches (more
// than two) gives every note, in the table's order, and a row that does
// not decode, after some batches, fails the read without hanging.
func TestReadNotesBatches(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const n = 3*noteScanBatch + 17
	var recs []*Record
	for i := range n {
		recs = append(recs, sampleRecord(fmt.Sprintf("N%04d.md", i)))
	}
	if err := s.Apply(ctx, &Batch{Upserts: recs}); err != nil {
		t.Fatal(err)
	}
	read := func() (*Snapshot, error) {
		rd := &rowReader{snap: &Snapshot{Meta: map[string]string{}}, byID: map[string]int{}}
		return rd.snap, rd.readNotes(ctx, s.db)
	}
	snap, err := read()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Notes) != n {
		t.Fatalf("notes read = %d, want %d", len(snap.Notes), n)
	}
	for i, r := range snap.Notes {
		if want := fmt.Sprintf("N%04d.md", i); r.Note.ID != want || r.Note.Title != "Alpha" || len(r.Note.Properties) == 0 {
			t.Fatalf("note %d = %q %q %v, want %q as written", i, r.Note.ID, r.Note.Title, r.Note.Properties, want)
		}
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE notes SET aliases = '[not json' WHERE id = ?", fmt.Sprintf("N%04d.md", 2*noteScanBatch+5)); err != nil {
		t.Fatal(err)
	}
	if _, err := read(); err == nil {
		t.Fatalf("read with a bad row = %v, want an error", err)
	}
}
