package store

import (
	"context"
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
