package store

import (
	"context"
	"database/sql"
)

// The migrations of indexes written before schema 5.

// migrateAnchors brings an index of schema 1 to 3 to schema 4: notes
// get the anchors column, NULL in every row (not known: Load gives such
// a note Size -1 and no Hash, so the engine parses it again), and the
// index is no longer consistent, so that even a reader that trusts it
// compares it with the files.
func migrateAnchors(ctx context.Context, tx *sql.Tx) error {
	if err := addColumn(ctx, tx, "notes", "anchors", "TEXT"); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "UPDATE meta SET value = '0' WHERE key = 'consistent'")
	return err
}

// migrateCompact brings an index of schema 1 to 4 to schema 5: its
// vectors are rewritten as bytes (migrateVectorsInt8), and the indexes
// links_resolved and tags_tag, which no query used, are dropped.
func migrateCompact(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(ctx, tx, "DROP INDEX IF EXISTS links_resolved", "DROP INDEX IF EXISTS tags_tag"); err != nil {
		return err
	}
	// Vectors of the layout of schema 8 (a file whose version was set
	// back) have no column dim, and are encoded already.
	if has, err := hasColumn(ctx, tx, "vectors", "dim"); err != nil || !has {
		return err
	}
	return migrateVectorsInt8(ctx, tx)
}

// hasColumn reports whether table has the column.
func hasColumn(ctx context.Context, tx *sql.Tx, table, column string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, column).Scan(&n)
	return n > 0, err
}

// addColumn adds column, declared as decl, to table unless it has it.
func addColumn(ctx context.Context, tx *sql.Tx, table, column, decl string) error {
	has, err := hasColumn(ctx, tx, table, column)
	if err != nil || has {
		return err
	}
	_, err = tx.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+column+" "+decl)
	return err
}
