package vaultgraph

import (
	"context"
	"errors"
	"github.com/vaultgraph/vaultgraph/embed"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// searchEngine opens testvault (read in place) with its index in a
// temporary folder.
func searchEngine(t *testing.T) *Engine {
	t.Helper()
	e := New(Options{Vault: "testvault", Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(testvault) = %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func searchIDs(hits []SearchHit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids
}

// TestSearchRanking runs queries on testvault: the notes expected on top,
// in order, and for some the whole list.
func TestSearchRanking(t *testing.T) {
	e := searchEngine(t)
	tests := []struct {
		desc string
		give SearchQuery
		top  []string // the first hits, in order (nil: no hit at all)
		all  bool     // top is the whole answer
	}{
		{desc: "exact title word", give: SearchQuery{Query: "home"}, top: []string{"Home.md"}},
		{desc: "title words", give: SearchQuery{Query: "alpha plan"}, top: []string{"Archive/Alpha Plan.md", "Projects/Alpha Plan.md"}},
		{desc: "title of a note named otherwise", give: SearchQuery{Query: "tag examples"}, top: []string{"Tagged.md"}, all: true},
		{desc: "body phrase", give: SearchQuery{Query: `"budget risk"`}, top: []string{"Projects/Alpha Plan.md"}, all: true},
		{desc: "body words", give: SearchQuery{Query: "ship beta"}, top: []string{"Projects/Beta.md"}, all: true},
		{desc: "diacritics folded", give: SearchQuery{Query: "cafe"}, top: []string{"Notes/Café Menu.md", "Notes/Meeting Notes.md", "Home.md"}, all: true},
		{desc: "accents and case in the query", give: SearchQuery{Query: "CAFÉ MENU"}, top: []string{"Notes/Café Menu.md"}},
		{desc: "CJK", give: SearchQuery{Query: "東京"}, top: []string{"Notes/東京 Trip.md", "Notes/Meeting Notes.md"}, all: true},
		{desc: "CJK tag word", give: SearchQuery{Query: "旅行"}, top: []string{"Notes/東京 Trip.md"}, all: true},
		{desc: "prefix", give: SearchQuery{Query: "meet"}, top: []string{"Notes/Meeting Notes.md"}},
		{desc: "ignored folders are not searched", give: SearchQuery{Query: "userIgnoreFilters"}, all: true},
		{desc: "code is text", give: SearchQuery{Query: "notatag"}, top: []string{"Home.md"}, all: true},
		{desc: "tag filter", give: SearchQuery{Query: "alpha", Tags: []string{"archive"}}, top: []string{"Archive/Alpha Plan.md", "Archive/Old Ideas.md"}, all: true},
		{desc: "tag filter, all", give: SearchQuery{Query: "plan", Tags: []string{"project", "beta"}, TagMode: TagsAll}, top: []string{"Projects/Beta.md"}, all: true},
		{desc: "tag filter, none", give: SearchQuery{Query: "alpha", Tags: []string{"archive", "project"}, TagMode: TagsNone}, top: []string{"Home.md"}, all: true},
		{desc: "folder filter, any case", give: SearchQuery{Query: "alpha", Folder: "projects/"}, top: []string{"Projects/Alpha Plan.md", "Projects/Beta.md"}, all: true},
		{desc: "nested folder", give: SearchQuery{Query: "home", Folder: "Deep/Nested"}, top: []string{"Deep/Nested/Folder/Deep Note.md"}, all: true},
		{desc: "folder and tags", give: SearchQuery{Query: "alpha", Folder: "Projects", Tags: []string{"project/alpha"}}, top: []string{"Projects/Alpha Plan.md"}, all: true},
		{desc: "limit", give: SearchQuery{Query: "home", Limit: 2}, top: []string{"Home.md", "Deep/Nested/Folder/Deep Note.md"}, all: true},
		{desc: "filter before limit", give: SearchQuery{Query: "home", Folder: "Notes", Limit: 1}, top: []string{"Notes/Meeting Notes.md"}, all: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			for _, mode := range []SearchMode{"", SearchKeyword} {
				q := tt.give
				q.Mode = mode
				hits, _, err := e.Search(context.Background(), q)
				if err != nil {
					t.Fatalf("Search(%+v) = %v", q, err)
				}
				got := searchIDs(hits)
				if tt.all && !slices.Equal(got, tt.top) || len(got) < len(tt.top) || !slices.Equal(got[:len(tt.top)], tt.top) {
					t.Errorf("Search(%+v) = %q, want %q first (all: %v)", q, got, tt.top, tt.all)
				}
				checkHits(t, q.Query, hits, true)
			}
		})
	}
}

// checkHits checks what every keyword answer must be: scores in 0-1,
// best first, keyword ranks in order, a snippet for each; with full (every
// word matched), the first scores 1.
func checkHits(t *testing.T, query string, hits []SearchHit, full bool) {
	t.Helper()
	for i, h := range hits {
		if h.Score < 0 || h.Score > 1 || math.IsNaN(h.Score) {
			t.Errorf("Search(%q)[%d].Score = %v, want 0-1", query, i, h.Score)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("Search(%q) not sorted: %v after %v", query, h.Score, hits[i-1].Score)
		}
		if h.KeywordRank != i+1 || h.VectorRank != 0 {
			t.Errorf("Search(%q)[%d] ranks keyword %d, vector %d, want %d, 0", query, i, h.KeywordRank, h.VectorRank, i+1)
		}
		if h.Snippet == "" || strings.Contains(h.Snippet, "\n") {
			t.Errorf("Search(%q)[%d].Snippet = %q, want one line of text", query, i, h.Snippet)
		}
	}
	if full && len(hits) > 0 && hits[0].Score != 1 {
		t.Errorf("Search(%q)[0].Score = %v, want 1 (the best full match)", query, hits[0].Score)
	}
}

func TestSearchSnippets(t *testing.T) {
	e := searchEngine(t)
	tests := []struct{ give, id, want string }{
		{"cafe", "Notes/Meeting Notes.md", "[the **café**]"},
		{"meet", "Notes/東京 Trip.md", "[[**Meeting** Notes]]"},
		{`"budget risk"`, "Projects/Alpha Plan.md", "**Budget risk** is tracked"},
		{"東京", "Notes/Meeting Notes.md", "[[**東京** Trip]]"},
		// Only the title matches: the start of the body, heading left out.
		{"menu", "Notes/Café Menu.md", "The file name is stored decomposed"},
	}
	// Hybrid (with vectors) makes its snippets after the fusion: the
	// same ones.
	em := New(Options{Vault: "testvault", Index: filepath.Join(t.TempDir(), "index.db"), Embedder: embed.NewBuiltin()})
	if err := em.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	if err := em.WaitEmbeddings(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []SearchMode{SearchKeyword, SearchHybrid} {
		if mode == SearchHybrid {
			e = em
		}
		for _, tt := range tests {
			hits, _, err := e.Search(context.Background(), SearchQuery{Query: tt.give, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(hits, func(h SearchHit) bool { return h.ID == tt.id })
			if i < 0 {
				t.Errorf("Search(%q, %s) = %q, lacks %s", tt.give, mode, searchIDs(hits), tt.id)
				continue
			}
			if mode == SearchHybrid && hits[i].VectorRank == 0 && hits[i].KeywordRank == 0 {
				t.Errorf("Search(%q, hybrid) hit %s has no ranks: %+v", tt.give, tt.id, hits[i])
			}
			if !strings.Contains(hits[i].Snippet, tt.want) {
				t.Errorf("Search(%q, %s) snippet of %s = %q, want it to contain %q", tt.give, mode, tt.id, hits[i].Snippet, tt.want)
			}
		}
	}
}

// TestSearchHostileInput: FTS5 syntax in a query is text, never an error.
func TestSearchHostileInput(t *testing.T) {
	e := searchEngine(t)
	for _, q := range []string{
		`"unbalanced`, `a OR`, `NEAR(`, `NEAR(home beta, 2)`, `*`, `-x`, `-home`, `home*`, `^home`, `title:home`,
		`{title body}: home`, `home AND`, `(home`, `)`, `""`, `'`, `\`, `+home -beta`, "\x00", `NOT home`, `AND OR NOT`,
		`"home" "`, `home:`, `#home`, `[[Home]]`, "\xff\xfe", strings.Repeat("home ", 200),
	} {
		for _, mode := range []SearchMode{SearchHybrid, SearchKeyword, SearchSemantic} {
			hits, _, err := e.Search(context.Background(), SearchQuery{Query: q, Mode: mode})
			if err != nil {
				t.Errorf("Search(%q, %s) = %v, want hits or none", q, mode, err)
			}
			checkHits(t, q, hits, false)
		}
	}
	// The words in hostile input are still searched for.
	for _, q := range []string{`-home`, `home*`, `(home`, `[[Home]]`, `#home`, `"home`} {
		hits, _, _ := e.Search(context.Background(), SearchQuery{Query: q})
		if len(hits) == 0 || hits[0].ID != "Home.md" {
			t.Errorf("Search(%q) = %q, want Home.md first", q, searchIDs(hits))
		}
	}
	hits, warnings, err := e.Search(context.Background(), SearchQuery{Query: `* - ()`, Mode: SearchKeyword})
	if err != nil || len(hits) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0], "no words") {
		t.Errorf("Search(symbols) = %q, %q, %v, want nothing, a warning that it has no words", searchIDs(hits), warnings, err)
	}
}

func TestSearchModesWithoutVectors(t *testing.T) {
	e := searchEngine(t)
	keyword, warnings, err := e.Search(context.Background(), SearchQuery{Query: "alpha", Mode: SearchKeyword})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Search(alpha, keyword) = %v, %q, want no warning", err, warnings)
	}
	for _, mode := range []SearchMode{"", SearchHybrid, SearchSemantic} {
		hits, warnings, err := e.Search(context.Background(), SearchQuery{Query: "alpha", Mode: mode})
		if err != nil {
			t.Fatalf("Search(alpha, %q) = %v", mode, err)
		}
		if !slices.Equal(hits, keyword) {
			t.Errorf("Search(alpha, %q) = %v, want the keyword answer %v", mode, hits, keyword)
		}
		if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "vector search unavailable: ") || !strings.HasSuffix(warnings[0], "; keyword results only") {
			t.Errorf("Search(alpha, %q) warnings = %q, want vector search unavailable", mode, warnings)
		}
	}
}

func TestSearchPartialMatch(t *testing.T) {
	e := searchEngine(t)
	hits, warnings, err := e.Search(context.Background(), SearchQuery{Query: "zebra alpha", Mode: SearchKeyword})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || !strings.HasSuffix(hits[0].ID, "Alpha Plan.md") {
		t.Errorf("Search(zebra alpha) = %q, want the alpha notes", searchIDs(hits))
	}
	for _, h := range hits {
		if h.Score > 0.5 {
			t.Errorf("Search(zebra alpha) %s score %v, want at most 0.5 (one word of two)", h.ID, h.Score)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "every word") {
		t.Errorf("Search(zebra alpha) warnings = %q, want one saying no note has every word", warnings)
	}
}

func TestSearchFilterMatchesNothing(t *testing.T) {
	e := searchEngine(t)
	for _, q := range []SearchQuery{
		{Query: "home", Folder: "Nowhere"},
		{Query: "home", Tags: []string{"nosuchtag"}},
	} {
		hits, warnings, err := e.Search(context.Background(), q)
		if err != nil || len(hits) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0], "filters") {
			t.Errorf("Search(%+v) = %q, %q, %v, want nothing and a warning about the filters", q, searchIDs(hits), warnings, err)
		}
	}
	// The vault root is no filter.
	for _, folder := range []string{"/", ".", ""} {
		hits, _, err := e.Search(context.Background(), SearchQuery{Query: "home", Folder: folder, Mode: SearchKeyword})
		if err != nil || len(hits) < 5 {
			t.Errorf("Search(home, folder %q) = %q, %v, want every note with home", folder, searchIDs(hits), err)
		}
	}
}

func TestSearchInvalid(t *testing.T) {
	e := searchEngine(t)
	for _, q := range []SearchQuery{
		{},
		{Query: "  \t\n"},
		{Query: "home", Mode: "fuzzy"},
		{Query: "home", Limit: -1},
		{Query: "home", Limit: MaxSearchLimit + 1},
		{Query: "home", TagMode: "some"},
	} {
		if _, _, err := e.Search(context.Background(), q); !errors.Is(err, ErrInvalid) {
			t.Errorf("Search(%+v) = %v, want ErrInvalid", q, err)
		}
	}
	hits, _, err := e.Search(context.Background(), SearchQuery{Query: "the", Mode: SearchKeyword})
	if err != nil || len(hits) != DefaultSearchLimit {
		t.Errorf("Search(the) has %d hits (%v), want the default limit %d", len(hits), err, DefaultSearchLimit)
	}
}

func TestSearchWithoutIndex(t *testing.T) {
	e := New(Options{Vault: "testvault", NoIndex: true})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Search(context.Background(), SearchQuery{Query: "home"}); err == nil || errors.Is(err, ErrInvalid) {
		t.Errorf("Search without an index = %v, want an error that is not the caller's", err)
	}
	e.Close()
	if _, _, err := e.Search(context.Background(), SearchQuery{Query: "home"}); !errors.Is(err, ErrClosed) {
		t.Errorf("Search after Close = %v, want ErrClosed", err)
	}
}

func TestKeywordHitsScores(t *testing.T) {
	kw := []store.KeywordHit{
		{ID: "a", BM25: -4, Matched: 2, Terms: 2},
		{ID: "b", BM25: -2, Title: true, Matched: 2, Terms: 2}, // relevance 4 (title boost)
		{ID: "c", BM25: -1, Matched: 2, Terms: 2},
		{ID: "d", BM25: -8, Matched: 1, Terms: 2},
	}
	want := []float64{0.5, 0.5, 0.125, 0.5}
	for i, h := range keywordHits(kw) {
		if math.Abs(h.Score-want[i]) > 1e-9 || h.KeywordRank != i+1 || h.ID != kw[i].ID {
			t.Errorf("keywordHits[%d] = %+v, want %s score %v rank %d", i, h, kw[i].ID, want[i], i+1)
		}
	}
	// bm25 of words in most notes is about 0: scores stay defined.
	for _, h := range keywordHits([]store.KeywordHit{{ID: "z", Matched: 1, Terms: 1}}) {
		if h.Score != 1 {
			t.Errorf("keywordHits(bm25 0) score = %v, want 1", h.Score)
		}
	}
}

func TestFuse(t *testing.T) {
	kw := []store.KeywordHit{{ID: "A", Snippet: "a"}, {ID: "B", Snippet: "b"}, {ID: "C", Snippet: "c"}}
	vec := []vectorHit{{ID: "B", Similarity: 0.9}, {ID: "D", Similarity: 0.8}, {ID: "A", Similarity: 0.1}}
	got := fuse(kw, vec)
	rrf := func(ranks ...int) float64 {
		s := 0.0
		for _, r := range ranks {
			s += 1 / float64(RRFK+r)
		}
		return s / (2 / float64(RRFK+1))
	}
	// B (ranks 2 and 1) beats A (1 and 3): 1/62+1/61 > 1/61+1/63. D
	// (vector 2) beats C (keyword 3).
	want := []SearchHit{
		{ID: "B", Score: rrf(2, 1), Snippet: "b", KeywordRank: 2, VectorRank: 1},
		{ID: "A", Score: rrf(1, 3), Snippet: "a", KeywordRank: 1, VectorRank: 3},
		{ID: "D", Score: rrf(2), VectorRank: 2},
		{ID: "C", Score: rrf(3), Snippet: "c", KeywordRank: 3},
	}
	if len(got) != len(want) {
		t.Fatalf("fuse = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID || math.Abs(got[i].Score-want[i].Score) > 1e-12 || got[i].Snippet != want[i].Snippet ||
			got[i].KeywordRank != want[i].KeywordRank || got[i].VectorRank != want[i].VectorRank {
			t.Errorf("fuse[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	// First in both scores 1; ties go to the better keyword rank.
	got = fuse([]store.KeywordHit{{ID: "X"}, {ID: "Y"}}, []vectorHit{{ID: "X"}, {ID: "Z"}})
	if got[0].ID != "X" || got[0].Score != 1 {
		t.Errorf("fuse: first in both = %+v, want X with score 1", got[0])
	}
	if got[1].ID != "Y" || got[2].ID != "Z" || got[1].Score != got[2].Score {
		t.Errorf("fuse: tie = %+v, %+v, want Y (keyword 2) before Z (vector 2), same score", got[1], got[2])
	}
}

func TestPreviewText(t *testing.T) {
	tests := []struct {
		desc, give, title string
		n                 int
		want              string
	}{
		{"heading repeating the title dropped", "# Alpha Plan\n\nThe plan.\n", "alpha plan", 200, "The plan."},
		{"other heading kept", "## Goals\nShip it.", "Beta", 200, "## Goals Ship it."},
		{"cut at a word", "one two three four", "", 9, "one two…"},
		{"exact fit", "one two", "", 7, "one two"},
		{"long word cut", "abcdefghij", "", 4, "abcd…"},
		{"runes, not bytes", "東京の旅行メモ 東京", "", 7, "東京の旅行メモ…"},
		{"empty", "", "x", 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := previewText(tt.give, tt.title, tt.n); got != tt.want {
				t.Errorf("previewText(%q, %q, %d) = %q, want %q", tt.give, tt.title, tt.n, got, tt.want)
			}
		})
	}
}
