package store

import "testing"

// TestKeywordSnippetsPage checks that KeywordSnippets of a whole page of
// hits, made in one statement over their rows, gives each hit the
// snippet Keyword gives it, on notes whose hits lie far apart in the
// index, for words, prefixes, phrases, folded words and a query no note
// fully matches.
func TestKeywordSnippetsPage(t *testing.T) {
	s, ctx := generatedStore(t, 600)
	for _, q := range []string{"invoice customer", "invo", `"budget review"`, "strasse", "invoice zebra", "project meeting"} {
		want, err := s.Keyword(ctx, KeywordQuery{Text: q, Limit: 20})
		if err != nil || len(want) < 2 {
			t.Fatalf("Keyword(%q) = %d hits, %v; want a page of several", q, len(want), err)
		}
		bare, err := s.Keyword(ctx, KeywordQuery{Text: q, Limit: 20, NoSnippets: true})
		if err != nil || len(bare) != len(want) {
			t.Fatalf("Keyword(%q, NoSnippets) = %d hits, %v; want %d", q, len(bare), err, len(want))
		}
		got, err := s.KeywordSnippets(ctx, bare)
		if err != nil {
			t.Fatalf("KeywordSnippets(%q) = %v", q, err)
		}
		if len(got) != len(want) {
			t.Errorf("KeywordSnippets(%q) = %d snippets, want %d", q, len(got), len(want))
		}
		for _, h := range want {
			if got[h.ID] != h.Snippet {
				t.Errorf("KeywordSnippets(%q)[%s] = %q, want %q (Keyword's)", q, h.ID, got[h.ID], h.Snippet)
			}
		}
	}
}
