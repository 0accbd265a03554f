package store

import "fmt"

// finishMerges completes the segment merges under way in the full-text
// table (FTS5 merges a little with each write, so a bulk build leaves one
// or more half done). Keyword ranking reads the index's pages itself
// only when no merge is under way (fts_read.go), else it ranks in SQL,
// several times slower at 100,000 notes. A 'merge' with a positive
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
