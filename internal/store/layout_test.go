package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
)

// queryLines returns the rows of query, each as one line.
func queryLines(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Queries of the same rows in schema 7 (tables) and 8 (views).
const (
	linkRows7 = `SELECT source, seq, kind, target, fragment, alias, property, start, end, target_start, target_end,
		line, resolved, status, context FROM links ORDER BY source, seq`
	linkRows8  = `SELECT * FROM link_rows ORDER BY source, seq`
	vectorRows = `SELECT note, chunk, model, dim, hash, hex(vec) FROM %s ORDER BY note, chunk`
	noteRows   = `SELECT rowid, id, iif(path = '', id, path), title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors FROM notes ORDER BY rowid`
)

// TestOpenSchema7Docs: an index written by the vaultgraph of schema 7
// (testdata/schema7-testvault.db: testvault indexed with the builtin
// embedder) is brought to the layout of schema 8 in place: the notes keep
// their rowids (so fts stays as it was), the links and vectors read back
// through link_rows and vector_rows are the rows of schema 7, the tags
// table is gone, and no note is parsed or embedded again.
func TestOpenSchema7Docs(t *testing.T) {
	ctx := context.Background()
	var wantNotes, wantLinks, wantVectors, wantFTS []string
	path := readTestdata(t, "schema7-testvault.db", func(db *sql.DB) {
		wantNotes, wantLinks = queryLines(t, db, noteRows), queryLines(t, db, linkRows7)
		wantVectors, wantFTS = queryLines(t, db, fmt.Sprintf(vectorRows, "vectors")), ftsRows(t, db)
	})
	if len(wantNotes) != 13 || len(wantLinks) == 0 || len(wantVectors) == 0 {
		t.Fatalf("schema 7 file: %d notes, %d links, %d vectors", len(wantNotes), len(wantLinks), len(wantVectors))
	}

	s, reason, err := OpenOrRebuild(ctx, path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 7) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"notes", queryLines(t, s.db, noteRows), wantNotes},
		{"links", queryLines(t, s.db, linkRows8), wantLinks},
		{"vectors", queryLines(t, s.db, fmt.Sprintf(vectorRows, "vector_rows")), wantVectors},
		{"fts", ftsRows(t, s.db), wantFTS},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s after the migration =\n%s\nwant\n%s", c.what, strings.Join(c.got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	checkFTS(t, s)
	var tags int
	if err := s.db.QueryRow("SELECT count(*) FROM sqlite_schema WHERE name = 'tags'").Scan(&tags); err != nil || tags != 0 {
		t.Errorf("tags table after the migration: %d, %v; want none", tags, err)
	}
	snap := loadMigrated(t, s, 13)
	hashes, err := s.VectorHashes(ctx, embed.BuiltinModel, embed.BuiltinDim)
	if err != nil || len(hashes) == 0 {
		t.Errorf("VectorHashes after the migration = %v, %v; want the notes' hashes: nothing embedded again", hashes, err)
	}
	for _, r := range snap.Notes {
		if h, ok := hashes[r.Note.ID]; ok && h != r.Note.Hash {
			t.Errorf("vector hash of %s = %q, want the note's %q", r.Note.ID, h, r.Note.Hash)
		}
	}
	if got := keywordIDs(t, s, "qualified"); !slices.Contains(got, "Projects/Alpha Plan.md") {
		t.Errorf("Keyword(qualified) = %q: the anchor text of Projects/Alpha Plan.md is lost", got)
	}
}

// TestPendingNotes: a link may resolve to a note the index does not hold
// yet (a cold index writes its notes a chunk at a time). Load gives the
// link that note's ID and no note for it; the note's upsert gives the
// link its key; a pending note nothing resolves to any more goes when
// the index is consistent.
func TestPendingNotes(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	a := sampleRecord("A.md")
	a.Resolved[0] = "Later.md"
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{a}}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Load(ctx)
	if err != nil || len(snap.Notes) != 1 || snap.Notes[0].Resolved[0] != "Later.md" {
		t.Fatalf("Load = %d notes, %v; want A.md alone, its first link resolved to Later.md", len(snap.Notes), err)
	}
	later := sampleRecord("Later.md")
	later.Note.Links, later.Resolved, later.Status = nil, nil, nil
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{later}}); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Load(ctx); err != nil || len(snap.Notes) != 2 {
		t.Fatalf("Load = %d notes, %v; want A.md and Later.md", len(snap.Notes), err)
	}
	a.Resolved[0] = "Gone.md"
	if err := s.Apply(ctx, &Batch{Relinks: []*Record{a}}); err != nil {
		t.Fatal(err)
	}
	a.Resolved[0], a.Status[0] = "", "broken"
	if err := s.Apply(ctx, &Batch{Relinks: []*Record{a}, Meta: map[string]string{"consistent": "1"}}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM pending").Scan(&n); err != nil || n != 0 {
		t.Errorf("pending rows left = %d, %v; want none", n, err)
	}
	if err := s.Apply(ctx, &Batch{Deletes: []string{"Later.md"}}); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Load(ctx); err != nil || len(snap.Notes) != 1 || snap.Notes[0].Status[0] != "broken" {
		t.Errorf("Load after the delete = %d notes, %v; want A.md with its first link broken", len(snap.Notes), err)
	}
}

// loadMigrated loads the migrated index of s, which must hold want notes,
// each with its hash (a note without would be parsed again).
func loadMigrated(t *testing.T, s *Store, want int) *Snapshot {
	t.Helper()
	snap, err := s.Load(context.Background())
	if err != nil || len(snap.Notes) != want {
		t.Fatalf("Load = %d notes, %v; want %d", len(snap.Notes), err, want)
	}
	for _, r := range snap.Notes {
		if r.Note.Hash == "" {
			t.Errorf("%s has no hash after the migration: it would be parsed again", r.Note.ID)
		}
	}
	return snap
}

// TestOpenSchema7WithVault: a store given the vault (as the engine's is)
// keeps no copy of the bodies when it migrates an index of schema 7.
func TestOpenSchema7WithVault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.db")
	copyFile(t, filepath.Join("testdata", "schema7-testvault.db"), path)
	s, reason, err := OpenOrRebuild(context.Background(), path, WithVault(dir))
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 7) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM note_body").Scan(&n); err != nil || n != 0 {
		t.Errorf("note_body rows = %d, %v; want none", n, err)
	}
	checkFTS(t, s)
}

// readTestdata copies testdata/name to a new temporary folder, calls fn
// with the copy open, and returns the copy's path (closed).
func readTestdata(t *testing.T, name string, fn func(db *sql.DB)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index.db")
	copyFile(t, filepath.Join("testdata", name), path)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fn(db)
	return path
}
