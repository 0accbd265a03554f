package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ftsRows returns what fts holds: per row and column, its tokens and
// their offsets as the index has them (fts5vocab 'instance', which reads
// the index, not the text), and per row its body as stored (fts.body up
// to schema 7, note_body since 8).
func ftsRows(t *testing.T, db *sql.DB) []string {
	t.Helper()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_instances USING fts5vocab(main, fts, 'instance')"); err != nil {
		t.Fatal(err)
	}
	query := func(q string, fn func(rows *sql.Rows) string) []string {
		rows, err := conn.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			out = append(out, fn(rows))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := query(`SELECT doc, col, group_concat(term || '@' || offset, ' ') FROM
		(SELECT doc, col, term, offset FROM temp.fts_instances ORDER BY doc, col, offset) GROUP BY doc, col ORDER BY doc, col`,
		func(rows *sql.Rows) string {
			var doc int64
			var col, terms string
			if err := rows.Scan(&doc, &col, &terms); err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(doc, " ", col, ": ", terms)
		})
	var v8 int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = 'note_body'").Scan(&v8); err != nil {
		t.Fatal(err)
	}
	bodies := "SELECT rowid, body FROM fts ORDER BY rowid"
	if v8 > 0 {
		bodies = "SELECT doc, z FROM note_body ORDER BY doc"
	}
	return append(out, query(bodies, func(rows *sql.Rows) string {
		var doc int64
		var body []byte
		if err := rows.Scan(&doc, &body); err != nil {
			t.Fatal(err)
		}
		if v8 > 0 {
			text, err := expandText(body)
			if err != nil {
				t.Fatal(err)
			}
			body = []byte(text)
		}
		return fmt.Sprintf("%d stored body: %q", doc, body)
	})...)
}

// checkFTS runs FTS5's integrity check of fts (its index against
// note_text) and of fts_anchor.
func checkFTS(t *testing.T, s *Store) {
	t.Helper()
	for _, table := range []string{"fts", "fts_anchor"} {
		if _, err := s.db.Exec("INSERT INTO " + table + "(" + table + ", rank) VALUES('integrity-check', 1)"); err != nil {
			t.Errorf("integrity-check %s = %v", table, err)
		}
	}
}

// TestOpenSchema6NoteText: an index written by the vaultgraph of schema
// 6 (testdata/schema6-testvault.db: testvault indexed with the builtin
// embedder) is brought up to date in place: fts indexes the same tokens
// of the same columns as the old table (schema 8 keeps no text), the
// bodies are kept, the vectors and the anchor text stay, and no note is
// parsed again.
func TestOpenSchema6NoteText(t *testing.T) {
	ctx := context.Background()
	var want []string
	readTestdata(t, "schema6-testvault.db", func(db *sql.DB) { want = ftsRows(t, db) })
	if bodies := len(slices.DeleteFunc(slices.Clone(want), func(l string) bool { return !strings.Contains(l, " stored body: ") })); bodies != 13 {
		t.Fatalf("schema 6 fts has %d rows, want 13", bodies)
	}

	path := filepath.Join(t.TempDir(), "index.db")
	copyFile(t, filepath.Join("testdata", "schema6-testvault.db"), path)
	s, reason, err := OpenOrRebuild(ctx, path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 6) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	if got := ftsRows(t, s.db); !slices.Equal(got, want) {
		t.Errorf("fts after the migration =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkFTS(t, s)
	var contentless int
	if err := s.db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name IN ('fts_content', 'fts_anchor_content')").Scan(&contentless); err != nil || contentless != 0 {
		t.Errorf("FTS5 content tables after the migration = %d, %v; want none", contentless, err)
	}
	loadMigrated(t, s, 13)
	var vectors int
	if err := s.db.QueryRow("SELECT count(*) FROM vectors").Scan(&vectors); err != nil || vectors == 0 {
		t.Errorf("vectors after the migration = %d, %v; want them kept", vectors, err)
	}
	tests := []struct {
		desc, give string
		want       []string
	}{
		{"a property value", "paused", []string{"Projects/Beta.md"}},
		{"anchor text: [[Projects/Alpha Plan|the plan, path-qualified]] in Home", "qualified", []string{"Home.md", "Projects/Alpha Plan.md"}},
		{"a body word", "malformed", []string{"Notes/Broken YAML.md"}},
	}
	for _, tt := range tests {
		if got := keywordIDs(t, s, tt.give); !slices.Equal(slices.Sorted(slices.Values(got)), tt.want) {
			t.Errorf("%s: Keyword(%q) = %q, want %q in any order", tt.desc, tt.give, got, tt.want)
		}
	}
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "malformed"})
	if err != nil || len(hits) != 1 || !strings.Contains(hits[0].Snippet, HighlightOpen+"malformed") {
		t.Errorf("Keyword(malformed) = %+v, %v; want one hit with the word highlighted in its snippet", hits, err)
	}
}

// TestNoteTextUpdates: updating and deleting notes keeps fts's index
// and note_text in agreement (FTS5 reads a row's old values from
// note_text when it deletes it), and a search finds the new words only.
func TestNoteTextUpdates(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	a, b := sampleRecord("A.md"), sampleRecord("B.md")
	b.Body = "The harbour light for beta"
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{a, b}}); err != nil {
		t.Fatal(err)
	}
	checkFTS(t, s)
	a2 := sampleRecord("A.md")
	a2.Body = "A lighthouse keeper"
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{a2}}); err != nil {
		t.Fatal(err)
	}
	checkFTS(t, s)
	if got := keywordIDs(t, s, "café"); len(got) != 0 {
		t.Errorf("Keyword(café) after the update = %q, want none", got)
	}
	if got := keywordIDs(t, s, "lighthouse"); !slices.Equal(got, []string{"A.md"}) {
		t.Errorf("Keyword(lighthouse) = %q, want [A.md]", got)
	}
	if err := s.Apply(ctx, &Batch{Deletes: []string{"B.md"}}); err != nil {
		t.Fatal(err)
	}
	checkFTS(t, s)
	if got := keywordIDs(t, s, "harbour"); len(got) != 0 {
		t.Errorf("Keyword(harbour) after the delete = %q, want none", got)
	}
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM note_body").Scan(&n); err != nil || n != 1 {
		t.Errorf("note_body rows = %d, %v; want 1", n, err)
	}
	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	checkFTS(t, s)
}

func TestNoteTextCodec(t *testing.T) {
	for _, give := range [][len(ftsColumns)]string{
		{},
		{"Title\nalias", "body with ünïcode and 中文", "", "x", "h1", "t", "p", "stem"},
	} {
		got, err := decodeNoteText(encodeNoteText(give))
		if err != nil || got != give {
			t.Errorf("decodeNoteText(encodeNoteText(%q)) = %q, %v", give, got, err)
		}
	}
	if _, err := decodeNoteText([]byte("not deflate")); err == nil {
		t.Error("decodeNoteText(garbage) = nil error, want one")
	}
}

// encodeNoteText packs the columns of a full-text row as schema 7 kept
// them in note_text (decodeNoteText).
func encodeNoteText(cols [len(ftsColumns)]string) []byte {
	var raw []byte
	for _, c := range cols {
		raw = binary.AppendUvarint(raw, uint64(len(c)))
		raw = append(raw, c...)
	}
	return compressText(string(raw))
}
