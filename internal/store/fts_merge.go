package store

import (
	"fmt"
	"strconv"
)

// finishMerges completes the segment merges under way in the full-text
// table (FTS5 merges a little with each write, so a bulk build leaves one
// or more half done). Keyword ranking reads the index's pages itself,
// a merge under way too (fts_read.go), but every segment of a token is
// one more read, and the segments of a merge half done are its inputs
// and its output. A 'merge' with a positive
// count goes on with merges started and starts only those FTS5 would
// (a level holding 'usermerge' segments); it did work when
// total_changes() grew by 2 or more.
func (w *writer) finishMerges(table string) error {
	changes := func() (n int64, err error) {
		err = w.queryRow("SELECT total_changes()").Scan(&n)
		return n, err
	}
	for range maxMergeRounds {
		before, err := changes()
		if err != nil {
			return fmt.Errorf("merge %s: %w", table, err)
		}
		if _, err := w.exec("INSERT INTO " + table + "(" + table + ", rank) VALUES('merge', 2000)"); err != nil {
			return fmt.Errorf("merge %s: %w", table, err)
		}
		after, err := changes()
		if err != nil {
			return fmt.Errorf("merge %s: %w", table, err)
		}
		if after-before < 2 {
			return nil
		}
	}
	return nil
}

// maxMergeRounds bounds finishMerges: 2,000 pages a round, far more than a
// bulk build leaves to merge.
const maxMergeRounds = 1000

// liveMergePages is how many pages (about 4 KB each) of merged segments
// stepMerges writes at most: a live write waits for a bounded step, not
// for a whole merge, which can rewrite most of the index when it takes
// in the segment a bulk build left. Under `make load` (load average 3 to
// 4, back to back) 400 pages gave write p99 583 / 388 ms, 100 pages 179 /
// 166 ms for the same throughput, with 11% of the keyword ranking's CPU
// still in SQL.
const liveMergePages = 100

// stepMerges moves the segment merges under way in the full-text table
// on by at most liveMergePages, as one live write's step. Group commits
// and the watcher commit many small transactions, each a new segment,
// and FTS5's own automerge works in steps so small that a merge was
// under way after most of them (281 of 500 four-note transactions over
// 10,000 notes): keyword ranking then falls back to SQL (fts_read.go),
// which under `make load` was 38% of the search CPU. With a step of 100
// pages, 21 of 500 (400 pages: 6; finishing every merge instead left
// none, but a transaction that finished a large one took 100 ms and
// more).
func (w *writer) stepMerges(table string) error {
	if _, err := w.exec("INSERT INTO " + table + "(" + table + ", rank) VALUES('merge', " + strconv.Itoa(liveMergePages) + ")"); err != nil {
		return fmt.Errorf("merge %s: %w", table, err)
	}
	return nil
}
