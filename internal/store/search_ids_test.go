package store

import (
	"context"
	"slices"
	"testing"
)

// TestKeywordIDsAnyBytes: the hits' note IDs (read in one row, as JSON:
// noteIDs) come back byte for byte, quotes, emoji and bytes that are not
// UTF-8 included.
func TestKeywordIDsAnyBytes(t *testing.T) {
	ids := []string{"Bad\xff\xfe name.md", `Quote "q" \ back.md`, "Books 📚.md", "Plain.md"}
	var notes []struct{ id, title, body string }
	for _, id := range ids {
		notes = append(notes, struct{ id, title, body string }{id, "T", "the needle is here"})
	}
	s := storeOf(t, notes)
	hits, err := s.Keyword(context.Background(), KeywordQuery{Text: "needle", Limit: 10, NoSnippets: true})
	if err != nil {
		t.Fatal(err)
	}
	got := hitIDs(hits)
	slices.Sort(got)
	want := slices.Sorted(slices.Values(ids))
	if !slices.Equal(got, want) {
		t.Errorf("Keyword(needle) IDs = %q, want %q", got, want)
	}
}
