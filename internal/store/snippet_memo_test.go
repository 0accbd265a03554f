package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestKeptSnippets: KeywordSnippets takes a snippet it made before for
// the same note and terms while the note's row and file are the same,
// and makes it again when the file changed (even before the index knows),
// when the note's row changed, or for other terms; each snippet it makes
// is Keyword's own. It keeps at most SnipMemoSize.
func TestKeptSnippets(t *testing.T) {
	ctx := context.Background()
	s, root, writeNote := vaultStore(t)
	write := func(id, title, body string) {
		t.Helper()
		writeNote(id, title, body, body)
	}
	write("A.md", "A", "# A\n\nThe harbour light is lit at dusk.\n")
	write("B.md", "B", "The keeper rows out of the harbour at dawn.\n")
	snippets := func(what, query string) map[string]string {
		t.Helper()
		want, err := s.Keyword(ctx, KeywordQuery{Text: query})
		if err != nil || len(want) == 0 {
			t.Fatalf("%s: Keyword(%s) = %v, %v", what, query, want, err)
		}
		bare, err := s.Keyword(ctx, KeywordQuery{Text: query, NoSnippets: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.KeywordSnippets(ctx, bare)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range want {
			if got[h.ID] != h.Snippet && got[h.ID] != "kept" {
				t.Errorf("%s: KeywordSnippets(%s)[%s] = %q, want %q", what, query, h.ID, got[h.ID], h.Snippet)
			}
		}
		return got
	}
	mark := func() { // every kept snippet made "kept"
		s.snips.mu.Lock()
		defer s.snips.mu.Unlock()
		for k, v := range s.snips.kept {
			v.snippet = "kept"
			s.snips.kept[k] = v
		}
	}
	snippets("first", "harbour")
	mark()
	if got := snippets("again", "harbour"); got["A.md"] != "kept" || got["B.md"] != "kept" {
		t.Errorf("the same search again made its snippets again: %q", got)
	}
	// A kept snippet needs no row in temp.snip.
	bare, err := s.Keyword(ctx, KeywordQuery{Text: "harbour", NoSnippets: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.snip.ExecContext(ctx, "DELETE FROM temp.snip_hash"); err != nil {
		t.Fatal(err)
	}
	if got, err := s.KeywordSnippets(ctx, bare); err != nil || got["A.md"] != "kept" || got["B.md"] != "kept" {
		t.Errorf("the same search again made its snippets again: %q, %v", got, err)
	}
	var rows int
	if err := s.snip.QueryRowContext(ctx, "SELECT count(*) FROM temp.snip_hash").Scan(&rows); err != nil || rows != 0 {
		t.Errorf("temp.snip rows made for kept snippets: %d, %v; want none", rows, err)
	}
	if got := snippets("other terms", "harbour light"); got["A.md"] == "kept" {
		t.Errorf("a search with other terms took a kept snippet: %q", got)
	}
	mark()
	// A's file changes on disk; B's row changes (its title).
	if err := os.WriteFile(filepath.Join(root, "A.md"), []byte("Fog over the harbour.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("B.md", "The Keeper", "The keeper rows out of the harbour at dawn.\n")
	if got := snippets("after changes", "harbour"); got["A.md"] == "kept" || got["B.md"] == "kept" {
		t.Errorf("snippets kept across changes to the file or the row: %q", got)
	}

	for i := range SnipMemoSize + 10 {
		s.snips.put(int64(i), "t", snipSource{}, "x")
	}
	if n := len(s.snips.kept); n != SnipMemoSize {
		t.Errorf("%d snippets kept, want at most %d", n, SnipMemoSize)
	}
}
