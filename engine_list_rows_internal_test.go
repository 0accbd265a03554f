package vaultgraph

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// checkRows checks that e.rows holds one row per note of e.notes, at the
// note's place, with the note's ID and times, and that the pages by
// -modified read from e.recent are those of a pass over the rows.
func checkRows(t *testing.T, e *Engine, when string) {
	t.Helper()
	checkRecent(t, e, when)
	e.mu.RLock()
	defer e.mu.RUnlock()
	if len(e.rows) != len(e.notes) {
		t.Errorf("%s: %d rows for %d notes", when, len(e.rows), len(e.notes))
	}
	for id, ns := range e.notes {
		if int(ns.row) >= len(e.rows) {
			t.Errorf("%s: %s at row %d of %d", when, id, ns.row, len(e.rows))
			continue
		}
		r := e.rows[ns.row]
		if r.ns != ns || r.id != id || !r.modified.Equal(ns.note.ModTime) || !r.created.Equal(created(ns.note)) {
			t.Errorf("%s: row %d = %s %v %v, want %s %v %v", when, ns.row, r.id, r.created, r.modified, id, created(ns.note), ns.note.ModTime)
		}
	}
}

// checkRecent checks every page of list_nodes by -modified, read from
// e.recent, against the same pages from a pass over every note (a folder
// filter that keeps them all).
func checkRecent(t *testing.T, e *Engine, when string) {
	t.Helper()
	ctx := context.Background()
	for page := 1; ; page++ {
		q := ListQuery{SortBy: []string{"-modified"}, Page: page, Limit: 7}
		got, err := e.ListNodes(ctx, q)
		if err != nil {
			t.Fatalf("%s: ListNodes page %d: %v", when, page, err)
		}
		q.Folder = "/"
		want, err := e.ListNodes(ctx, q)
		if err != nil {
			t.Fatalf("%s: ListNodes page %d of folder /: %v", when, page, err)
		}
		ids := func(nodes []*Node) (out []string) {
			for _, n := range nodes {
				out = append(out, n.ID)
			}
			return out
		}
		if g, w := ids(got.Nodes), ids(want.Nodes); !slices.Equal(g, w) || got.Pages != want.Pages {
			t.Errorf("%s: page %d by -modified = %v %+v, want %v %+v", when, page, g, got.Pages, w, want.Pages)
		}
		if page >= want.TotalPages {
			return
		}
	}
}

// TestNoteRowsInStep: the rows follow every way notes come and go:
// a load, creates, updates, a rename, a delete, files changed, touched
// and removed outside, a note that can no longer be parsed, and a warm
// start from the index.
func TestNoteRowsInStep(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	e := New(Options{Vault: dir, Index: index})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	checkRows(t, e, "after a cold start")
	for _, title := range []string{"Rows A", "Rows B", "Rows C"} {
		if _, err := e.CreateNode(ctx, NewNote{Title: title, Content: "see [[Home]]"}); err != nil {
			t.Fatal(err)
		}
	}
	checkRows(t, e, "after creates")
	body, title := "new body", "Rows D"
	if _, err := e.UpdateNode(ctx, NoteUpdate{ID: "Rows A.md", Content: &body}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpdateNode(ctx, NoteUpdate{ID: "Rows B.md", Title: &title}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteNode(ctx, "Rows A.md", ""); err != nil {
		t.Fatal(err)
	}
	checkRows(t, e, "after an update, a rename and a delete")
	later := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := os.Chtimes(filepath.Join(dir, "Home.md"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Outside.md"), []byte("made outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "Rows C.md")); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, "Home.md", "Outside.md", "Rows C.md"); err != nil {
		t.Fatal(err)
	}
	checkRows(t, e, "after changes outside")
	// A note that turns binary is dropped (a problem is recorded).
	if err := os.WriteFile(filepath.Join(dir, "Outside.md"), []byte("now \x00 binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, "Outside.md"); err != nil {
		t.Fatal(err)
	}
	if _, ok := e.notes["Outside.md"]; ok {
		t.Error("Outside.md turned binary and is still a note: the test does not test")
	}
	checkRows(t, e, "after a note turned binary")
	if r := e.rows.of(e.notes["Home.md"]); !r.modified.Equal(later) {
		t.Errorf("touched Home.md: row time %v, want %v", r.modified, later)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = New(Options{Vault: dir, Index: index})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checkRows(t, e, "after a warm start")
}
