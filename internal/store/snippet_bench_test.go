package store

import (
	"context"
	"testing"
)

// BenchmarkKeywordSnippets times the snippets of a page of ten hits on
// 10,000 generated notes, for two-word queries as the load test sends
// them (the hits' full-text rows are already in temp.snip after the first
// round, as for repeated searches under load).
func BenchmarkKeywordSnippets(b *testing.B) {
	s, ctx := generatedStore(b, 10000)
	var pages [][]KeywordHit
	for _, q := range []string{"project meeting", "plan garden", "music travel", "budget review", "invo customer"} {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: q, Limit: 10})
		if err != nil || len(hits) == 0 {
			b.Fatalf("Keyword(%q) = %d hits, %v", q, len(hits), err)
		}
		pages = append(pages, hits)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := s.KeywordSnippets(ctx, pages[i%len(pages)]); err != nil {
			b.Fatal(err)
		}
	}
}

// generatedStore is a new index of n generated notes (benchNotes).
func generatedStore(t testing.TB, n int) (*Store, context.Context) {
	t.Helper()
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: benchNotes(n)}); err != nil {
		t.Fatal(err)
	}
	return s, ctx
}
