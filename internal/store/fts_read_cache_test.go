package store

import (
	"context"
	"fmt"
	"testing"
)

// TestSegmentReadsKept: under writes that add, rewrite and delete notes
// with the words searched for (new segments, merges, segment ids used
// again, tombstones), Keyword ranked in Go still finds what SQL finds, in
// the same order, with the same scores, while it replays the rows of the
// segments it read before (segCache) and reads only the new ones, and
// the IDs of the notes it read before (docIDs); and
// bm25's lengths of the notes come from those kept and the notes read
// from new segments, mostly without a scan of every row written since
// (patchSizes).
func TestSegmentReadsKept(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(400)
	for i := 0; i < 300; i += 100 {
		if err := s.Apply(ctx, &Batch{Upserts: notes[i : i+100]}); err != nil {
			t.Fatal(err)
		}
	}
	queries := []string{"invoice customer", "project meeting", "the review", "garden plan budget", "me"}
	search := func(what string) {
		t.Helper()
		for _, text := range queries {
			for _, anyTerm := range []bool{false, true} {
				rankedInGo(t, s, what, KeywordQuery{Text: text, Limit: 20, NoSnippets: true, Any: anyTerm})
			}
		}
	}
	search("indexed")
	counts := func() (hits, misses, patches int) {
		s.ranks.segs.mu.Lock()
		hits, misses = s.ranks.segs.hits, s.ranks.segs.misses
		s.ranks.segs.mu.Unlock()
		s.ranks.mu.Lock()
		defer s.ranks.mu.Unlock()
		return hits, misses, s.ranks.patches
	}
	_, firstMisses, _ := counts()
	idReads := func() int {
		s.ranks.ids.mu.Lock()
		defer s.ranks.ids.mu.Unlock()
		return s.ranks.ids.reads
	}
	firstIDs := idReads()
	for round := range 40 {
		b := &Batch{Upserts: []*Record{notes[300+round]}}
		if round%3 == 0 {
			old := *notes[round*5]
			old.Body += fmt.Sprintf(" project meeting round%d", round)
			b.Upserts = append(b.Upserts, &old)
		}
		if round%5 == 4 {
			b.Deletes = []string{notes[round*5+1].Note.ID}
		}
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
		search(fmt.Sprintf("after write %d", round))
	}
	hits, misses, patches := counts()
	if hits == 0 || misses-firstMisses >= hits {
		t.Errorf("segment reads replayed %d, made %d after the first searches (%d): want most replayed", hits, misses-firstMisses, firstMisses)
	}
	// Each write adds a note (and rewrites one every third): the IDs of
	// the others are kept.
	if n := idReads() - firstIDs; n > 60 {
		t.Errorf("%d note IDs read after the first searches, want at most 60 (those of the notes written)", n)
	}
	// Each write adds a note with "the": a scan of every row written
	// since is due once a thirty-second of the rows is newer (manySizes).
	if patches > 10 {
		t.Errorf("lengths brought up to date from every row written since %d times in 40 writes, want at most 10 (only the matches of new segments read again)", patches)
	}
}
