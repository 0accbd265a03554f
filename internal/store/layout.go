package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// The layout of schema 8: every note has a small integer key, notes.doc
// (also the rowid of its full-text rows), and links and vectors refer to
// notes by it instead of repeating their paths. A link's kind and status
// are stored as the index of their value in linkKinds and linkStatuses
// (most often 0 or 1, which SQLite stores in no bytes at all); a value
// not in the list is stored as its text. The model and dimension of the
// vectors are stored once (vector_models), their content hash once per
// note (vector_notes). The tags table is gone: nothing read it, and every
// note's tags are in notes.tags.
//
// A link may resolve to a note not yet in the table (a cold index writes
// its notes a chunk at a time). Such a link's resolved is minus the key
// of the note's ID in pending, and the note's first upsert turns it into
// its doc (claimPending). Notes get their doc in the order they are
// written, so notes, note_text and vectors grow at their end, page after
// full page. notes.doc is never reused (AUTOINCREMENT): a link resolved
// to a note since deleted resolves to nothing rather than to another
// note until the engine resolves it again.

// A note's path is stored as '' when it is its ID (nearly always: they
// differ only in Unicode normalisation): storedPath writes it, notePath
// reads it back.

// storedPath is what notes.path stores of path, the path of note id.
func storedPath(id, path string) string {
	if path == id {
		return ""
	}
	return path
}

// notePath is the SQL expression of the path of a notes row.
var notePath = notePathOf("notes")

// notePathOf is notePath of the notes row named table.
func notePathOf(table string) string {
	return "iif(" + table + ".path = '', " + table + ".id, " + table + ".path)"
}

// linkCode is what the links table stores for v, one of list's values
// or another string.
func linkCode(list []string, v string) any {
	if i := slices.Index(list, v); i >= 0 {
		return int64(i)
	}
	return v
}

// sqlCase returns an SQL expression that maps col from list's values to
// their codes (toCode: linkCode, in SQL) or back; any other value stays
// as it is.
func sqlCase(col string, list []string, toCode bool) string {
	var b strings.Builder
	b.WriteString("CASE " + col)
	for i, s := range list {
		if toCode {
			fmt.Fprintf(&b, " WHEN '%s' THEN %d", s, i)
		} else {
			fmt.Fprintf(&b, " WHEN %d THEN '%s'", i, s)
		}
	}
	b.WriteString(" ELSE " + col + " END")
	return b.String()
}

// linkRowColumns are the columns of link_rows, and linkRowJoins the
// tables they come from (l is links).
var (
	linkRowColumns = `s.id AS source, l.seq AS seq,
	` + sqlCase("l.kind", linkKinds, false) + ` AS kind, l.target AS target, l.fragment AS fragment,
	l.alias AS alias, l.property AS property, l.start AS start, l.end AS end,
	l.target_start AS target_start, l.target_end AS target_end, l.line AS line,
	coalesce(r.id, p.name) AS resolved, ` + sqlCase("l.status", linkStatuses, false) + ` AS status, l.context AS context`
	linkRowJoins = `FROM links l JOIN notes s ON s.doc = l.source LEFT JOIN notes r ON r.doc = l.resolved
	LEFT JOIN pending p ON p.id = -l.resolved`
)

// rowViews shows links and vectors as they were stored up to schema 7,
// with note IDs, kinds and statuses as text: Load reads link_rows, and a
// person or a test can read either with plain SQL.
var rowViews = `CREATE VIEW IF NOT EXISTS link_rows AS SELECT ` + linkRowColumns + `
	` + linkRowJoins + `;
CREATE VIEW IF NOT EXISTS vector_rows AS SELECT n.id AS note, v.chunk AS chunk, m.name AS model,
	m.dim AS dim, vn.hash AS hash, v.vec AS vec
	FROM vectors v JOIN notes n ON n.doc = v.note JOIN vector_models m ON m.model = v.model
	LEFT JOIN vector_notes vn ON vn.note = v.note AND vn.model = v.model`

// doc returns what links.resolved stores for the note id: its doc, or
// minus its key in pending when the index does not hold it yet.
func (w *writer) doc(id string) (int64, error) {
	if d, ok := w.docs[id]; ok {
		return d, nil
	}
	if d, ok := w.reserved[id]; ok {
		return d, nil
	}
	d, held, err := w.noteDoc(id)
	if err == nil && !held {
		if _, err := w.exec("INSERT INTO pending(name) VALUES (?) ON CONFLICT(name) DO NOTHING", id); err != nil {
			return 0, err
		}
		w.pending = 2
		err = w.queryRow("SELECT -id FROM pending WHERE name = ?", id).Scan(&d)
	}
	if err != nil {
		return 0, fmt.Errorf("index %s: %w", id, err)
	}
	w.docs[id] = d
	return d, nil
}

// claimPending makes the links that resolve to the pending note id
// resolve to its doc, now that it has one; claimed says links were made
// to resolve to it.
func (w *writer) claimPending(id string, doc int64) (claimed bool, err error) {
	if r, ok := w.reserved[id]; ok && r != doc {
		// Another process wrote the note first, under another doc.
		if err := w.needLinksTo(); err != nil {
			return false, err
		}
		if _, err := w.exec("UPDATE links SET resolved = ? WHERE resolved = ?", doc, r); err != nil {
			return false, err
		}
		claimed = true
	}
	// Most transactions, and every batch of a cold index, find pending
	// empty: it is looked at once, not for each note.
	if w.pending == 0 {
		var some bool
		if err := w.queryRow("SELECT EXISTS (SELECT 1 FROM pending)").Scan(&some); err != nil {
			return false, err
		}
		w.pending = 1
		if some {
			w.pending = 2
		}
	}
	if w.pending == 1 {
		return claimed, nil
	}
	var p int64
	if err := w.queryRow("SELECT id FROM pending WHERE name = ?", id).Scan(&p); err == sql.ErrNoRows {
		return claimed, nil
	} else if err != nil {
		return false, err
	}
	if err := w.needLinksTo(); err != nil {
		return false, err
	}
	if _, err := w.exec("UPDATE links SET resolved = ? WHERE resolved = ?", doc, -p); err != nil {
		return false, err
	}
	_, err = w.exec("DELETE FROM pending WHERE id = ?", p)
	return true, err
}

