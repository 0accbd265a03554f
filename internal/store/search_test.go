package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// searchStore is an index of a few notes with distinct words, and filler
// notes so that the words are rare enough for bm25 to weigh them.
func searchStore(t testing.TB) *Store {
	t.Helper()
	notes := []struct{ id, title, body string }{
		{"Projects/Alpha Plan.md", "Alpha Plan", "# Alpha Plan\n\nThe plan for project alpha.\n\n## Risks\n\nBudget risk is tracked in [[Beta]]."},
		{"Projects/Beta.md", "Beta", "# Beta\n\nShip the beta. The plan mentions alpha once."},
		// The title as macOS spells file names: e + U+0301.
		{"Notes/Café Menu.md", "Cafe\u0301 Menu", "# Cafe\u0301 Menu\n\nCoffee and cake."},
		{"Notes/Meeting Notes.md", "Meeting Notes", "We spoke about the budget.\nThe café was closed."},
		{"Notes/東京 Trip.md", "東京 Trip", "東京の旅行メモ。"},
		{"Notes/Αθήνα.md", "Αθήνα", "# Αθήνα\n\nΗ Αθήνα είναι η πρωτεύουσα της Ελλάδας.\nWir aßen Smørrebrød in der Straße."},
	}
	for i := 1; i <= 10; i++ {
		notes = append(notes, struct{ id, title, body string }{fmt.Sprintf("Filler/N%02d.md", i), fmt.Sprintf("N%02d", i), "Nothing to see here, only words."})
	}
	return storeOf(t, notes)
}

// storeOf is a new index holding the notes (ID, title, body).
func storeOf(t testing.TB, notes []struct{ id, title, body string }) *Store {
	t.Helper()
	s, _ := openTemp(t)
	var b Batch
	for _, n := range notes {
		b.Upserts = append(b.Upserts, &Record{Note: &vault.Note{ID: n.id, Title: n.title}, Path: n.id, Body: n.body})
	}
	if err := s.Apply(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return s
}

func hitIDs(hits []KeywordHit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids
}

func TestKeywordTerms(t *testing.T) {
	tests := []struct {
		desc, give string
		want       []Term
	}{
		{"words", "alpha  plan", []Term{{Text: "alpha"}, {Text: "plan"}}},
		{"phrase and word", `"budget risk" alpha`, []Term{{Text: "budget risk", Phrase: true}, {Text: "alpha"}}},
		{"unclosed quote runs to the end", `alpha "budget risk`, []Term{{Text: "alpha"}, {Text: "budget risk", Phrase: true}}},
		{"operators are words", "a OR b NOT c", []Term{{Text: "a"}, {Text: "OR"}, {Text: "b"}, {Text: "NOT"}, {Text: "c"}}},
		{"no word characters", `* - ( ) "" ^ :`, nil},
		{"punctuation kept inside a word", "NEAR( -x col:val", []Term{{Text: "NEAR("}, {Text: "-x"}, {Text: "col:val"}}},
		{"duplicates dropped", "alpha Alpha alpha", []Term{{Text: "alpha"}, {Text: "Alpha"}}},
		{"control characters separate", "foo\x00bar\tbaz", []Term{{Text: "foo"}, {Text: "bar"}, {Text: "baz"}}},
		{"invalid UTF-8 separates", "foo\xffbar", []Term{{Text: "foo"}, {Text: "bar"}}},
		{"NFC", "Cafe\u0301", []Term{{Text: "Café"}}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := KeywordTerms(tt.give); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("KeywordTerms(%q) = %+v, want %+v", tt.give, got, tt.want)
			}
		})
	}
	if got := KeywordTerms(words(41)); len(got) != MaxKeywordTerms {
		t.Errorf("KeywordTerms(41 words) has %d terms, want %d", len(got), MaxKeywordTerms)
	}
}

func words(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "w%d ", i)
	}
	return b.String()
}

