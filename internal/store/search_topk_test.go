package store_test

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// TestRankTopKSameAsSQL checks that Keyword ranked in Go finds the same
// hits as ranked by SQL, in the same order, with the same scores to the
// bit: on a generated vault after edits and deletions (so that the
// full-text tables hold deleted rows), for queries of every kind the
// bench asks (title words, questions with common words, body words, runs
// of words, short prefixes), with all terms and any term, and with
// filters.
func TestRankTopKSameAsSQL(t *testing.T) {
	ctx := context.Background()
	s, queries := rankCases(t)
	compared := 0
	for _, q := range queries {
		if len(sameAsSQL(ctx, t, s, q)) > 0 {
			compared++
		}
	}
	if n := store.GoRanked(s); n < int64(len(queries))*3/4 {
		t.Errorf("only %d of %d searches were ranked in Go", n, len(queries))
	}
	if compared < len(queries)*3/4 {
		t.Errorf("only %d of %d queries found notes", compared, len(queries))
	}
}

// TestNarrowedReadsSameAsSQL checks, against SQL's, the rankings in Go
// whose reads leave out the rows that cannot be hits: an all-term
// search's once one term's rows are read, the any-term fallback's once
// the terms left cannot score as well as the best rows read. Small
// limits make the second happen on a small vault.
func TestNarrowedReadsSameAsSQL(t *testing.T) {
	ctx := context.Background()
	s, queries := rankCases(t)
	for _, q := range queries {
		for _, limit := range []int{1, 10} {
			q.Limit = limit
			sameAsSQL(ctx, t, s, q)
		}
	}
	and, or := store.Narrowed(s)
	t.Logf("%d queries at two limits: narrowed reads in %d all-term and %d any-term searches", len(queries), and, or)
	if and == 0 || or == 0 {
		t.Errorf("narrowed reads: %d all-term and %d any-term searches; the test needs both", and, or)
	}
}

// sameAsSQL checks that Keyword ranks q in Go as SQL does, and returns
// SQL's hits.
func sameAsSQL(ctx context.Context, t *testing.T, s *store.Store, q store.KeywordQuery) []store.KeywordHit {
	t.Helper()
	store.SetSQLRank(s, false)
	got, err := s.Keyword(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	store.SetSQLRank(s, true)
	want, err := s.Keyword(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Keyword(%+v) in Go differs from SQL:\n got %s\nwant %s", q, hitsText(got), hitsText(want))
	}
	return want
}

// TestCommonCountsSameAsSQL checks that the common-word counts made in
// Go from the index's pages are SQL's, on a vault after edits and
// deletions, for words of every frequency.
func TestCommonCountsSameAsSQL(t *testing.T) {
	s, _, _ := editedIndex(t)
	words := []string{"the", "of", "and", "meeting", "garden", "outline", "rewritten", "home", "zzzz", "a", "project", "notes"}
	got, half, err := store.CommonCounts(s, words, false)
	if err != nil {
		t.Fatal(err)
	}
	want, wantHalf, err := store.CommonCounts(s, words, true)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || half != wantHalf {
		t.Errorf("common counts in Go = %v (half %d), by SQL %v (half %d)", got, half, want, wantHalf)
	}
	if slices.Max(want) < half {
		t.Errorf("no word of %v is common (counts %v, half %d): the test needs one", words, want, half)
	}
}
