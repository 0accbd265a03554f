package store

import (
	"bytes"
	"cmp"
	"compress/flate"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"modernc.org/sqlite"
)

// ftsColumns are the full-text table's columns, in order (ftsTable).
// note_text, its view and the function below are of schema 7: the
// migrations write and read them (migrateNoteText, migrateContentless).
var ftsColumns = [...]string{"title", "body", "cjktitle", "cjk", "headings", "tags", "props", "stems"}

// noteTextFunc is the SQL function that reads one column of a note_text
// row: noteTextFunc(z, i) is column i of ftsColumns.
const noteTextFunc = "vg_note_text"

// In schema 7 the full-text table fts kept no copy of its rows: its
// content is the view note_text_cols, which reads each note's columns
// from one compressed blob in note_text (about a third of the bytes).
// FTS5 reads it for snippet(), for a column such as fts.body, and for
// the old values of a row it deletes; so a note's note_text row changes
// only after its fts row is deleted, in the same transaction.
const noteTextSchema = `
CREATE TABLE IF NOT EXISTS note_text (
	doc INTEGER PRIMARY KEY,
	z   BLOB NOT NULL
);
CREATE VIEW IF NOT EXISTS note_text_cols AS SELECT doc,
	` + noteTextFunc + `(z, 0) AS title, ` + noteTextFunc + `(z, 1) AS body,
	` + noteTextFunc + `(z, 2) AS cjktitle, ` + noteTextFunc + `(z, 3) AS cjk,
	` + noteTextFunc + `(z, 4) AS headings, ` + noteTextFunc + `(z, 5) AS tags,
	` + noteTextFunc + `(z, 6) AS props, ` + noteTextFunc + `(z, 7) AS stems
	FROM note_text`

func init() {
	err := sqlite.RegisterDeterministicScalarFunction(noteTextFunc, 2, noteTextColumn)
	if err = cmp.Or(err, sqlite.RegisterDeterministicScalarFunction(bodyFunc, 1, bodyText)); err != nil {
		panic(err)
	}
}

// bodyFunc is the SQL function that reads a note_body row:
// vg_body(note_body.z) is the note's body (NULL for none), for a person
// or a test reading the index with SQL.
const bodyFunc = "vg_body"

// bodyText is bodyFunc.
func bodyText(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	z, _ := args[0].([]byte)
	if z == nil {
		return nil, nil
	}
	return expandText(z)
}

// noteTextColumn is noteTextFunc.
func noteTextColumn(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
	z, _ := args[0].([]byte)
	i, ok := args[1].(int64)
	if !ok || i < 0 || i >= int64(len(ftsColumns)) {
		return nil, fmt.Errorf("%s: bad column %v", noteTextFunc, args[1])
	}
	cols, err := decodeNoteText(z)
	if err != nil {
		return nil, err
	}
	return cols[i], nil
}

// lastText caches the last blob decodeNoteText decoded: FTS5 reads the
// eight columns of a row one after the other.
var lastText struct {
	sync.Mutex
	z    []byte
	cols [len(ftsColumns)]string
}

var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed)
	return w
}}

// encodeNoteText packs the columns of a full-text row: each as a
// uvarint length and its bytes, the whole deflated.
func encodeNoteText(cols [len(ftsColumns)]string) []byte {
	var raw []byte
	for _, c := range cols {
		raw = binary.AppendUvarint(raw, uint64(len(c)))
		raw = append(raw, c...)
	}
	return compressText(string(raw))
}

// compressText deflates text.
func compressText(text string) []byte {
	var out bytes.Buffer
	w := flateWriters.Get().(*flate.Writer)
	w.Reset(&out)
	io.WriteString(w, text) // a bytes.Buffer does not fail
	w.Close()
	flateWriters.Put(w)
	return out.Bytes()
}

// expandText inflates what compressText deflated.
func expandText(z []byte) (string, error) {
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		return "", fmt.Errorf("%w: %v", errNoteText, err)
	}
	return string(raw), nil
}

var errNoteText = errors.New("bad note_text row")