func TestTermExpr(t *testing.T) {
	tests := []struct {
		give Term
		want string
	}{
		{Term{Text: "meet"}, `((("meet" OR "meet"*) OR {cjktitle cjk} : "vgfoldmeet"*) OR {stems} : "vgfoldmeet")`},
		// A stem that differs from the word: also the stem as a word.
		{Term{Text: "meetings"}, `((("meetings" OR "meetings"*) OR {cjktitle cjk} : "vgfoldmeetings"*) OR {stems} : "vgfoldmeet" OR "meet")`},
		{Term{Text: "a"}, `("a" OR {cjktitle cjk} : "vgfolda")`},
		{Term{Text: "meet", exact: true}, `(("meet" OR {cjktitle cjk} : "vgfoldmeet") OR {stems} : "vgfoldmeet")`},
		{Term{Text: "budget risk", Phrase: true}, `("budget risk" OR {cjktitle cjk} : "vgfoldbudget vgfoldrisk")`},
		{Term{Text: `say"hi`}, `(("say""hi" OR "say""hi"*) OR {cjktitle cjk} : "vgfoldsay vgfoldhi"*)`},
		{Term{Text: "NEAR("}, `(("NEAR(" OR "NEAR("*) OR {cjktitle cjk} : "vgfoldnear"*)`},
		// Folded beyond unicode61: the folded word too.
		{Term{Text: "Straße"}, `(("Straße" OR "Straße"*) OR ("strasse" OR "strasse"*) OR {cjktitle cjk} : "vgfoldstrasse"*)`},
		{Term{Text: "Αθήνα Ελλάδα", Phrase: true}, `("Αθήνα Ελλάδα" OR "αθηνα ελλαδα" OR {cjktitle cjk} : "vgfoldαθηνα vgfoldελλαδα")`},
		// Words that could match the marked tokens: only in title and body.
		{Term{Text: "vg"}, `({title body} : (("vg" OR "vg"*)) OR {cjktitle cjk} : "vgfoldvg"*)`},
		{Term{Text: "x VGFOLDy", Phrase: true}, `({title body} : ("x VGFOLDy") OR {cjktitle cjk} : "vgfoldx vgfoldvgfoldy")`},
		// A word unicode61 splits has no marked form.
		{Term{Text: "हिन्दी"}, `("हिन्दी" OR "हिन्दी"*)`},
		{Term{Text: "東京"}, `({title body} : ("東京" OR "東京"*) OR {cjktitle cjk} : "東京")`},
		{Term{Text: "京"}, `({title body} : "京" OR {cjktitle cjk} : "京"*)`},
		{Term{Text: `東京"x`, Phrase: true}, `({title body} : "東京""x" OR ({cjktitle cjk} : "東京 京" AND {title body} : "x"))`},
	}
	for _, tt := range tests {
		if got := tt.give.expr(); got != tt.want {
			t.Errorf("%+v.expr() = %s, want %s", tt.give, got, tt.want)
		}
	}
}

func TestKeyword(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	tests := []struct {
		desc, give string
		want       []string // the hits, best first; nil: none
	}{
		{"title beats body", "alpha", []string{"Projects/Alpha Plan.md", "Projects/Beta.md"}},
		{"every word", "alpha budget", []string{"Projects/Alpha Plan.md"}},
		{"diacritics folded", "cafe", []string{"Notes/Café Menu.md", "Notes/Meeting Notes.md"}},
		{"accented query", "CAFÉ menu", []string{"Notes/Café Menu.md"}},
		{"prefix", "meet", []string{"Notes/Meeting Notes.md"}},
		{"CJK word", "東京", []string{"Notes/東京 Trip.md"}},
		{"phrase", `"budget risk"`, []string{"Projects/Alpha Plan.md"}},
		{"phrase in another order", `"risk budget"`, nil},
		{"quoted word is not a prefix", `"meet"`, nil},
		{"nothing", "zebra", nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			hits, err := s.Keyword(ctx, KeywordQuery{Text: tt.give})
			if err != nil {
				t.Fatalf("Keyword(%q) = %v", tt.give, err)
			}
			if got := hitIDs(hits); !slices.Equal(got, tt.want) {
				t.Errorf("Keyword(%q) = %q, want %q", tt.give, got, tt.want)
			}
			for i, h := range hits {
				if h.Matched != h.Terms || h.Terms == 0 {
					t.Errorf("Keyword(%q)[%d] matched %d of %d terms, want all", tt.give, i, h.Matched, h.Terms)
				}
				if i > 0 && h.BM25 < hits[i-1].BM25 {
					t.Errorf("Keyword(%q) not sorted by bm25: %v after %v", tt.give, h.BM25, hits[i-1].BM25)
				}
				if h.BM25 >= 0 {
					t.Errorf("Keyword(%q)[%d].BM25 = %v, want < 0", tt.give, i, h.BM25)
				}
			}
		})
	}
}

