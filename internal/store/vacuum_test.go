package store

import (
	"context"
	"testing"
)

// TestBulkPassGivesBackFreePages: the merges that end a bulk pass free
// the pages of the segments they replace; the pass gives them back, and
// the cache key its last write recorded follows VACUUM's schema change.
func TestBulkPassGivesBackFreePages(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(400)
	for i := 0; i < len(notes); i += 25 { // sixteen level-0 segments for the last batch to merge
		if err := s.Apply(ctx, &Batch{Upserts: notes[i : i+25], DeferAnchors: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(ctx, &Batch{Upserts: notes[:1]}); err != nil {
		t.Fatal(err)
	}
	var pages, free int64
	if err := s.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow("PRAGMA freelist_count").Scan(&free); err != nil {
		t.Fatal(err)
	}
	if free*sparseShare >= pages {
		t.Errorf("after the bulk pass %d of %d pages are free", free, pages)
	}
	if k, ok := s.cacheKey(ctx, s.db); !ok || k != s.keep.last {
		t.Errorf("the index's key is %v, the last write recorded %v", k, s.keep.last)
	}
}
