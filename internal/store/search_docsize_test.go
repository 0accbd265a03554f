package store

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestDocSizesFollowWrites: after writes that lengthen, add and delete
// notes, Keyword ranked in Go still ranks as SQL does (bm25 takes each
// note's length), and the lengths are brought up to date from the rows
// written since, not read again whole; after Reset they are read whole.
func TestDocSizesFollowWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	note, apply := lengthNote, applyTo(t, s)
	b := &Batch{}
	for i := range 120 {
		b.Upserts = append(b.Upserts, note(i, i%9))
	}
	same := func(what string) {
		t.Helper()
		for _, text := range []string{"plan", "plan words", "other"} {
			if len(rankedInGo(t, s, what, KeywordQuery{Text: text, Limit: 200, NoSnippets: true})) == 0 {
				t.Errorf("%s: Keyword(%s) found nothing", what, text)
			}
		}
	}
	allSizes := func() int {
		s.ranks.mu.Lock()
		defer s.ranks.mu.Unlock()
		return s.ranks.allSizes
	}
	apply(b)
	same("indexed")
	for round := range 5 {
		apply(&Batch{Upserts: []*Record{note(round*7, 40+round), note(200+round, round)}, Deletes: []string{fmt.Sprintf("N%03d.md", round*7+3)}})
		same(fmt.Sprintf("after write %d", round))
	}
	if n := allSizes(); n != 1 { // fts's; no note has anchor text
		t.Errorf("every row's length read %d times, want once", n)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	b = &Batch{}
	for i := range 60 {
		b.Upserts = append(b.Upserts, note(i, 30-i%20))
	}
	apply(b)
	same("after reset")
	if n := allSizes(); n != 2 {
		t.Errorf("after Reset, every row's length read %d times in all, want twice", n)
	}
}

// rankedInGo checks that Keyword ranks q in Go, and as SQL does (the
// same hits, order and scores); it returns SQL's hits. what says when.
func rankedInGo(t *testing.T, s *Store, what string, q KeywordQuery) []KeywordHit {
	t.Helper()
	ctx := context.Background()
	defer func() { s.sqlRank = false }()
	s.sqlRank = false
	before := s.goRanked.Load()
	got, err := s.Keyword(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if s.goRanked.Load() == before {
		t.Fatalf("%s: Keyword(%+v) was not ranked in Go", what, q)
	}
	s.sqlRank = true
	want, err := s.Keyword(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: Keyword(%+v) in Go differs from SQL:\n got %v\nwant %v", what, q, got, want)
	}
	return want
}

// TestNewerLengthsKept: the lengths of the rows written since the kept
// lengths' state, read by rowid for one search (sizesSince), are not
// read again by the next searches while those rows are not written
// again; the ranking stays SQL's.
func TestNewerLengthsKept(t *testing.T) {
	s, _ := openTemp(t)
	note, apply := lengthNote, applyTo(t, s)
	b := &Batch{}
	for i := range 200 {
		b.Upserts = append(b.Upserts, note(i, i%9))
	}
	read := func() int {
		s.ranks.mu.Lock()
		defer s.ranks.mu.Unlock()
		return s.ranks.sinceRows
	}
	q := KeywordQuery{Text: "plan", Limit: 200, NoSnippets: true}
	apply(b)
	rankedInGo(t, s, "indexed", q)
	apply(&Batch{Upserts: []*Record{note(3, 30), note(4, 31)}}) // longer now
	rankedInGo(t, s, "two notes written", q)
	before := read()
	if before != 2 {
		t.Fatalf("after two notes were written: %d lengths read by rowid, want 2: the test cannot tell", before)
	}
	apply(&Batch{Upserts: []*Record{note(3, 2)}}) // shorter again
	rankedInGo(t, s, "one of them written again", q)
	if n := read() - before; n != 1 {
		t.Errorf("after one of the two notes was written again: %d lengths read by rowid, want 1 (the other's kept)", n)
	}
}

// lengthNote is note i of the length tests: "the plan", then "other
// words" words times.
func lengthNote(i, words int) *Record {
	id := fmt.Sprintf("N%03d.md", i)
	body := "the plan " + strings.Repeat("other words ", words)
	return &Record{Note: &vault.Note{ID: id, Title: id}, Path: id, Body: body}
}

// applyTo returns a function that applies a batch to s, failing t on an
// error.
func applyTo(t *testing.T, s *Store) func(*Batch) {
	return func(b *Batch) {
		t.Helper()
		if err := s.Apply(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
}