func TestKeywordHostileInput(t *testing.T) {
	s := searchStore(t)
	for _, q := range []string{
		`"unbalanced`, `a OR`, `NEAR(`, `NEAR(alpha beta)`, `*`, `-x`, `alpha*`, `^alpha`, `title:alpha`, `{title}: alpha`,
		`alpha AND`, `(alpha`, `)`, `""`, `"" alpha ""`, `'`, `\`, `alpha + -beta`, "\x00", `NOT alpha`, `AND OR NOT`,
		`東京"`, `"東京 alpha`, `京*`, `NEAR(東京`, `-京`, `(東京)`, `東京:alpha`, `{cjk}:東京`, `東京AND京都`, `東京 OR`, "東\x00京",
		`vgfold*`, `{cjk}:vgfoldx`, `"vgfold`, "ς", "Σ*", `"x \u0301"`, "हिन्दी", `"Straße" OR ß`, "ﬁ*",
	} {
		if _, err := s.Keyword(context.Background(), KeywordQuery{Text: q}); err != nil {
			t.Errorf("Keyword(%q) = %v, want no error", q, err)
		}
	}
	hits, _ := s.Keyword(context.Background(), KeywordQuery{Text: "NEAR(alpha"})
	if len(hits) != 0 {
		t.Errorf("Keyword(NEAR(alpha) = %q, want none (no note has near and alpha)", hitIDs(hits))
	}
	hits, _ = s.Keyword(context.Background(), KeywordQuery{Text: "-alpha*"})
	if len(hits) == 0 || hits[0].ID != "Projects/Alpha Plan.md" {
		t.Errorf("Keyword(-alpha*) = %q, want Alpha Plan first (the word alpha)", hitIDs(hits))
	}
}

func TestKeywordFallbackAndAny(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	// No note has both: the notes with one of them, Matched 1 of 2.
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "alpha zebra"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hitIDs(hits), []string{"Projects/Alpha Plan.md", "Projects/Beta.md"}; !slices.Equal(got, want) {
		t.Errorf("Keyword(alpha zebra) = %q, want %q", got, want)
	}
	for _, h := range hits {
		if h.Matched != 1 || h.Terms != 2 {
			t.Errorf("Keyword(alpha zebra) %s matched %d of %d, want 1 of 2", h.ID, h.Matched, h.Terms)
		}
	}
	// Any: notes with more of the terms first.
	hits, err = s.Keyword(ctx, KeywordQuery{Text: "budget alpha cake", Any: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := hitIDs(hits); len(got) != 4 || got[0] != "Projects/Alpha Plan.md" {
		t.Errorf("Keyword(budget alpha cake, any) = %q, want 4 hits, Alpha Plan (2 of 3 terms) first", got)
	}
	if hits[0].Matched != 2 {
		t.Errorf("Keyword(budget alpha cake, any)[0].Matched = %d, want 2", hits[0].Matched)
	}
	for i := 1; i < len(hits); i++ {
		if float64(hits[i].Matched)*hits[i].BM25 < float64(hits[i-1].Matched)*hits[i-1].BM25 {
			t.Errorf("any hits not ranked by matched × bm25: %+v after %+v", hits[i], hits[i-1])
		}
	}
	// One term with Any is a plain search.
	if hits, _ := s.Keyword(ctx, KeywordQuery{Text: "alpha", Any: true}); len(hits) != 2 {
		t.Errorf("Keyword(alpha, any) = %q, want 2 hits", hitIDs(hits))
	}
}

func TestKeywordFilterAndLimit(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "alpha", IDs: []string{"Projects/Beta.md", "Notes/Café Menu.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hitIDs(hits), []string{"Projects/Beta.md"}; !slices.Equal(got, want) {
		t.Errorf("Keyword(alpha, IDs Beta, Café) = %q, want %q", got, want)
	}
	hits, err = s.Keyword(ctx, KeywordQuery{Text: "alpha", Exclude: []string{"Projects/Alpha Plan.md", "Nowhere.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hitIDs(hits), []string{"Projects/Beta.md"}; !slices.Equal(got, want) {
		t.Errorf("Keyword(alpha, Exclude Alpha Plan) = %q, want %q", got, want)
	}
	if hits, _ := s.Keyword(ctx, KeywordQuery{Text: "alpha", Exclude: []string{}}); len(hits) != 2 {
		t.Errorf("Keyword(alpha, Exclude nothing) = %q, want 2 hits", hitIDs(hits))
	}
	if hits, _ := s.Keyword(ctx, KeywordQuery{Text: "alpha", IDs: []string{}}); hits != nil {
		t.Errorf("Keyword(alpha, no IDs) = %q, want nothing", hitIDs(hits))
	}
	hits, _ = s.Keyword(ctx, KeywordQuery{Text: "words", Limit: 3})
	if len(hits) != 3 {
		t.Errorf("Keyword(words, limit 3) has %d hits, want 3", len(hits))
	}
	// Ties end on the ID, so pages of equal hits are stable.
	if got, want := hitIDs(hits), []string{"Filler/N01.md", "Filler/N02.md", "Filler/N03.md"}; !slices.Equal(got, want) {
		t.Errorf("Keyword(words, limit 3) = %q, want %q", got, want)
	}
}

func TestKeywordSnippet(t *testing.T) {
	s := searchStore(t)
	ctx := context.Background()
	tests := []struct{ give, id, want string }{
		{"cafe", "Notes/Meeting Notes.md", "We spoke about the budget. The **café** was closed."},
		// The first heading repeats the title: left out.
		{"cafe", "Notes/Café Menu.md", "Coffee and cake."},
		{"meet", "Notes/Meeting Notes.md", "We spoke about the budget. The café was closed."},
		{"budget risk", "Projects/Alpha Plan.md", "**Budget** **risk** is tracked in [[Beta]]."},
		{"東京", "Notes/東京 Trip.md", "**東京**の旅行メモ。"},
	}
	for _, tt := range tests {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: tt.give})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(hits, func(h KeywordHit) bool { return h.ID == tt.id })
		if i < 0 {
			t.Errorf("Keyword(%q) = %q, lacks %s", tt.give, hitIDs(hits), tt.id)
			continue
		}
		if got := hits[i].Snippet; !strings.Contains(got, tt.want) {
			t.Errorf("Keyword(%q) snippet of %s = %q, want it to contain %q", tt.give, tt.id, got, tt.want)
		}
		// Without snippets, then the same ones from KeywordSnippets.
		bare, err := s.Keyword(ctx, KeywordQuery{Text: tt.give, NoSnippets: true})
		if err != nil || len(bare) != len(hits) || bare[i].ID != tt.id || bare[i].Snippet != "" {
			t.Errorf("Keyword(%q, NoSnippets) = %+v, %v; want the same hits without snippets", tt.give, bare, err)
		}
		snips, err := s.KeywordSnippets(ctx, []KeywordHit{bare[i], {ID: "Missing.md"}})
		if err != nil || len(snips) != 1 || !strings.Contains(snips[tt.id], tt.want) {
			t.Errorf("KeywordSnippets(%q, %s) = %q, %v; want one containing %q", tt.give, tt.id, snips, err, tt.want)
		}
	}
	// A long body is cut around the match, marked with an ellipsis.
	long := strings.Repeat("filler ", 100) + "needle " + strings.Repeat("filler ", 100)
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{{Note: &vault.Note{ID: "Long.md", Title: "Long"}, Path: "Long.md", Body: long}}}); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "needle"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("Keyword(needle) = %v, %v", hits, err)
	}
	snip := hits[0].Snippet
	if !strings.HasPrefix(snip, SnippetEllipsis) || !strings.HasSuffix(snip, SnippetEllipsis) || !strings.Contains(snip, "**needle**") {
		t.Errorf("Keyword(needle) snippet = %q, want …cut text with **needle**…", snip)
	}
	if n := len(strings.Fields(snip)); n > SnippetTokens+2 {
		t.Errorf("Keyword(needle) snippet has %d words, want about %d", n, SnippetTokens)
	}
}

