package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestAnchorsRoundTrip: a note's headings and block ids come back from
// the index as they went in, including text that needs escaping.
func TestAnchorsRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	r := sampleRecord("A.md")
	r.Note.Headings = []vault.Heading{
		{Level: 1, Text: "Intro", Line: 4, Start: 40, End: 45},
		{Level: 3, Text: `Goals: Q1 \n back\slash`, Line: 9, Start: 80, End: 102},
		{Level: 2, Text: "Set\next", Line: 12, Start: 120, End: 131},
	}
	r.Note.BlockIDs = []string{"para-1", "LI"}
	empty := sampleRecord("B.md")
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{r, empty}}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range snap.Notes {
		want := r.Note
		if got.Note.ID == "B.md" {
			want = empty.Note
		}
		if !reflect.DeepEqual(got.Note.Headings, want.Headings) || !reflect.DeepEqual(got.Note.BlockIDs, want.BlockIDs) {
			t.Errorf("Load() %s anchors = %+v %q, want %+v %q", got.Note.ID, got.Note.Headings, got.Note.BlockIDs, want.Headings, want.BlockIDs)
		}
		if got.Note.Size != want.Size || got.Note.Hash != want.Hash {
			t.Errorf("Load() %s size, hash = %d %q, want %d %q", got.Note.ID, got.Note.Size, got.Note.Hash, want.Size, want.Hash)
		}
	}
}

// TestOpenSchema3: an index of schema 3 (no anchors column) is brought up
// to date in place: its notes stay, and each comes back with Size -1 and
// no Hash, so that the engine parses it again to learn its anchors, and
// the index is no longer marked consistent.
func TestOpenSchema3(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("A.md")}, Meta: map[string]string{"consistent": "1"}}); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"ALTER TABLE notes DROP COLUMN anchors", "PRAGMA user_version = 3"} {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	s.Close()

	s, reason, err := OpenOrRebuild(ctx, path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 3) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	snap, err := s.Load(ctx)
	if err != nil || len(snap.Notes) != 1 {
		t.Fatalf("Load() = %d notes, %v; want 1", len(snap.Notes), err)
	}
	if n := snap.Notes[0].Note; n.Size != -1 || n.Hash != "" || n.Title != "Alpha" || len(n.Links) != 2 {
		t.Errorf("Load() after the migration = size %d hash %q title %q %d links; want size -1, no hash, the rest kept", n.Size, n.Hash, n.Title, len(n.Links))
	}
	if snap.Meta["consistent"] == "1" {
		t.Errorf("meta consistent = %q after the migration, want it cleared", snap.Meta["consistent"])
	}
	// Written again, the note is whole.
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("A.md")}}); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Load(ctx); err != nil || snap.Notes[0].Note.Size != 120 {
		t.Errorf("Load() after a rewrite = %+v, %v; want size 120", snap.Notes[0].Note, err)
	}
}
