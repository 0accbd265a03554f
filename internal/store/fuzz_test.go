package store

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzKeyword: no query text, however odd (FTS5 syntax, CJK, control
// characters, invalid UTF-8), makes a keyword search or its snippets
// fail, and every snippet is valid UTF-8 without line breaks.
func FuzzKeyword(f *testing.F) {
	for _, seed := range []string{
		"alpha", `"budget risk"`, "cafe", "東京", "京都へ", "Tokyo東京", `NEAR(alpha`, `{cjk}:東京`, "-alpha*", "\x00", "ａｌｐｈａ", "e\u0301",
		"αθηνα", "ΕΛΛΗΝΙΚΑ", "ελλην", "strasse", "Straße", "smorrebrod", "lodz", `"πρωτευουσα της"`, "vgfold", "ﬁ", "ß", "ᾅ", "Ελλάδας東京",
	} {
		f.Add(seed, false)
	}
	s := searchStore(f)
	f.Fuzz(func(t *testing.T, text string, any bool) {
		if len(text) > 256 {
			return
		}
		ctx := context.Background()
		hits, err := s.Keyword(ctx, KeywordQuery{Text: text, Any: any})
		if err != nil {
			t.Fatalf("Keyword(%q) = %v", text, err)
		}
		bare, err := s.Keyword(ctx, KeywordQuery{Text: text, Any: any, NoSnippets: true})
		if err != nil {
			t.Fatalf("Keyword(%q, NoSnippets) = %v", text, err)
		}
		snips, err := s.KeywordSnippets(ctx, append(bare, KeywordHit{ID: "Missing.md"}))
		if err != nil {
			t.Fatalf("KeywordSnippets(%q) = %v", text, err)
		}
		check := func(snip string) {
			if !utf8.ValidString(snip) || strings.ContainsAny(snip, "\n\r") {
				t.Fatalf("query %q: snippet %q is not one line of valid UTF-8", text, snip)
			}
		}
		for _, h := range hits {
			check(h.Snippet)
		}
		for _, snip := range snips {
			check(snip)
		}
	})
}
