package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/vaultgraph/vaultgraph/vault"
)

// The full-text table fts keeps no text (contentless, with
// contentless_delete): a write deletes a row by its rowid without the
// old values. The snippets need each note's body: read from the note's
// file when the store knows the vault (WithVault), else kept deflated in
// note_body. The other columns are made again from the note's row
// (ftsCols). FTS5 makes a search's snippets from temp.snip, a table of
// the connection with the same columns and tokenizer that holds the
// hits' rows only (snipConn), so the same text gives the same snippets.
const noteBodySchema = `CREATE TABLE IF NOT EXISTS note_body (
	doc INTEGER PRIMARY KEY,
	z   BLOB NOT NULL
)`

// snipTable is temp.snip's module and columns: fts's, with content.
const snipTable = `fts5(
	title, body, cjktitle, cjk, headings, tags, props, stems,
	tokenize = 'unicode61 remove_diacritics 2'
)`

// Option is an option of Open.
type Option func(*Store)

// WithVault makes the store read the notes' bodies for snippets from their
// files under root (the notes' paths are relative to it) rather than keep
// a copy of them in the index: the notes it writes get no note_body row,
// and an index migrated from schema 7 keeps none.
func WithVault(root string) Option { return func(s *Store) { s.vault.Store(&root) } }