// dropPending deletes the pending notes nothing resolves to. Most often
// there is none.
func (w *writer) dropPending() error {
	var any bool
	if err := w.queryRow("SELECT EXISTS (SELECT 1 FROM pending)").Scan(&any); err != nil || !any {
		return err
	}
	if err := w.needLinksTo(); err != nil {
		return err
	}
	_, err := w.exec("DELETE FROM pending WHERE NOT EXISTS (SELECT 1 FROM links WHERE resolved = -pending.id)")
	return err
}

// migrateDocs brings an index of schema 1 to 7 (made up to schema 7 by
// the migrations before it) to the layout of schema 8 in place, with
// SQL alone: notes keep their rowid as doc (so the full-text rows stay
// as they are), links and vectors are copied with note keys and codes,
// tags is dropped. Nothing is parsed or embedded again.
func migrateDocs(ctx context.Context, tx *sql.Tx) error {
	if done, err := tableSQLHas(ctx, tx, "notes", "AUTOINCREMENT"); err != nil || done {
		return err
	}
	var anchors string
	if err := tx.QueryRowContext(ctx, "SELECT iif(count(*) > 0, 'anchors', 'NULL') FROM pragma_table_info('notes') WHERE name = 'anchors'").Scan(&anchors); err != nil {
		return err
	}
	schema8 := splitSchema(schema)
	if err := execAll(ctx, tx,
		"DROP VIEW IF EXISTS link_rows", "DROP VIEW IF EXISTS vector_rows",
		"ALTER TABLE notes RENAME TO notes_v7", "ALTER TABLE links RENAME TO links_v7",
		"DROP INDEX IF EXISTS links_context",
		createOf(schema8, "notes"), createOf(schema8, "links"),
		`INSERT INTO notes(doc, id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors)
			SELECT rowid, id, iif(path = id, '', path), title, hash, size, mtime, body_start, aliases, tags, properties, warnings, `+anchors+` FROM notes_v7`,
		createOf(schema8, "pending"),
		`INSERT INTO pending(name) SELECT DISTINCT resolved FROM links_v7
			WHERE resolved IS NOT NULL AND resolved NOT IN (SELECT id FROM notes) ORDER BY resolved`,
		`INSERT INTO links(source, seq, kind, target, fragment, alias, property, start, end, target_start, target_end, line, resolved, status, context)
			SELECT s.doc, l.seq, `+sqlCase("l.kind", linkKinds, true)+`, l.target, l.fragment, l.alias, l.property,
				l.start, l.end, l.target_start, l.target_end, l.line, coalesce(r.doc, -p.id), `+sqlCase("l.status", linkStatuses, true)+`, l.context
			FROM links_v7 l JOIN notes s ON s.id = l.source LEFT JOIN notes r ON r.id = l.resolved
			LEFT JOIN pending p ON p.name = l.resolved`,
		"DROP TABLE links_v7", "DROP TABLE IF EXISTS tags",
	); err != nil {
		return err
	}
	if err := migrateVectorRows(ctx, tx, schema8); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "DROP TABLE notes_v7")
	return err
}

// migrateVectorRows copies the vectors of schema 7 to vector_models,
// vector_notes and vectors. A note whose chunks are not numbered
// 0..n-1 or come from several versions gets no hash (it is stale, as
// VectorHashes said before).
func migrateVectorRows(ctx context.Context, tx *sql.Tx, schema8 []string) error {
	var has int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'vectors'").Scan(&has); err != nil || has == 0 {
		return err
	}
	return execAll(ctx, tx,
		"ALTER TABLE vectors RENAME TO vectors_v7",
		createOf(schema8, "vector_models"), createOf(schema8, "vector_notes"), createOf(schema8, "vectors"),
		"INSERT INTO vector_models(name, dim) SELECT DISTINCT model, dim FROM vectors_v7 ORDER BY model, dim",
		`INSERT INTO vector_notes(note, model, hash, chunks)
			SELECT n.doc, m.model, iif(min(v.hash) = max(v.hash) AND min(v.chunk) = 0 AND max(v.chunk) = count(*) - 1, min(v.hash), ''), count(*)
			FROM vectors_v7 v JOIN notes n ON n.id = v.note JOIN vector_models m ON m.name = v.model AND m.dim = v.dim
			GROUP BY n.doc, m.model`,
		`INSERT INTO vectors(note, model, chunk, vec)
			SELECT n.doc, m.model, v.chunk, v.vec
			FROM vectors_v7 v JOIN notes n ON n.id = v.note JOIN vector_models m ON m.name = v.model AND m.dim = v.dim`,
		"DROP TABLE vectors_v7",
	)
}

// execAll runs stmts in tx, one after the other.
func execAll(ctx context.Context, tx execer, stmts ...string) error {
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// createOf returns the statement of stmts that creates table.
func createOf(stmts []string, table string) string {
	for _, s := range stmts {
		if strings.Contains(s, "CREATE TABLE IF NOT EXISTS "+table+" (") {
			return s
		}
	}
	panic("store: no table " + table + " in the schema")
}