func TestKeywordTitleBoost(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	b := &Batch{Upserts: []*Record{
		// A long note titled Home, and short notes that say home often.
		{Note: &vault.Note{ID: "Home.md", Title: "Home"}, Path: "Home.md", Body: "# Home\n\n" + strings.Repeat("Welcome to the vault. ", 40)},
		{Note: &vault.Note{ID: "Other.md", Title: "Other"}, Path: "Other.md", Body: "Back home, home again, [[Home]]."},
	}}
	for i := range 8 {
		id := fmt.Sprintf("F%d.md", i)
		b.Upserts = append(b.Upserts, &Record{Note: &vault.Note{ID: id, Title: id}, Path: id, Body: "unrelated text"})
	}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	// With the title weighing 5 (the tuned weight, 3, lets the short
	// note that says home three times win here: TitleBoost is what this
	// tests).
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "home", TitleWeight: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hitIDs(hits), []string{"Home.md", "Other.md"}; !slices.Equal(got, want) {
		t.Fatalf("Keyword(home) = %q, want %q (the title match first)", got, want)
	}
	if !hits[0].Title || hits[1].Title {
		t.Errorf("Keyword(home) Title = %v, %v, want true, false", hits[0].Title, hits[1].Title)
	}
	if hits[0].Relevance() <= hits[1].Relevance() {
		t.Errorf("Relevance() = %v, %v, want the first higher", hits[0].Relevance(), hits[1].Relevance())
	}
}