// decodeNoteText unpacks what encodeNoteText packed.
func decodeNoteText(z []byte) ([len(ftsColumns)]string, error) {
	lastText.Lock()
	defer lastText.Unlock()
	if lastText.z != nil && bytes.Equal(lastText.z, z) {
		return lastText.cols, nil
	}
	var cols [len(ftsColumns)]string
	text, err := expandText(z)
	if err != nil {
		return cols, err
	}
	raw := []byte(text)
	for i := range cols {
		n, k := binary.Uvarint(raw)
		if k <= 0 || uint64(len(raw)-k) < n {
			return cols, errNoteText
		}
		cols[i] = string(raw[k : k+int(n)])
		raw = raw[k+int(n):]
	}
	lastText.z = bytes.Clone(z)
	lastText.cols = cols
	return cols, nil
}

// ftsRowArgs returns rowid and the columns as the arguments of an INSERT
// into fts.
func ftsRowArgs(rowid any, cols [len(ftsColumns)]string) []any {
	args := []any{rowid}
	for _, c := range cols {
		args = append(args, c)
	}
	return args
}

// migrateNoteText brings an index of schema 1 to 6 (made up to schema 6
// by the migrations before it) to schema 7 in place: each row of the old
// full-text table, which kept its own copy of every column, is written
// to note_text and indexed again in a table whose content is
// note_text_cols; fts_anchor, whose text nothing reads back, is made
// again without content (contentless_delete). Notes, links and vectors
// stay.
func migrateNoteText(ctx context.Context, tx *sql.Tx) error {
	// A table already of schema 7 (a file whose version was set back)
	// stays as it is.
	ftsDone, err := tableSQLHas(ctx, tx, "fts", "note_text_cols")
	if err != nil {
		return err
	}
	if !ftsDone { // or of schema 8
		if ftsDone, err = tableSQLHas(ctx, tx, "fts", "contentless_delete"); err != nil {
			return err
		}
	}
	anchorDone, err := tableSQLHas(ctx, tx, "fts_anchor", "contentless_delete")
	if err != nil {
		return err
	}
	if err := execAll(ctx, tx, splitSchema(noteTextSchema)...); err != nil {
		return err
	}
	if !ftsDone {
		if err := migrateNoteTextRows(ctx, tx); err != nil {
			return err
		}
	}
	if anchorDone {
		return nil
	}
	return execAll(ctx, tx,
		"DROP TABLE IF EXISTS fts_anchor_vocab",
		"ALTER TABLE fts_anchor RENAME TO fts_anchor_v6",
		"CREATE VIRTUAL TABLE fts_anchor USING "+ftsTable,
		`INSERT INTO fts_anchor(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
			SELECT rowid, title, body, cjktitle, cjk, headings, tags, props, stems FROM fts_anchor_v6`,
		"DROP TABLE fts_anchor_v6",
	)
}

// tableSQLHas reports whether the CREATE statement of table has text.
func tableSQLHas(ctx context.Context, tx *sql.Tx, table, text string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = ? AND instr(sql, ?) > 0", table, text).Scan(&n)
	return n > 0, err
}

// migrateNoteTextRows moves each row of the full-text table of schema 6
// to note_text and a new fts, a batch at a time.
func migrateNoteTextRows(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(ctx, tx,
		"DROP TABLE IF EXISTS fts_vocab",
		"ALTER TABLE fts RENAME TO fts_v6",
		"CREATE VIRTUAL TABLE fts USING "+ftsTableV7,
	); err != nil {
		return err
	}
	type row struct {
		rowid int64
		cols  [len(ftsColumns)]string
	}
	err := inBatches(ctx, tx, `SELECT rowid, title, body, cjktitle, cjk, headings, tags, props, stems
		FROM fts_v6 WHERE rowid > ? ORDER BY rowid LIMIT ?`, func(rows *sql.Rows, r *row) error {
		var cols [len(ftsColumns)]sql.NullString
		dest := []any{&r.rowid}
		for i := range cols {
			dest = append(dest, &cols[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		for i, c := range cols {
			r.cols[i] = c.String
		}
		return nil
	}, func(r *row) int64 { return r.rowid }, func(r *row) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO note_text(doc, z) VALUES (?, ?)
			ON CONFLICT(doc) DO UPDATE SET z = excluded.z`, r.rowid, encodeNoteText(r.cols)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO fts(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, ftsRowArgs(r.rowid, r.cols)...)
		return err
	})
	if err != nil {
		return err
	}
	// Rows of note_text with no row in the old table (a file whose
	// version was set back) are dropped: fts has no row of them.
	return execAll(ctx, tx,
		"DELETE FROM note_text WHERE doc NOT IN (SELECT rowid FROM fts_v6)",
		"DROP TABLE fts_v6",
	)
}
