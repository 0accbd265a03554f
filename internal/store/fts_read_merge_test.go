package store

import (
	"context"
	"fmt"
	"testing"
)

// TestRankWhileMerging: while FTS5 merges segments a few pages at a time
// (the inputs trimmed to the tokens not yet merged, some emptied),
// Keyword ranks in Go, reading the segments as they stand, and finds what
// SQL finds, in the same order, with the same scores, at every step of
// the merge (rankedInGo).
func TestRankWhileMerging(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(300)
	// Ten transactions make segments to merge (see
	// TestLiveWriteFinishesMerges).
	for i := 0; i < 300; i += 30 {
		if err := s.Apply(ctx, &Batch{Upserts: notes[i : i+30], DeferAnchors: true}); err != nil {
			t.Fatal(err)
		}
	}
	queries := []string{"invoice", "invoice customer", "in", "project meeting", "the review", "zebra", "garden plan budget", "me"}
	steps, trimmed := 0, 0
	for ; steps < 200; steps++ {
		if _, err := s.db.ExecContext(ctx, "INSERT INTO fts(fts, rank) VALUES('merge', 1)"); err != nil {
			t.Fatal(err)
		}
		var b []byte
		if err := s.db.QueryRow("SELECT block FROM fts_data WHERE id = 10").Scan(&b); err != nil {
			t.Fatal(err)
		}
		segs, merging, ok := parseStructureMerging(b)
		if !ok {
			t.Fatalf("step %d: the structure record cannot be read", steps)
		}
		if !merging {
			break
		}
		for _, sg := range segs {
			if sg.first > 1 {
				trimmed++
			}
		}
		for _, text := range queries {
			for _, anyTerm := range []bool{false, true} {
				rankedInGo(t, s, fmt.Sprintf("merge step %d", steps), KeywordQuery{Text: text, Limit: 20, NoSnippets: true, Any: anyTerm})
			}
		}
	}
	s.ranks.segs.mu.Lock()
	kept, hits := len(s.ranks.segs.reads), s.ranks.segs.hits
	passed := 0
	for k := range s.ranks.segs.reads {
		if k.seg.last < 0 {
			passed++
		}
	}
	s.ranks.segs.mu.Unlock()
	t.Logf("%d merge steps, %d trimmed segments read; %d segment reads kept (%d of a growing output's), %d replayed", steps, trimmed, kept, passed, hits)
	if hits == 0 || passed == 0 {
		t.Errorf("%d segment reads replayed, %d kept without their last page: want reads of the merge's output kept as it grows", hits, passed)
	}
	if steps < 2 || trimmed == 0 {
		t.Errorf("%d merge steps, %d trimmed segments read: the test needs several steps and trimmed segments", steps, trimmed)
	}
}
