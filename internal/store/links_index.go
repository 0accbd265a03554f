package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Each link row of a cold index would go into links_to (links by the note
// they resolve to) at a random place: a seek down the index, often a page
// read and a split, and the page written again to the WAL by every later
// batch that touched it. Built once from the finished table (sorted,
// pages filled in order), the index costs a fraction of that. So a pass
// that defers the anchor text over an empty links table (a cold index,
// Batch.DeferAnchors) drops links_to in its first batch, and the first
// batch that does not defer (the pass's last) makes it again, before its
// own writes. In between nothing needs it: the anchor text is not worked
// out, and the statements that find links by their resolution
// (claimPending, dropPending) make it first (needLinksTo). An index left
// without it by a pass that was interrupted gets it back from the next
// batch that does not defer, or the next Open (ensureLinksTo); until
// then every answer is the same, only slower.

// createLinksTo makes links_to, as the schema does.
const createLinksTo = "CREATE INDEX IF NOT EXISTS links_to ON links(resolved)"

// execer runs a statement: a transaction or a connection.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// makeLinksTo makes links_to (boundedSort).
func makeLinksTo(ctx context.Context, db execer) error {
	if err := boundedSort(ctx, db, createLinksTo); err != nil {
		return fmt.Errorf("index links_to: %w", err)
	}
	return nil
}

// sortCachePages is the page cache (PRAGMA cache_size) of a statement
// boundedSort runs: SQLite sorts runs of at most that many bytes.
const sortCachePages = "-2048"

// boundedSort runs stmt, on db's one connection, with the temporary
// storage in files and a page cache of sortCachePages, then sets Open's
// settings again. CREATE INDEX sorts the keys of every row first: with
// temp_store MEMORY (Open) SQLite sorts them all in memory, in a buffer
// it grows by doubling, and with FILE in runs of at most cache_size
// bytes, which it merges from a temporary file: under Open's settings,
// making links_to at the end of a cold index raised its peak RSS. These
// PRAGMAs take effect when they are prepared, so none is prepared once
// for every transaction (writer.exec): each runs as given. They are
// best effort: SQLite refuses to change temp_store in a transaction on
// a connection with temporary tables (temp.snip, snipConn), and stmt
// then runs as it would have without them.
func boundedSort(ctx context.Context, db execer, stmt string) error {
	for _, q := range []string{"PRAGMA temp_store = FILE", "PRAGMA cache_size = " + sortCachePages} {
		_, _ = db.ExecContext(ctx, q)
	}
	_, err := db.ExecContext(ctx, stmt)
	for _, q := range []string{"PRAGMA cache_size = " + poolCachePages, "PRAGMA temp_store = MEMORY"} {
		_, _ = db.ExecContext(ctx, q)
	}
	return err
}

// hasLinksTo is a query that says whether links_to exists.
const hasLinksTo = "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'links_to')"

// linksIndex drops links_to at the start of a batch that defers the
// anchor text (deferred) when the links table is empty, and makes it
// again at the start of one that does not.
func (w *writer) linksIndex(deferred bool) error {
	var has bool
	if err := w.queryRow(hasLinksTo).Scan(&has); err != nil {
		return fmt.Errorf("index links_to: %w", err)
	}
	if !deferred {
		if has {
			return nil
		}
		return makeLinksTo(w.ctx, w.tx)
	}
	if has {
		var some bool
		err := w.queryRow("SELECT EXISTS (SELECT 1 FROM links)").Scan(&some)
		if err == nil && some {
			return nil // kept: links has rows to index
		}
		if err == nil {
			_, err = w.exec("DROP INDEX links_to")
		}
		if err != nil {
			return fmt.Errorf("index links_to: %w", err)
		}
	}
	w.noLinksTo = true
	return nil
}

// needLinksTo makes links_to again when the batch runs without it
// (linksIndex), before a statement that finds links by their resolution.
func (w *writer) needLinksTo() (err error) {
	if w.noLinksTo {
		err = makeLinksTo(w.ctx, w.tx)
		w.noLinksTo = err != nil
	}
	return err
}

// ensureLinksTo makes links_to when a pass that was interrupted left the
// index without it (linksIndex). A file that cannot be written keeps
// working without it.
func ensureLinksTo(ctx context.Context, db *sql.DB) {
	var has bool
	if err := db.QueryRowContext(ctx, hasLinksTo).Scan(&has); err != nil || has {
		return
	}
	// One connection: the PRAGMAs set its temp_store.
	c, err := db.Conn(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	_ = makeLinksTo(ctx, c)
}
