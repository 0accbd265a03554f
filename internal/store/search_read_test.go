package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadStmtsKept: a search's reads run on statements kept prepared
// (readStmts), a few dozen texts with writes in between, none of them a
// full-text match; the hits are those of the same searches run
// unprepared.
func TestReadStmtsKept(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	apply := applyTo(t, s)
	b := &Batch{}
	for i := range 40 {
		b.Upserts = append(b.Upserts, bodyNote(i, fmt.Sprintf("plan garden %d budget review", i%7)))
	}
	apply(b)
	queries := []string{"plan", "garden budget", "review plan nothing", "gard"}
	search := func() []string {
		t.Helper()
		var out []string
		for _, q := range queries {
			hits, err := s.Keyword(ctx, KeywordQuery{Text: q, Limit: 20})
			if err != nil {
				t.Fatalf("Keyword(%q) = %v", q, err)
			}
			for _, h := range hits {
				out = append(out, fmt.Sprintf("%s %s %v %q", q, h.ID, h.BM25, h.Snippet))
			}
		}
		return out
	}
	texts := func() []string {
		s.reads.mu.Lock()
		defer s.reads.mu.Unlock()
		var out []string
		for q := range s.reads.kept.stmts {
			out = append(out, q)
		}
		slices.Sort(out)
		return out
	}
	first := search()
	kept := texts()
	if !slices.Contains(kept, "SELECT coalesce(min(id), 0) FROM fts_docsize") {
		t.Fatalf("kept statements after a search: %q; want the read transaction's first read among them", kept)
	}
	for i := 40; i < 60; i++ {
		apply(&Batch{Upserts: []*Record{bodyNote(i, "plan garden written later")}})
		search()
	}
	kept = texts()
	for _, q := range kept {
		if strings.Contains(q, "MATCH") {
			t.Errorf("kept statement %q: a full-text match, want only reads of records and rows", q)
		}
	}
	if len(kept) > 32 {
		t.Errorf("%d statements kept after 20 writes and searches, want a few dozen at most: %q", len(kept), kept)
	}
	prepared := search()
	s.reads.close() // later reads run unprepared
	if got := search(); !slices.Equal(got, prepared) {
		t.Errorf("hits unprepared = %q, want those of the kept statements %q", got, prepared)
	}
	if len(first) == 0 || len(texts()) != 0 {
		t.Errorf("%d hits, %d statements kept after close; want hits and none", len(first), len(texts()))
	}
}