func TestKeywordCommonWords(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	// 100 of 120 notes have "the" (common); 20 have "theory" but not
	// "the"; 10 have "needle".
	b := &Batch{}
	for i := range 120 {
		id := fmt.Sprintf("N%03d.md", i)
		body := "the plain text"
		if i >= 100 {
			body = "theory only"
		}
		if i%12 == 0 {
			body += " needle"
		}
		b.Upserts = append(b.Upserts, &Record{Note: &vault.Note{ID: id, Title: id}, Path: id, Body: body})
	}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	needle, err := s.Keyword(ctx, KeywordQuery{Text: "needle", Limit: 50})
	if err != nil || len(needle) != 10 {
		t.Fatalf("Keyword(needle) = %d hits, %v, want 10", len(needle), err)
	}
	// "the" is left out: the needle notes without it are found too.
	got, err := s.Keyword(ctx, KeywordQuery{Text: "the needle", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(hitIDs(got), hitIDs(needle)) || got[0].Terms != 1 {
		t.Errorf("Keyword(the needle) = %q (terms %d), want %q, 1 term", hitIDs(got), got[0].Terms, hitIDs(needle))
	}
	// Only common words: matched exactly, so "theory" is not found.
	got, err = s.Keyword(ctx, KeywordQuery{Text: "the", Limit: 200})
	if err != nil || len(got) != 100 {
		t.Errorf("Keyword(the) = %d hits, %v, want the 100 notes with the word", len(got), err)
	}
	// A rarer word keeps its prefix form.
	if got, _ := s.Keyword(ctx, KeywordQuery{Text: "theor", Limit: 200}); len(got) != 20 {
		t.Errorf("Keyword(theor) = %d hits, want 20", len(got))
	}
	// A phrase is never left out.
	if got, _ := s.Keyword(ctx, KeywordQuery{Text: `"the plain" needle`, Limit: 50}); len(got) != 9 {
		t.Errorf(`Keyword("the plain" needle) = %d hits, want 9`, len(got))
	}

	// Under CommonWordMinNotes notes every word counts.
	small := searchStore(t)
	if got, _ := small.Keyword(ctx, KeywordQuery{Text: "here words"}); len(got) != 10 || got[0].Terms != 2 {
		t.Errorf("Keyword(here words) in a small vault = %q, want the 10 filler notes, 2 terms", hitIDs(got))
	}
}

// TestKeywordAliases: a note is found by its aliases as by its title,
// with the title's weight, and the snippet is still the body's.
func TestKeywordAliases(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	b := &Batch{Upserts: []*Record{
		{Note: &vault.Note{ID: "Acme.md", Title: "Acme Corporation", Aliases: []string{"Roadrunner Supplies", "東京支社"}}, Path: "Acme.md", Body: "A supplier of anvils."},
		{Note: &vault.Note{ID: "Log.md", Title: "Log"}, Path: "Log.md", Body: "Ordered from roadrunner supplies twice, and from the 東京支社 once."},
	}}
	for i := range 8 {
		id := fmt.Sprintf("F%d.md", i)
		b.Upserts = append(b.Upserts, &Record{Note: &vault.Note{ID: id, Title: id}, Path: id, Body: "unrelated text"})
	}
	if err := s.Apply(ctx, b); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"roadrunner supplies", "roadrun", "東京支社"} {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if got := hitIDs(hits); len(got) != 2 || got[0] != "Acme.md" || !hits[0].Title {
			t.Errorf("Keyword(%q) = %q (title %v), want Acme.md first as a title match, then Log.md", q, got, len(hits) > 0 && hits[0].Title)
		}
	}
	hits, _ := s.Keyword(ctx, KeywordQuery{Text: "anvils"})
	if len(hits) != 1 || !strings.Contains(hits[0].Snippet, "**anvils**") || strings.Contains(hits[0].Snippet, "Roadrunner") {
		t.Errorf("Keyword(anvils) = %+v, want Acme.md with a snippet of its body only", hits)
	}
}
