package store

import (
	"context"
	"maps"
	"slices"
	"testing"
)

// TestStmtCache checks that write transactions share their statements:
// a second batch of the same kind prepares none, and what both wrote is
// in the index.
func TestStmtCache(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("A.md")}}); err != nil {
		t.Fatal(err)
	}
	first := maps.Clone(s.stmts.stmts)
	if len(first) == 0 {
		t.Fatal("the first write kept no statement")
	}
	b := sampleRecord("A.md")
	b.Note.Hash = "changed"
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{b, sampleRecord("B.md")}}); err != nil {
		t.Fatal(err)
	}
	for q, st := range first {
		if s.stmts.stmts[q] != st {
			t.Errorf("statement %.60q prepared again", q)
		}
	}
	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range snap.Notes {
		got = append(got, r.Note.ID+" "+r.Note.Hash)
	}
	slices.Sort(got)
	if want := []string{"A.md changed", "B.md " + sampleRecord("B.md").Note.Hash}; !slices.Equal(got, want) {
		t.Errorf("notes = %q, want %q", got, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.stmts.stmts != nil {
		t.Errorf("Close left %d statements", len(s.stmts.stmts))
	}
}
