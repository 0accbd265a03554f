package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestCommonCountsFollowWrites: a word's common-word count made before
// writes answers after them while they cannot have moved it across half
// the notes, and is made again when they can: "the" turns common as
// notes with it are added one write at a time, and the search drops it
// exactly when a count made from scratch would.
func TestCommonCountsFollowWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	note := bodyNote
	// 120 notes: 50 with "the", 10 of them with "needle".
	b := &Batch{}
	for i := range 120 {
		body := "plain text"
		if i < 50 {
			body = "the plain text"
		}
		if i%5 == 0 && i < 50 {
			body += " needle"
		}
		b.Upserts = append(b.Upserts, note(i, body))
	}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	terms := func() int {
		t.Helper()
		hits, err := s.Keyword(ctx, KeywordQuery{Text: "the needle", Limit: 50, NoSnippets: true})
		if err != nil || len(hits) == 0 {
			t.Fatalf("Keyword(the needle) = %v, %v", hits, err)
		}
		return hits[0].Terms
	}
	if got := terms(); got != 2 {
		t.Fatalf("Keyword(the needle) with 50 of 120 notes having the: %d terms, want 2", got)
	}
	puts := s.common.puts
	for i := 120; i < 150; i++ {
		// One more note with "the" each time: the word is common once
		// it is in half the notes (at 75 of 150 at the latest).
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{note(i, "the other text")}}); err != nil {
			t.Fatal(err)
		}
		want, notes, the := 2, i+1, 50+i-119
		if the >= (notes+1)/2 {
			want = 1
		}
		if got := terms(); got != want {
			t.Fatalf("with the in %d of %d notes: Keyword(the needle) has %d terms, want %d", the, notes, got, want)
		}
	}
	if terms() != 1 {
		t.Error("the is in 80 of 150 notes and still not common")
	}
	// "needle" (10 notes) is far from half: counted once, never again;
	// "the" is counted again only near half.
	if made := s.common.puts - puts; made == 0 || made >= 30 {
		t.Errorf("%d counts made again over 30 writes; want some for the, none for needle", made)
	}
	var needle []commonCount
	for _, c := range s.common.counts {
		if c.n == 10 {
			needle = append(needle, c)
		}
	}
	if len(needle) != 1 || needle[0].at.gen < 0 || needle[0].at.half != 60 {
		t.Errorf("%d counts of 10 (needle's) kept, want one made before the writes (half 60)", len(needle))
	}
}

// TestCommonHalfFollowsNotes: the common-word test counts the notes by
// fts's averages record (commonCounts); after writes of every kind
// (new notes, changed ones, deletions, a reset) its half is the half of
// the notes table's rows, as count(*) gave it.
func TestCommonHalfFollowsNotes(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	note := bodyNote
	check := func(what string) {
		t.Helper()
		var notes int64
		if err := s.db.QueryRow("SELECT count(*) FROM notes").Scan(&notes); err != nil {
			t.Fatal(err)
		}
		s.common = countCache{}
		_, half, err := s.commonCounts(ctx, nil, []string{Term{Text: "plain", exact: true}.expr()})
		want := (notes + 1) / 2
		if notes < CommonWordMinNotes {
			want = -1
		}
		if err != nil || half != want {
			t.Errorf("%s: %d notes: commonCounts' half = %d, %v; want %d", what, notes, half, err, want)
		}
	}
	b := &Batch{}
	for i := range 130 {
		b.Upserts = append(b.Upserts, note(i, "plain text"))
	}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	check("130 new notes")
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{note(3, "other text"), note(130, "new text")}}); err != nil {
		t.Fatal(err)
	}
	check("a note changed, one added")
	for i := range 40 {
		if err := s.Apply(ctx, &Batch{Deletes: []string{fmt.Sprintf("N%03d.md", 2*i)}}); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			check(fmt.Sprintf("%d notes deleted", i+1))
		}
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	check("after a reset")
}

// bodyNote is note i of the common-word tests, with body body.
func bodyNote(i int, body string) *Record {
	id := fmt.Sprintf("N%03d.md", i)
	return &Record{Note: &vault.Note{ID: id, Title: id}, Path: id, Body: body}
}
