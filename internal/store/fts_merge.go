package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
)

// finishMerges completes the segment merges under way in the full-text
// table and, at the end of a bulk pass, merges the segments its batches
// left on level 0 (bulkFTS): every segment of a token is one more read
// for keyword ranking. A 'merge' with a positive count goes on with
// merges started and starts only those FTS5 would (a level holding
// 'usermerge' segments); it did work when total_changes() grew by 2 or
// more.
func (w *writer) finishMerges(table string) error {
	for range maxMergeRounds {
		var before, after int64
		err := w.queryRow("SELECT total_changes()").Scan(&before)
		if err == nil {
			err = w.merge(table, bulkMergePages)
		}
		if err == nil {
			err = w.queryRow("SELECT total_changes()").Scan(&after)
		}
		if err != nil {
			return fmt.Errorf("merge %s: %w", table, err)
		}
		if after-before < 2 {
			return nil
		}
	}
	return nil
}

// merge runs FTS5's 'merge' command on table for at most pages pages.
func (w *writer) merge(table string, pages int) error {
	_, err := w.exec("INSERT INTO " + table + "(" + table + ", rank) VALUES('merge', " + strconv.Itoa(pages) + ")")
	return err
}

// bulkMergePages is how many pages finishMerges merges a round. Each
// round frees the pages of its inputs that it has read, and the next
// round's output takes them: what is left free at the end is about one
// round's worth, which a larger round would leave for a VACUUM
// (vacuum.go) to give back.
const bulkMergePages = 256

// maxMergeRounds bounds finishMerges: 256 pages a round, about 4 GB in
// all, far more than a bulk build leaves to merge.
const maxMergeRounds = 4000

// liveMergePages is how many pages (about 4 KB each) of merged segments
// stepMerges writes at most: a live write waits for a bounded step, not
// for a whole merge, which can rewrite most of the index when it takes
// in the segment a bulk build left.
const liveMergePages = 100

// stepMerges moves the segment merges under way in the full-text table
// on by at most liveMergePages, as one live write's step: FTS5's own
// automerge works in steps so small that a merge would be under way after
// most of the small transactions of group commits and the watcher.
func (w *writer) stepMerges(table string) error {
	if err := w.merge(table, liveMergePages); err != nil {
		return fmt.Errorf("merge %s: %w", table, err)
	}
	return nil
}

// bulkFTSConfig are the full-text settings of a bulk pass's writes
// (bulkFTS), and liveFTSConfig those of live writes, which every
// transaction commits. FTS5 flushes its in-memory rows to a new segment
// when they reach 'hashsize' bytes and, with each flush, merges a little
// of the segments (automerge), so that every token's postings are
// rewritten once a level. With automerge off the segments of a pass pile
// up on level 0, until 'crisismerge' of them are merged at once; the
// pass's end (finishMerges) merges what is left in one go. A bigger hash
// makes fewer, larger segments, for a higher peak RSS.
var (
	bulkFTSConfig = []string{"'automerge', 0", "'crisismerge', 64", "'hashsize', " + strconv.Itoa(bulkFTSHash)}
	liveFTSConfig = []string{"'automerge', " + strconv.Itoa(liveMergeSegments), "'usermerge', " + strconv.Itoa(liveMergeSegments),
		"'crisismerge', 16", "'hashsize', 1048576"}
)

// liveMergeSegments is how many segments a level of the full-text
// tables gathers before live writes merge them into one of the next
// level ('automerge', and 'usermerge' for stepMerges); FTS5's default is
// 4. Every group commit and watcher pass writes a segment: the more
// segments a merge takes, the fewer levels, and the fewer times a
// posting is written again.
const liveMergeSegments = 8

// bulkFTSHash is the 'hashsize' of a bulk pass, in bytes.
const bulkFTSHash = 2 << 20

// bulkFTS runs write, which inserts rows into the full-text table, with
// the settings of a bulk pass (bulkFTSConfig), then flushes the rows
// written and sets the live settings again (liveFTSConfig), in the same
// transaction: the settings live in the table's fts_config, so an
// interrupted pass leaves the live settings, and so does a finished one.
func (w *writer) bulkFTS(table string, write func() error) error {
	if err := setFTSConfig(w.exec, table, bulkFTSConfig); err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	// The commit would flush the rows with the defaults, automerge on.
	if _, err := w.exec("INSERT INTO " + table + "(" + table + ") VALUES('flush')"); err != nil {
		return fmt.Errorf("flush %s: %w", table, err)
	}
	return setFTSConfig(w.exec, table, liveFTSConfig)
}

// setFTSConfig stores the settings values (key, value) of the full-text
// table through exec.
func setFTSConfig(exec func(query string, args ...any) (sql.Result, error), table string, values []string) error {
	for _, v := range values {
		if _, err := exec("INSERT INTO " + table + "(" + table + ", rank) VALUES(" + v + ")"); err != nil {
			return fmt.Errorf("configure %s: %w", table, err)
		}
	}
	return nil
}

// ensureLiveFTS stores the live settings (liveFTSConfig) in the
// full-text tables of an index that holds others: a new one (FTS5's
// defaults), or one written before they changed.
func (s *Store) ensureLiveFTS(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM fts_config WHERE k IN ('automerge', 'usermerge') AND v = ?1)
		+ (SELECT count(*) FROM fts_anchor_config WHERE k IN ('automerge', 'usermerge') AND v = ?1)`, liveMergeSegments).Scan(&n); err != nil {
		return fmt.Errorf("full-text settings: %w", err)
	}
	if n == 4 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("full-text settings: %w", err)
	}
	defer tx.Rollback()
	exec := func(query string, args ...any) (sql.Result, error) { return tx.ExecContext(ctx, query, args...) }
	for _, table := range []string{"fts", "fts_anchor"} {
		if err := setFTSConfig(exec, table, liveFTSConfig); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("full-text settings: %w", err)
	}
	return nil
}

// writeFTSRows inserts the queued full-text rows (writeFTS), with the
// settings of a bulk pass when bulk is set (bulkFTS).
func (w *writer) writeFTSRows(bulk bool) error {
	insert := func() error {
		for _, args := range w.ftsRows {
			if err := w.execRaw(`INSERT INTO fts(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, args); err != nil {
				return err
			}
		}
		w.ftsRows = nil
		return nil
	}
	if !bulk || len(w.ftsRows) == 0 {
		return insert()
	}
	return w.bulkFTS("fts", insert)
}
