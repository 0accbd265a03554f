package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// foldStore is an index of notes with words unicode61 does not fold, and
// filler notes so that their words are rare enough for bm25.
func foldStore(t *testing.T) *Store {
	t.Helper()
	notes := []struct{ id, title, body string }{
		{"Greek.md", "Ελληνικά", "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας. Ελληνική κουζίνα."},
		{"Street.md", "Straße", "Wir wohnen in der Straße am Fluss."},
		{"Plain.md", "Plain", "Die Strasse ist lang."},
		{"Food.md", "Food", "Smørrebrød in København."},
		{"Poland.md", "Trip", "We drove to Łódź in May."},
		{"Russian.md", "Зима", "Новогодняя ёлка и йогурт."},
		{"Japanese.md", "旅行記", "東京から京都へ新幹線で行った。"},
	}
	for i := 1; i <= 8; i++ {
		notes = append(notes, struct{ id, title, body string }{fmt.Sprintf("Filler/N%02d.md", i), fmt.Sprintf("N%02d", i), "Nothing to see here."})
	}
	return storeOf(t, notes)
}

func TestKeywordFolded(t *testing.T) {
	s := foldStore(t)
	ctx := context.Background()
	tests := []struct {
		desc, give string
		want       []string // the hits, best first; nil: none
	}{
		{"Greek without tonos", "ελληνικα", []string{"Greek.md"}},
		{"Greek capitals", "ΕΛΛΗΝΙΚΑ", []string{"Greek.md"}},
		{"Greek as written", "Ελληνικά", []string{"Greek.md"}},
		{"Greek in the body", "αθηνα", []string{"Greek.md"}},
		{"Greek capitalised, no tonos", "Αθηνα", []string{"Greek.md"}},
		{"Greek final sigma", "ΕΛΛΑΔΑΣ", []string{"Greek.md"}},
		{"Greek prefix", "ελλην", []string{"Greek.md"}},
		{"sharp s as ss", "strasse", []string{"Street.md", "Plain.md"}},
		{"sharp s prefix", "stras", []string{"Street.md", "Plain.md"}},
		{"sharp s query finds ss", "Straße", []string{"Street.md", "Plain.md"}},
		{"o with stroke", "smorrebrod", []string{"Food.md"}},
		{"l with stroke", "lodz", []string{"Poland.md"}},
		{"l with stroke, capitals", "LODZ", []string{"Poland.md"}},
		{"Cyrillic io", "елка", []string{"Russian.md"}},
		{"Cyrillic io as written", "ёлка", []string{"Russian.md"}},
		{"Cyrillic short i", "иогурт", []string{"Russian.md"}},
		{"folded and plain words", "strasse fluss", []string{"Street.md"}},
		{"Latin unchanged", "fluss", []string{"Street.md"}},
		{"phrase of folded words", `"ελληνικη κουζινα"`, []string{"Greek.md"}},
		{"phrase of three folded words", `"πρωτευουσα της ελλαδας"`, []string{"Greek.md"}},
		{"phrase words apart", `"πρωτευουσα ελλαδας"`, nil},
		{"phrase as written", `"Straße am"`, []string{"Street.md"}},
		// A phrase of folded and plain words matches as written only.
		{"phrase mixing folded and plain words", `"strasse am"`, nil},
		{"CJK unchanged", "京都", []string{"Japanese.md"}},
		{"the marker is not a word", "vgfold", nil},
		{"nor a prefix", "vgf", nil},
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
				if h.Matched != h.Terms || h.BM25 >= 0 {
					t.Errorf("Keyword(%q)[%d] = %+v, want all terms matched, BM25 < 0", tt.give, i, h)
				}
				if h.Snippet == "" {
					t.Errorf("Keyword(%q)[%d] %s has no snippet", tt.give, i, h.ID)
				}
			}
		})
	}
	// A folded title counts as a title match.
	for _, q := range []string{"ελληνικα", "strasse"} {
		if hits, err := s.Keyword(ctx, KeywordQuery{Text: q}); err != nil || len(hits) == 0 || !hits[0].Title {
			t.Errorf("Keyword(%q) = %+v, %v; want a title match first", q, hits, err)
		}
	}
}

