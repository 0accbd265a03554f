package store

import (
	"context"
	"maps"
	"testing"
)

// TestBulkPassFinishesMerges: a bulk pass (batches that defer the anchor
// text, then one that does not) leaves no FTS5 merge under way, so that
// keyword ranking reads the index's pages in Go (a merge under way makes
// it rank in SQL).
func TestBulkPassFinishesMerges(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(240)
	applyDeferred(t, s, notes, 30) // eight transactions: eight level-0 segments
	// Start a merge and leave it half done, as FTS5's automerge does
	// during a big build.
	startMerge(t, s, "the last batch")
	if err := s.Apply(ctx, &Batch{Upserts: notes[:1]}); err != nil {
		t.Fatal(err)
	}
	checkMerged(t, s, "the bulk pass")
}

// TestBulkPassGivesBackFreePages: the merges that end a bulk pass free
// the pages of the segments they replace; the pass gives them back, and
// the cache key its last write recorded follows VACUUM's schema change.
func TestBulkPassGivesBackFreePages(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(400)
	applyDeferred(t, s, notes, 25) // sixteen level-0 segments for the last batch to merge
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

// applyDeferred writes notes per at a time in batches that defer the
// anchor text, as a bulk pass does before its last batch: one level-0
// segment each.
func applyDeferred(t *testing.T, s *Store, notes []*Record, per int) {
	t.Helper()
	for i := 0; i < len(notes); i += per {
		if err := s.Apply(context.Background(), &Batch{Upserts: notes[i:min(i+per, len(notes))], DeferAnchors: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// startMerge starts a merge in fts and fts_anchor and leaves it half
// done; before names what comes next, for the message when none is.
func startMerge(t *testing.T, s *Store, before string) {
	t.Helper()
	for _, table := range []string{"fts", "fts_anchor"} {
		if _, err := s.db.Exec("INSERT INTO " + table + "(" + table + ", rank) VALUES('merge', 1)"); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := ftsStructureOf(t, s, "fts"); ok {
		t.Fatalf("no merge under way before %s: the test does not test", before)
	}
}

// checkMerged checks that no merge is under way in fts and fts_anchor,
// and that a search is ranked in Go; after names what ran before.
func checkMerged(t *testing.T, s *Store, after string) {
	t.Helper()
	for _, table := range []string{"fts", "fts_anchor"} {
		if segs, ok := ftsStructureOf(t, s, table); !ok {
			t.Errorf("%s: a merge is under way after %s (%d segments read)", table, after, len(segs))
		}
	}
	before := s.goRanked.Load()
	if _, err := s.Keyword(context.Background(), KeywordQuery{Text: "invoice", Limit: 5, NoSnippets: true}); err != nil {
		t.Fatal(err)
	}
	if s.goRanked.Load() == before {
		t.Errorf("the search after %s was not ranked in Go", after)
	}
}

// ftsStructureOf reads table's structure record as the page reader does.
func ftsStructureOf(t *testing.T, s *Store, table string) (ftsStructure, bool) {
	t.Helper()
	var b []byte
	if err := s.db.QueryRow("SELECT block FROM " + table + "_data WHERE id = 10").Scan(&b); err != nil {
		t.Fatal(err)
	}
	return parseStructure(b)
}

// parseStructure reads a structure record; ok is false for one it does
// not expect, or while segments are being merged.
func parseStructure(b []byte) (ftsStructure, bool) {
	segs, merging, ok := parseStructureMerging(b)
	return segs, ok && !merging
}

// TestLiveWriteFinishesMerges: a small transaction, as a group commit or
// the watcher writes one, moves the FTS5 merge under way on (stepMerges)
// and finishes a small one, so that the searches after it are ranked in
// Go. FTS5's automerge works in steps so small that at 10,000 notes small
// writes left a merge under way most of the time, and searches were
// ranked in SQL.
func TestLiveWriteFinishesMerges(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(241)
	// Eight transactions make segments to merge. They defer the anchor
	// text only so that they leave their merges as FTS5 does; the anchor
	// text is then taken as up to date, so that the next batch is a live
	// write, not the end of a bulk pass.
	for i := 0; i < 240; i += 30 {
		if err := s.Apply(ctx, &Batch{Upserts: notes[i : i+30], DeferAnchors: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", metaAnchorsStale); err != nil {
		t.Fatal(err)
	}
	startMerge(t, s, "the live write")
	// A batch that changes no note (meta keys, a file's time, vectors:
	// a one-shot read writes such) leaves the merge for a write.
	if err := s.Apply(ctx, &Batch{Meta: map[string]string{"test": "1"}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := ftsStructureOf(t, s, "fts"); ok {
		t.Error("a batch of meta keys alone moved the merges on")
	}
	if err := s.Apply(ctx, &Batch{Upserts: notes[240:]}); err != nil {
		t.Fatal(err)
	}
	checkMerged(t, s, "a live write")
}

// TestBulkPassMergesAtTheEnd: the batches of a bulk pass leave their
// full-text segments unmerged (one a batch), the pass's last batch merges
// them, and every transaction commits the live settings, so that an
// interrupted pass leaves live writes merging as usual.
func TestBulkPassMergesAtTheEnd(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(340)
	// Seventeen batches: FTS5's defaults would have merged the sixteen
	// segments of level 0 at once ('crisismerge').
	applyDeferred(t, s, notes, 20)
	segs, ok := ftsStructureOf(t, s, "fts")
	if !ok || len(segs) != 17 {
		t.Errorf("after 17 batches of a bulk pass fts holds %d segments (merge under way: %v), want 17 unmerged", len(segs), !ok)
	}
	checkLiveConfig(t, s, "fts")
	if err := s.Apply(ctx, &Batch{Upserts: notes[:1]}); err != nil {
		t.Fatal(err)
	}
	checkMerged(t, s, "the bulk pass")
	if segs, _ := ftsStructureOf(t, s, "fts"); len(segs) > 2 {
		t.Errorf("after the bulk pass fts holds %d segments", len(segs))
	}
	for _, table := range []string{"fts", "fts_anchor"} {
		checkLiveConfig(t, s, table)
	}
}

// checkLiveConfig checks that table's stored settings are the live ones
// (liveFTSConfig), every one of them stored.
func checkLiveConfig(t *testing.T, s *Store, table string) {
	t.Helper()
	want := map[string]int64{"automerge": liveMergeSegments, "usermerge": liveMergeSegments, "crisismerge": 16, "hashsize": 1 << 20}
	rows, err := s.db.Query("SELECT k, v FROM " + table + "_config WHERE k <> 'version'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]int64{}
	for rows.Next() {
		var k string
		var v int64
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		got[k] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("%s_config holds %v, want %v", table, got, want)
	}
}

// TestOpenStoresLiveMergeSettings: a new index, and one written with
// FTS5's defaults (before the live settings changed), holds the live
// settings once opened, so that live writes merge liveMergeSegments
// segments a level.
func TestOpenStoresLiveMergeSettings(t *testing.T) {
	s, path := openTemp(t)
	for _, table := range []string{"fts", "fts_anchor"} {
		checkLiveConfig(t, s, table)
		for _, kv := range []string{"'automerge', 4", "'usermerge', 4"} {
			if _, err := s.db.Exec("INSERT INTO " + table + "(" + table + ", rank) VALUES(" + kv + ")"); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.Close()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, table := range []string{"fts", "fts_anchor"} {
		checkLiveConfig(t, s, table)
	}
}
