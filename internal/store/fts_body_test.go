package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestSnippetsFromFiles: a store that knows the vault (WithVault) keeps no
// copy of the bodies (no note_body rows) and makes its snippets from the
// files, the same as from a copy; a note whose file is gone (the watcher
// is about to drop it) is left out, as a note deleted meanwhile is.
func TestSnippetsFromFiles(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	src := "---\ntitle: Harbour\n---\nThe harbour light is lit at dusk by the keeper.\n"
	if err := os.WriteFile(filepath.Join(root, "H.md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	start := strings.Index(src, "The harbour")
	rec := func() *Record {
		return &Record{Note: &vault.Note{ID: "H.md", Title: "Harbour", BodyStart: start}, Path: "H.md",
			Body: IndexedBody("H.md", []byte(src), start)}
	}
	copied, _ := openTemp(t)
	files, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"), WithVault(root))
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	for _, s := range []*Store{copied, files} {
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{rec()}}); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := files.db.QueryRow("SELECT count(*) FROM note_body").Scan(&n); err != nil || n != 0 {
		t.Errorf("note_body rows WithVault = %d, %v; want none", n, err)
	}
	want, err := copied.Keyword(ctx, KeywordQuery{Text: "keeper"})
	if err != nil || len(want) != 1 || !strings.Contains(want[0].Snippet, HighlightOpen+"keeper") {
		t.Fatalf("Keyword(keeper) from note_body = %+v, %v; want one hit, the word highlighted", want, err)
	}
	got, err := files.Keyword(ctx, KeywordQuery{Text: "keeper"})
	if err != nil || len(got) != 1 || got[0].Snippet != want[0].Snippet {
		t.Errorf("Keyword(keeper) from the file = %+v, %v; want the snippet %q", got, err, want[0].Snippet)
	}
	if err := os.Remove(filepath.Join(root, "H.md")); err != nil {
		t.Fatal(err)
	}
	got, err = files.Keyword(ctx, KeywordQuery{Text: "keeper"})
	if err != nil || len(got) != 0 {
		t.Errorf("Keyword(keeper) with the file gone = %+v, %v; want no hit", got, err)
	}
}

// TestSnipRowsKept: the snippet connection's temp.snip keeps the rows it
// made for the next search, as long as the note's hash and body are the
// ones they were made of, and holds no more than SnipRowsKept rows from
// one search to the next; searches share that connection.
func TestSnipRowsKept(t *testing.T) {
	ctx := context.Background()
	s, root, writeNote := vaultStore(t)
	write := func(id, body, hash string) {
		t.Helper()
		writeNote(id, strings.TrimSuffix(id, ".md"), body, hash)
	}
	doc := func(id string) int64 {
		t.Helper()
		var d int64
		if err := s.db.QueryRow("SELECT doc FROM notes WHERE id = ?", id).Scan(&d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	write("A.md", "The harbour light is lit at dusk.\n", "a1")
	write("B.md", "The keeper rows out at dawn.\n", "b1")
	a, b := doc("A.md"), doc("B.md")
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fill := func(rowids ...int64) {
		t.Helper()
		if _, err := s.fillSnip(ctx, &snipDB{Conn: conn}, rowids, nil); err != nil {
			t.Fatal(err)
		}
	}
	row := func(rowid int64) (title, body string) {
		t.Helper()
		err := conn.QueryRowContext(ctx, "SELECT title, body FROM temp.snip WHERE rowid = ?", rowid).Scan(&title, &body)
		if err != nil {
			t.Fatalf("temp.snip row %d: %v", rowid, err)
		}
		return title, body
	}
	fill(a, b)
	// Mark both rows: a row made again loses the mark.
	if _, err := conn.ExecContext(ctx, "UPDATE temp.snip SET title = 'marked'"); err != nil {
		t.Fatal(err)
	}
	fill(a, b)
	if ta, _ := row(a); ta != "marked" {
		t.Errorf("A's row after the same search again has title %q: made again, want it kept", ta)
	}
	write("B.md", "The keeper rows out at dawn.\n", "b2") // same text, new hash
	if err := os.WriteFile(filepath.Join(root, "A.md"), []byte("Fog over the harbour.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fill(a, b)
	if ta, body := row(a); ta == "marked" || body != "Fog over the harbour.\n" {
		t.Errorf("A's row after its file changed = %q, %q; want it made again from the file", ta, body)
	}
	if tb, _ := row(b); tb != "B" {
		t.Errorf("B's row after its hash changed has title %q, want it made again (B)", tb)
	}

	var many []int64
	for i := range SnipRowsKept {
		id := fmt.Sprintf("N%03d.md", i)
		write(id, "Note number "+id+".\n", id)
		many = append(many, doc(id))
	}
	fill(many...)
	fill(a)
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM temp.snip_hash").Scan(&n); err != nil || n != 1 {
		t.Errorf("temp.snip rows after a search past SnipRowsKept = %d, %v; want only that search's (1)", n, err)
	}

	// Searches make their snippets on one connection, lent in turn.
	first, err := s.snipConn(ctx, []int64{a}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	second, err := s.snipConn(ctx, []int64{b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if first.Conn != second.Conn {
		t.Error("two searches one after the other made their snippets on different connections")
	}
	var rows int
	if err := second.QueryRowContext(ctx, "SELECT count(*) FROM temp.snip_hash WHERE doc IN (?, ?)", a, b).Scan(&rows); err != nil || rows != 2 {
		t.Errorf("the snippet connection holds %d, %v of the two searches' rows, want both", rows, err)
	}
}

// vaultStore opens a store that reads the bodies for snippets from the
// files of root (WithVault), and returns it, root and write, which
// writes a note's file and its row (with hash).
func vaultStore(t *testing.T) (s *Store, root string, write func(id, title, body, hash string)) {
	t.Helper()
	ctx := context.Background()
	root = t.TempDir()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"), WithVault(root))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, root, func(id, title, body, hash string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, id), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r := &Record{Note: &vault.Note{ID: id, Title: title, Hash: hash}, Path: id, Body: body}
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{r}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestIndexedBodyShares: the body of a valid UTF-8 file shares its bytes
// (no allocation); invalid bytes are replaced in a copy.
func TestIndexedBodyShares(t *testing.T) {
	src := []byte("---\ntitle: x\n---\nBody text é.\n")
	if got, want := IndexedBody("A.md", src, 17), "Body text é.\n"; got != want {
		t.Errorf("IndexedBody = %q, want %q", got, want)
	}
	if n := testing.AllocsPerRun(10, func() { _ = IndexedBody("a.md", src, 17) }); n != 0 {
		t.Errorf("IndexedBody of valid UTF-8 allocates %v times, want 0", n)
	}
	bad := []byte("a\xffb")
	if got, want := IndexedBody("B.md", bad, 0), "a\uFFFDb"; got != want {
		t.Errorf("IndexedBody(%q) = %q, want %q", bad, got, want)
	}
	if string(bad) != "a\xffb" {
		t.Errorf("src changed to %q", bad)
	}
}
