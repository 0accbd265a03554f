package store

import (
	"context"
	"slices"
	"testing"
)

// TestKeptReadsAfterResetElsewhere: another process empties the index
// ('delete-all' starts FTS5's segment names and origins over) and writes
// the same notes again, under new docs. A store that kept reads of the
// old segments must not replay them for the new ones, which have the
// same names, pages and origins.
func TestKeptReadsAfterResetElsewhere(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	notes := benchNotes(200)
	if err := s.Apply(ctx, &Batch{Upserts: notes}); err != nil {
		t.Fatal(err)
	}
	q := KeywordQuery{Text: "project meeting", Limit: 20, NoSnippets: true}
	before := rankedInGo(t, s, "first", q)
	rankedInGo(t, s, "again", q)
	rankedInGo(t, s, "third", q)
	if len(before) == 0 {
		t.Fatal("no hits for the query: the test cannot tell")
	}
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	// Half the notes, in the other order: each under another doc.
	var again []*Record
	for i := len(notes) - 1; i >= len(notes)/2; i-- {
		again = append(again, notes[i])
	}
	if err := other.Apply(ctx, &Batch{Upserts: again}); err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	after := rankedInGo(t, s, "after the other store's reset", q)
	for _, h := range after {
		if r := slices.IndexFunc(notes, func(r *Record) bool { return r.Note.ID == h.ID }); r < len(notes)/2 {
			t.Errorf("hit %s (note %d): not in the index since the reset elsewhere", h.ID, r)
		}
	}
}
