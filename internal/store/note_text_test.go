package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ftsRows returns every row of fts, all its columns, as one line each.
func ftsRows(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT rowid, " + strings.Join(ftsColumns[:], ", ") + " FROM fts ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var rowid int64
		var cols [len(ftsColumns)]sql.NullString
		dest := []any{&rowid}
		for i := range cols {
			dest = append(dest, &cols[i])
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(rowid, cols))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
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
// embedder) is brought up to date in place: fts reads the same columns
// from note_text as the old table held, its index agrees with them, the
// vectors and the anchor text stay, and no note is parsed again.
func TestOpenSchema6NoteText(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	copyFile(t, filepath.Join("testdata", "schema6-testvault.db"), old)
	db, err := sql.Open("sqlite", old)
	if err != nil {
		t.Fatal(err)
	}
	want := ftsRows(t, db)
	db.Close()
	if len(want) != 13 {
		t.Fatalf("schema 6 fts has %d rows, want 13", len(want))
	}

	path := filepath.Join(dir, "index.db")
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
	snap, err := s.Load(ctx)
	if err != nil || len(snap.Notes) != 13 {
		t.Fatalf("Load = %d notes, %v; want 13", len(snap.Notes), err)
	}
	for _, r := range snap.Notes {
		if r.Note.Hash == "" {
			t.Errorf("%s has no hash after the migration: it would be parsed again", r.Note.ID)
		}
	}
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
	if err := s.db.QueryRow("SELECT count(*) FROM note_text").Scan(&n); err != nil || n != 1 {
		t.Errorf("note_text rows = %d, %v; want 1", n, err)
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