func TestKeywordFoldedSnippet(t *testing.T) {
	s := foldStore(t)
	ctx := context.Background()
	long := strings.Repeat("Some words about the weather and the garden. ", 12) +
		"Then we walked down the Hauptstraße to the river. " + strings.Repeat("More words about nothing much at all. ", 12)
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{{Note: &vault.Note{ID: "Long.md", Title: "Long"}, Path: "Long.md", Body: long}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ desc, give, id, want string }{
		{"Greek", "αθηνα", "Greek.md", "Η **Αθήνα** είναι"},
		{"Greek prefix", "ελλην", "Greek.md", "**Ελληνική** κουζίνα"},
		{"sharp s", "strasse", "Street.md", "in der **Straße** am Fluss."},
		{"sharp s prefix", "stras", "Street.md", "der **Straße** am"},
		{"folded and plain words", "strasse fluss", "Street.md", "**Straße** am **Fluss**."},
		{"o with stroke", "smorrebrod", "Food.md", "**Smørrebrød** in København."},
		{"l with stroke", "lodz", "Poland.md", "We drove to **Łódź** in May."},
		{"Cyrillic", "елка", "Russian.md", "Новогодняя **ёлка** и"},
		{"phrase", `"ελληνικη κουζινα"`, "Greek.md", "**Ελληνική** **κουζίνα**."},
		{"plain spelling by FTS5", "Straße", "Plain.md", "Die **Strasse** ist lang."},
		{"cut around the match", "hauptstrasse", "Long.md", "walked down the **Hauptstraße** to the river."},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			checkSnippet(t, s, tt.give, tt.id, tt.want)
		})
	}
	hits, err := s.Keyword(ctx, KeywordQuery{Text: "hauptstrasse"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("Keyword(hauptstrasse) = %+v, %v; want Long.md", hits, err)
	}
	if snip := hits[0].Snippet; !strings.HasPrefix(snip, SnippetEllipsis) || !strings.HasSuffix(snip, SnippetEllipsis) {
		t.Errorf("Keyword(hauptstrasse) snippet = %q, want …cut text…", snip)
	}
}

