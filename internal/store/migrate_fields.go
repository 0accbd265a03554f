package store

import (
	"context"
	"database/sql"

	"github.com/vaultgraph/vaultgraph/vault"
)

// migrateFields brings an index of schema 1 to 5 (from) to schema 6 in
// place: the full-text table is made again with the columns headings,
// tags, props and stems, filled from each note's row (its tags,
// properties and headings) and its title and body as the old table has
// them; each link gets its context from that body; fts_anchor is filled
// from the contexts later (refreshAllAnchors). The hidden columns of
// schema 1 and 2 are made again (CJK bigrams since 2, folded words since
// 3), and schema 1's titles get the note's aliases. Notes, links and
// vectors stay, so nothing is parsed or embedded again.
func migrateFields(ctx context.Context, tx *sql.Tx, from int) error {
	if err := addColumn(ctx, tx, "links", "context", "TEXT NOT NULL DEFAULT ''"); err != nil {
		return err
	}
	// A full-text table of schema 8 (a file whose version was set back)
	// has these columns, and keeps no text to make them from.
	if v8, err := tableSQLHas(ctx, tx, "fts", "contentless_delete"); err != nil || v8 {
		return err
	}
	if _, err := tx.ExecContext(ctx, "CREATE INDEX IF NOT EXISTS links_context ON links(resolved) WHERE context <> ''"); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "CREATE VIRTUAL TABLE fts_fields USING "+ftsTableV6); err != nil {
		return err
	}
	w := newWriter(ctx, tx)
	defer w.close()
	hidden := "fts.cjktitle, fts.cjk"
	if from <= 2 {
		hidden = "'', ''" // schema 1 has no such columns
	}
	err := inBatches(ctx, tx, `SELECT fts.rowid, fts.title, fts.body, `+hidden+`,
			coalesce(notes.id, ''), coalesce(notes.title, ''), coalesce(notes.tags, '[]'),
			coalesce(notes.properties, ''), notes.anchors, coalesce(notes.body_start, 0), coalesce(notes.aliases, '[]')
		FROM fts LEFT JOIN notes ON notes.rowid = fts.rowid
		WHERE fts.rowid > ? ORDER BY fts.rowid LIMIT ?`, func(rows *sql.Rows, r *fieldsRow) error {
		var aliases string
		if err := rows.Scan(&r.rowid, &r.title, &r.body, &r.cjktitle, &r.cjk, &r.id, &r.noteTitle,
			&r.tags, &r.properties, &r.anchors, &r.bodyStart, &aliases); err != nil || from > 2 {
			return err
		}
		var names []string
		if from == 1 && decodeJSON(aliases, &names) == nil {
			r.title = ftsTitle(r.title, names)
		}
		r.cjktitle, r.cjk = hiddenText(r.title), hiddenText(r.body)
		return nil
	}, func(r *fieldsRow) int64 { return r.rowid }, func(r *fieldsRow) error { return migrateFieldsRow(ctx, w, r) })
	if err != nil {
		return err
	}
	return execAll(ctx, tx,
		"DROP TABLE IF EXISTS fts_vocab",
		"DROP TABLE fts",
		"ALTER TABLE fts_fields RENAME TO fts",
		"CREATE VIRTUAL TABLE IF NOT EXISTS fts_anchor USING "+ftsTableV6,
	)
}

// refreshAllAnchors writes the fts_anchor row of every note a link
// resolves to: after migrateFields, once the links are of schema 8.
func refreshAllAnchors(ctx context.Context, tx *sql.Tx) error {
	w := newWriter(ctx, tx)
	defer w.close()
	rows, err := tx.QueryContext(ctx, "SELECT DISTINCT resolved FROM link_rows WHERE resolved IS NOT NULL")
	if err := eachString(rows, err, func(id string) { w.touchAnchors(id) }); err != nil {
		return err
	}
	return w.refreshAnchors()
}

// fieldsRow is a full-text row of the old table with its note's row.
type fieldsRow struct {
	rowid                           int64
	title, body, cjktitle, cjk      string
	id, noteTitle, tags, properties string
	anchors                         sql.NullString
	bodyStart                       int
}

// migrateFieldsRow moves the row r of fts to fts_fields with its new
// columns and writes the context of each link of its note.
func migrateFieldsRow(ctx context.Context, w *writer, r *fieldsRow) error {
	n := noteFields(r.id, r.noteTitle, "", r.tags, r.properties, r.anchors)
	heads, tagWords, props := headingText(n), tagText(n), propText(n)
	if _, err := w.exec(`INSERT INTO fts_fields(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.rowid, r.title, r.body, r.cjktitle, r.cjk,
		heads, tagWords, props, stemText(r.title, heads, tagWords, props, r.body)); err != nil {
		return err
	}
	// The links of a file whose version was set back are of schema 8,
	// keyed by the note's rowid.
	var key any = r.id
	if isDocs, err := tableSQLHas(ctx, w.tx, "notes", "AUTOINCREMENT"); err != nil {
		return err
	} else if isDocs {
		key = r.rowid
	}
	rows, err := w.tx.QueryContext(ctx, "SELECT seq, start, end, alias, target, property FROM links WHERE source = ?", key)
	type ctxRow struct {
		seq  int
		text string
	}
	out, err := scanRows(rows, err, func(rows *sql.Rows, c *ctxRow) error {
		var l vault.Link
		if err := rows.Scan(&c.seq, &l.Start, &l.End, &l.Alias, &l.Target, &l.Property); err != nil {
			return err
		}
		c.text = linkContext(l, r.body, r.bodyStart)
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range out {
		if _, err := w.exec("UPDATE links SET context = ? WHERE source = ? AND seq = ?", c.text, key, c.seq); err != nil {
			return err
		}
	}
	return nil
}