// IndexedBody is the text of a note's file src that the full-text index
// holds, its body: the file from bodyStart on, as valid UTF-8; nothing for
// an Excalidraw drawing or a file too big to parse. The text shares src's
// bytes when they are valid UTF-8: the caller must not change src
// afterwards.
func IndexedBody(id string, src []byte, bodyStart int) string {
	if strings.HasSuffix(strings.ToLower(id), ".excalidraw.md") || bodyStart < 0 || bodyStart > len(src) || len(src) > vault.MaxParseBytes {
		return ""
	}
	body := src[bodyStart:]
	if utf8.Valid(body) {
		return unsafe.String(unsafe.SliceData(body), len(body))
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// fileBody reads the body of the note id at path (relative to the vault,
// as WithVault gave it) from its file; ok is false without a vault or a
// readable file.
func (s *Store) fileBody(id, path string, bodyStart int) (body string, ok bool) {
	root := s.vault.Load()
	if root == nil || !filepath.IsLocal(filepath.FromSlash(path)) {
		return "", false
	}
	src, err := os.ReadFile(filepath.Join(*root, filepath.FromSlash(path)))
	if err != nil {
		return "", false
	}
	return IndexedBody(id, src, bodyStart), true
}

// ftsCols returns the full-text row of note n with body body.
func ftsCols(n *vault.Note, body string) [len(ftsColumns)]string {
	names := ftsTitle(n.Title, n.Aliases)
	heads, tagWords, props := headingText(n), tagText(n), propText(n)
	return [len(ftsColumns)]string{names, body, hiddenText(names), hiddenText(body), heads, tagWords, props,
		stemText(names, heads, tagWords, props, body)}
}

// noteFields decodes what the full-text row uses of a notes row: its
// title, aliases, tags, properties and headings. A bad value only loses
// its part.
func noteFields(id, title, aliases, tags, props string, anchors sql.NullString) *vault.Note {
	n := &vault.Note{ID: id, Title: title}
	_ = decodeJSON(aliases, &n.Aliases)
	_ = decodeJSON(tags, &n.Tags)
	if props != "" {
		n.Properties, _ = decodeProperties(props)
	}
	if anchors.Valid {
		_ = decodeAnchors(anchors.String, n)
	}
	return n
}

// snipConn returns the store's snippet connection, its temp.snip
// holding the full-text rows of the notes rowids (those still in the
// index) but those skip reports (fillSnip). Searches use it one at a
// time, so that the rows it keeps serve them all; closing what snipConn
// returns hands the connection to the next search.
func (s *Store) snipConn(ctx context.Context, rowids []int64, skip snipSkip) (*snipConnection, error) {
	s.snipMu.Lock()
	var err error
	// The connection may be broken (a search cancelled on it): a new one
	// is tried once.
	for try := 0; try < 2 && (try == 0 || ctx.Err() == nil); try++ {
		if s.snip == nil {
			var conn *sql.Conn
			if conn, err = s.db.Conn(ctx); err != nil {
				break
			}
			s.snip = &snipDB{Conn: conn}
		}
		var made map[int64]snipSource
		if made, err = s.fillSnip(ctx, s.snip, rowids, skip); err == nil {
			var once sync.Once
			return &snipConnection{snipDB: s.snip, made: made, release: func() { once.Do(s.snipMu.Unlock) }}, nil
		}
		s.snip.Close()
		s.snip = nil
	}
	s.snipMu.Unlock()
	return nil, fmt.Errorf("keyword snippets: %w", err)
}

// snipSkip tells fillSnip which rows of temp.snip not to make: given a
// row's rowid, what it is made from and its title and columns (made when
// asked for), true leaves it as it is.
type snipSkip func(doc int64, src snipSource, row func() (title string, cols [len(ftsColumns)]string)) bool

// snipConnection is the snippet connection lent to one search, and
// what the rows of temp.snip it asked for were made from (fillSnip).
type snipConnection struct {
	*snipDB
	made    map[int64]snipSource
	release func()
}

// Close hands the connection to the next search; it stays open.
func (c *snipConnection) Close() error {
	c.release()
	return nil
}

// closeSnip closes the snippet connection, if one is open.
func (s *Store) closeSnip() {
	s.snipMu.Lock()
	defer s.snipMu.Unlock()
	if s.snip != nil {
		s.snip.Close()
		s.snip = nil
	}
}

// SnipRowsKept is how many full-text rows temp.snip keeps from one
// search to the next (fillSnip): a note that is a hit again is not
// tokenized again while its row and text stay the same.
const SnipRowsKept = 1024

// fillSnip makes temp.snip hold the full-text rows of rowids, their
// bodies from note_body or else from their files. A row it holds already
// is kept when the digest of what it was made of (temp.snip_hash,
// snipDigest) is the one it would be made of now. Rows of other notes may
// stay: every query of temp.snip names the rowids it wants. It returns
// what each row of rowids is made from; a row skip (when not nil)
// reports is left as it is (its snippet is kept, or made in Go).
func (s *Store) fillSnip(ctx context.Context, conn *snipDB, rowids []int64, skip snipSkip) (map[int64]snipSource, error) {
	if err := s.startSnip(ctx, conn, len(rowids)); err != nil {
		return nil, err
	}
	list, _ := json.Marshal(rowids) // numbers always marshal
	rows, err := conn.QueryContext(ctx, `SELECT n.doc, n.id, `+notePathOf("n")+`, n.body_start, n.title, n.aliases, n.tags, n.properties, n.anchors, b.z,
			n.hash, h.digest, h.doc IS NOT NULL OR s.rowid IS NOT NULL
		FROM notes n LEFT JOIN note_body b ON b.doc = n.doc
			LEFT JOIN temp.snip_hash h ON h.doc = n.doc LEFT JOIN temp.snip s ON s.rowid = n.doc
		WHERE n.doc IN (SELECT value FROM json_each(?))`, string(list))
	type row struct {
		doc                                   int64
		id, path, title, aliases, tags, props string
		bodyStart                             int
		anchors                               sql.NullString
		z                                     []byte
		hash                                  string
		kept                                  []byte // the digest its row in temp.snip was made of
		held                                  bool   // a row in temp.snip or temp.snip_hash
	}
	got, err := scanRows(rows, err, func(rows *sql.Rows, r *row) error {
		return rows.Scan(&r.doc, &r.id, &r.path, &r.bodyStart, &r.title, &r.aliases, &r.tags, &r.props, &r.anchors, &r.z,
			&r.hash, &r.kept, &r.held)
	})
	if err != nil {
		return nil, err
	}
	made := make(map[int64]snipSource, len(got))
	for _, r := range got {
		body, ok := "", false
		var cols *[len(ftsColumns)]string // made once, when needed
		if r.z != nil {
			text, err := expandText(r.z)
			body, ok = text, err == nil
		} else {
			body, ok = s.fileBody(r.id, r.path, r.bodyStart)
		}
		rowOf := func() (string, [len(ftsColumns)]string) {
			if cols == nil {
				c := ftsCols(noteFields(r.id, r.title, r.aliases, r.tags, r.props, r.anchors), body)
				cols = &c
			}
			return r.title, *cols
		}
		var digest []byte
		if ok {
			anchors := "\x00" // none
			if r.anchors.Valid {
				anchors = "\x01" + r.anchors.String
			}
			src := snipSource{id: r.id, digest: snipDigest(r.id, r.title, r.aliases, r.tags, r.props, anchors, r.hash, body)}
			made[r.doc] = src
			if skip != nil && skip(r.doc, src, rowOf) {
				continue
			}
			if digest = src.digest[:]; string(r.kept) == string(digest) {
				continue // the row as it would be made again
			}
			rowOf()
		}
		// cols is nil for a damaged row or a file gone: no snippet.
		if err := remakeSnipRow(ctx, conn, r.doc, r.held, cols, digest); err != nil {
			return nil, err
		}
	}
	return made, nil
}

// remakeSnipRow replaces the row doc of temp.snip (held: it has one) by
// cols, made of what has digest (snipDigest); cols nil only deletes it.
func remakeSnipRow(ctx context.Context, conn *snipDB, doc int64, held bool, cols *[len(ftsColumns)]string, digest []byte) error {
	for _, stmt := range []string{"DELETE FROM temp.snip WHERE rowid = ?", "DELETE FROM temp.snip_hash WHERE doc = ?"} {
		if !held {
			break // nothing to delete
		}
		if _, err := conn.ExecContext(ctx, stmt, doc); err != nil {
			return err
		}
	}
	if cols == nil {
		return nil
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO temp.snip(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, ftsRowArgs(doc, *cols)...); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, "INSERT INTO temp.snip_hash(doc, digest) VALUES (?, ?)", doc, digest)
	return err
}

// startSnip makes the connection's temp.snip and temp.snip_hash, and
// empties them when adding n rows could take them past SnipRowsKept: by
// making them again, as deleting each row of an FTS5 table with content
// tokenizes its text again.
func (s *Store) startSnip(ctx context.Context, conn *snipDB, n int) error {
	create := []string{"CREATE VIRTUAL TABLE IF NOT EXISTS temp.snip USING " + snipTable,
		"CREATE TABLE IF NOT EXISTS temp.snip_hash (doc INTEGER PRIMARY KEY, digest BLOB NOT NULL)"}
	if !conn.made {
		if err := execAll(ctx, conn.Conn, create...); err != nil {
			return err
		}
		conn.made = true
	}
	var kept int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM temp.snip_hash").Scan(&kept); err != nil {
		return err
	}
	if kept+n <= SnipRowsKept {
		return nil
	}
	return execAll(ctx, conn.Conn, append([]string{"DROP TABLE temp.snip", "DROP TABLE temp.snip_hash"}, create...)...)
}

// migrateContentless brings the full-text table of schema 7 (its content
// the view note_text_cols over note_text) to schema 8 in place: a
// contentless fts is filled from the same columns, each body goes to
// note_body when copyBodies is set (a store not given the vault, which
// has no other place to read them from), and note_text and its view are
// dropped. Notes, links and vectors stay.
func migrateContentless(ctx context.Context, tx *sql.Tx, copyBodies bool) error {
	if v7, err := tableSQLHas(ctx, tx, "fts", "note_text_cols"); err != nil || !v7 {
		return err
	}
	if err := execAll(ctx, tx,
		"DROP TABLE IF EXISTS fts_vocab",
		"ALTER TABLE fts RENAME TO fts_v7",
		"CREATE VIRTUAL TABLE fts USING "+ftsTable,
		`INSERT INTO fts(rowid, title, body, cjktitle, cjk, headings, tags, props, stems)
			SELECT doc, title, body, cjktitle, cjk, headings, tags, props, stems FROM note_text_cols`,
		noteBodySchema,
	); err != nil {
		return err
	}
	const batch = 500
	last := int64(-1 << 63)
	for copyBodies {
		n, err := migrateBodies(ctx, tx, &last, batch)
		if err != nil {
			return err
		}
		if n < batch {
			break
		}
	}
	return execAll(ctx, tx, "DROP TABLE fts_v7", "DROP VIEW note_text_cols", "DROP TABLE note_text")
}

// migrateBodies copies the bodies of the next rows (after *last) of
// note_text to note_body. It returns how many rows it read.
func migrateBodies(ctx context.Context, tx *sql.Tx, last *int64, batch int) (int, error) {
	type row struct {
		doc int64
		z   []byte
	}
	rows, err := tx.QueryContext(ctx, "SELECT doc, z FROM note_text WHERE doc > ? ORDER BY doc LIMIT ?", *last, batch)
	got, err := scanRows(rows, err, func(rows *sql.Rows, r *row) error { return rows.Scan(&r.doc, &r.z) })
	if err != nil {
		return 0, err
	}
	for _, r := range got {
		*last = r.doc
		cols, err := decodeNoteText(r.z)
		if err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO note_body(doc, z) VALUES (?, ?)", r.doc, compressText(cols[1])); err != nil {
			return 0, err
		}
	}
	return len(got), nil
}
