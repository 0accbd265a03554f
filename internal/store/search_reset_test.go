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
	resetElsewhere(t, path, notes)
	after := rankedInGo(t, s, "after the other store's reset", q)
	for _, h := range after {
		if r := slices.IndexFunc(notes, func(r *Record) bool { return r.Note.ID == h.ID }); r < len(notes)/2 {
			t.Errorf("hit %s (note %d): not in the index since the reset elsewhere", h.ID, r)
		}
	}
}

// TestKeptReadsOfTwoGenerations: a search whose read transaction began
// before another process's Reset, running while searches that began
// after it do, must not put its reads of the old segments where the new
// searches take them (segments of the same names), nor take theirs.
func TestKeptReadsOfTwoGenerations(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	notes := benchNotes(200)
	if err := s.Apply(ctx, &Batch{Upserts: notes}); err != nil {
		t.Fatal(err)
	}
	q := KeywordQuery{Text: "project meeting", Limit: 20, NoSnippets: true, Weights: &DefaultFieldWeights}
	terms := KeywordTerms(q.Text)
	old, done, err := s.readConn(ctx) // the search that began before the reset
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	resetElsewhere(t, path, notes)
	// A search of the new generation begins (and forgets what was kept);
	// the old search then reads and keeps its reads, which the new
	// generation's searches must not take.
	_, doneNew, err := s.readConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	doneNew()
	oldSearch := func(what string) {
		for i := range 3 { // asked often enough to be kept
			if _, ok, err := s.rankTopK(ctx, old, terms, false, q, nil); err != nil || !ok {
				t.Errorf("%s: old search %d: ok %v, %v", what, i, ok, err)
			}
		}
	}
	newSearch := func(what string) {
		for _, h := range rankedInGo(t, s, what, q) {
			if r := slices.IndexFunc(notes, func(r *Record) bool { return r.Note.ID == h.ID }); r < len(notes)/2 {
				t.Errorf("%s: hit %s (note %d): not in the index since the reset", what, h.ID, r)
			}
		}
	}
	oldSearch("before the new searches")
	newSearch("new search after the old one")
	// And the other way: the old search must not take the new reads.
	newSearch("new search again")
	oldSearch("after the new searches")
}

// resetElsewhere resets the index at path from another store, as another
// process would, and writes the second half of notes again, in the other
// order: each under another doc.
func resetElsewhere(t *testing.T, path string, notes []*Record) {
	t.Helper()
	ctx := context.Background()
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Reset(ctx); err != nil {
		t.Fatal(err)
	}
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
}
