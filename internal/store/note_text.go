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
// note_text, its view and the function below are of schema 7:
// migrateContentless reads them.
var ftsColumns = [...]string{"title", "body", "cjktitle", "cjk", "headings", "tags", "props", "stems"}

// noteTextFunc is the SQL function that reads one column of a note_text
// row: noteTextFunc(z, i) is column i of ftsColumns.
const noteTextFunc = "vg_note_text"

// In schema 7 the full-text table fts kept no copy of its rows: its
// content was the view note_text_cols, which reads each note's columns
// from one compressed blob in note_text (noteTextFunc).

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

// decodeNoteText unpacks the columns of a full-text row of note_text:
// each as a uvarint length and its bytes, the whole deflated.
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
// by the migrations before it) to the full-text tables of schema 8 in
// place: each row of the old full-text table, which kept its own copy of
// every column, is indexed again in a table without content, its body
// kept in note_body unless the bodies are read from the files
// (copyBodies false); fts_anchor, whose text nothing reads back, is made
// again without content too. Notes, links and vectors stay.
func migrateNoteText(ctx context.Context, tx *sql.Tx, copyBodies bool) error {
	// A table already of schema 7 or 8 (a file whose version was set
	// back) stays as it is (migrateContentless).
	ftsDone, err := tableSQLHas(ctx, tx, "fts", "note_text_cols")
	if err != nil {
		return err
	}
	if !ftsDone {
		if ftsDone, err = tableSQLHas(ctx, tx, "fts", "contentless_delete"); err != nil {
			return err
		}
	}
	anchorDone, err := tableSQLHas(ctx, tx, "fts_anchor", "contentless_delete")
	if err != nil {
		return err
	}
	if !ftsDone {
		if err := migrateFTSRows(ctx, tx, copyBodies); err != nil {
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

// migrateFTSRows moves each row of the full-text table of schema 6 to a
// new fts, and its body to note_body when copyBodies, a batch at a time.
func migrateFTSRows(ctx context.Context, tx *sql.Tx, copyBodies bool) error {
	if err := execAll(ctx, tx,
		"DROP TABLE IF EXISTS fts_vocab",
		"ALTER TABLE fts RENAME TO fts_v6",
		"CREATE VIRTUAL TABLE fts USING "+ftsTable,
		noteBodySchema,
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
		if _, err := tx.ExecContext(ctx, `INSERT INTO fts(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, ftsRowArgs(r.rowid, r.cols)...); err != nil || !copyBodies {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO note_body(doc, z) VALUES (?, ?)", r.rowid, compressText(r.cols[1]))
		return err
	})
	if err != nil {
		return err
	}
	return execAll(ctx, tx, "DROP TABLE fts_v6")
}