// TestOpenSchema2: an index written by vaultgraph with schema 2
// (testdata/schema2.db: CJK columns, no folded words; made by the code of
// that version, then vacuumed with a page size of 512) is brought up to
// date in place on Open: its notes, meta and vectors stay, and its notes
// are found by folded words.
func TestOpenSchema2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	copyFile(t, filepath.Join("testdata", "schema2.db"), path)

	s, reason, err := OpenOrRebuild(ctx, path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 2) = %q, %v; want it migrated in place", reason, err)
	}
	defer s.Close()
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version = %d, %v; want %d", version, err, SchemaVersion)
	}
	snap, err := s.Load(ctx)
	if err != nil || len(snap.Notes) != 4 || snap.Meta["vault"] != "/fixture" {
		t.Fatalf("Load() = %d notes, meta %v, %v; want 4 notes, vault /fixture", len(snap.Notes), snap.Meta, err)
	}
	if h, err := s.VectorHashes(ctx, "m", 2); err != nil || h["Greek.md"] != "h" {
		t.Errorf("vectors after the migration = %v, %v; want Greek.md's kept", h, err)
	}
	tests := []struct{ desc, give, want string }{
		{"Greek title", "ελληνικα", "Greek.md"},
		{"Greek body", "αθηνα", "Greek.md"},
		{"sharp s title", "strasse", "Street.md"},
		{"alias with o with stroke", "smorrebrod", "Street.md"},
		{"l with stroke", "lodz", "Street.md"},
		{"CJK", "京都", "Tokyo.md"},
		{"alias", "roadmap", "Plans.md"},
		{"Latin accent", "cafe", "Plans.md"},
	}
	for _, tt := range tests {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: tt.give})
		if err != nil || len(hits) != 1 || hits[0].ID != tt.want {
			t.Errorf("%s: Keyword(%q) after the migration = %q, %v; want %s", tt.desc, tt.give, hitIDs(hits), err, tt.want)
		}
	}
	hits, _ := s.Keyword(ctx, KeywordQuery{Text: "lodz"})
	if len(hits) == 1 && !strings.Contains(hits[0].Snippet, "**Łódź**") {
		t.Errorf("Keyword(lodz) snippet after the migration = %q, want **Łódź**", hits[0].Snippet)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(errors.Join(err, out.Close()))
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// stemClause is the stems part of a term's expression (stemExpr).
var stemClause = regexp.MustCompile(`\{stems\} : "[^"]*"`)

// TestMarkUnmarked: a term whose folded words have no marked token in the
// index drops its marked form; one with them keeps it.
func TestMarkUnmarked(t *testing.T) {
	s := foldStore(t)
	terms := KeywordTerms(`strasse stras fluss ελλην "ελληνικη κουζινα" "strasse am" hauptstrasse 京都`)
	if err := s.markUnmarked(context.Background(), terms); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"strasse": false, "stras": false, "fluss": true, "ελλην": false, "ελληνικη κουζινα": false,
		"strasse am": true, "hauptstrasse": true, "京都": false, // CJK: not looked up
	}
	for _, tt := range terms {
		if tt.unmarked != want[tt.Text] {
			t.Errorf("markUnmarked: %q unmarked = %v, want %v", tt.Text, tt.unmarked, want[tt.Text])
		}
		if got := strings.Contains(stemClause.ReplaceAllString(tt.expr(), ""), foldMarker); got == tt.unmarked && !textfold.HasCJK(tt.Text) {
			t.Errorf("%q (unmarked %v).expr() = %s", tt.Text, tt.unmarked, tt.expr())
		}
	}
}

// A term of thousands of words (a long path typed as a query) must not
// make an SQL expression deeper than SQLite allows; one of more distinct
// words than maxVocabChecks keeps its marked form.
func TestMarkUnmarkedLongTerm(t *testing.T) {
	s := foldStore(t)
	long := strings.Repeat("a/", 2000) + "x.md"
	many := "w1-w2-w3-w4-w5-w6-w7-w8-w9"
	terms := KeywordTerms(long + " " + many + " fluss")
	if err := s.markUnmarked(context.Background(), terms); err != nil {
		t.Fatalf("markUnmarked(long term) = %v", err)
	}
	want := map[string]bool{long: true, many: false, "fluss": true}
	for _, tt := range terms {
		if tt.unmarked != want[tt.Text] {
			t.Errorf("markUnmarked: %.20q unmarked = %v, want %v", tt.Text, tt.unmarked, want[tt.Text])
		}
	}
	if _, err := s.Keyword(context.Background(), KeywordQuery{Text: long, Limit: 5}); err != nil {
		t.Fatalf("Keyword(long term) = %v", err)
	}
}

// TestMarksFollowWrites: the answers of the marked-token and stem
// look-ups are kept between searches only while the full-text tables
// are unchanged: a note written in between that brings a word's marked
// form or its stem is found by the next search.
func TestMarksFollowWrites(t *testing.T) {
	s := foldStore(t)
	ctx := context.Background()
	ids := func(text string) []string {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.ID)
		}
		return out
	}
	for _, q := range []string{"bialystok", "gardening"} { // kept: neither has a marked form or stem yet
		if got := ids(q); got != nil {
			t.Fatalf("Keyword(%q) = %v before the write, want none", q, got)
		}
	}
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{
		{Note: &vault.Note{ID: "Trip2.md", Title: "Trip2"}, Path: "Trip2.md", Body: "Back in Białystok, gardens everywhere."},
	}}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{"bialystok": "Trip2.md", "gardening": "Trip2.md"} {
		if got := ids(q); !slices.Contains(got, want) {
			t.Errorf("Keyword(%q) = %v after the write, want %s among them", q, got, want)
		}
	}
}
