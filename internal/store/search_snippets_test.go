package store

import (
	"context"
	"maps"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestKeywordSnippetsNoteMadeAgain: KeywordSnippets takes the rowids
// the hits were found at, but a note deleted and made again since (a new
// rowid) still gets its snippet, as when the notes were looked up by ID;
// a note gone gets none.
func TestKeywordSnippetsNoteMadeAgain(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	upsert := func(id, body string) {
		t.Helper()
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{{Note: &vault.Note{ID: id, Title: id}, Path: id, Body: body}}}); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(id string) {
		t.Helper()
		if err := s.Apply(ctx, &Batch{Deletes: []string{id}}); err != nil {
			t.Fatal(err)
		}
	}
	upsert("Z.md", "the needle went")
	upsert("X.md", "another needle")
	bare, err := s.Keyword(ctx, KeywordQuery{Text: "needle", NoSnippets: true})
	if err != nil || len(bare) != 2 || bare[0].doc == 0 || bare[1].doc == 0 {
		t.Fatalf("Keyword(needle) = %+v, %v; want X.md and Z.md with their rowids", bare, err)
	}
	remove("Z.md")
	upsert("Z.md", "a needle came")
	want := map[string]string{"X.md": "another **needle**", "Z.md": "a **needle** came"}
	snips, err := s.KeywordSnippets(ctx, bare)
	if err != nil || !maps.Equal(snips, want) {
		t.Errorf("KeywordSnippets(Z.md made again) = %q, %v; want %q", snips, err, want)
	}
	remove("Z.md")
	delete(want, "Z.md")
	snips, err = s.KeywordSnippets(ctx, bare)
	if err != nil || !maps.Equal(snips, want) {
		t.Errorf("KeywordSnippets(Z.md gone) = %q, %v; want %q", snips, err, want)
	}
}
