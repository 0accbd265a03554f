package vaultgraph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/textfold"
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
		// Home has "tags" and "example": the same stems, ranked after.
		{desc: "title of a note named otherwise", give: SearchQuery{Query: "tag examples"}, top: []string{"Tagged.md", "Home.md"}, all: true},
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
		// Meeting Notes has [[Alpha Plan]] in a property (a field that
		// weighs more than the body).
		{desc: "tag filter, none", give: SearchQuery{Query: "alpha", Tags: []string{"archive", "project"}, TagMode: TagsNone}, top: []string{"Notes/Meeting Notes.md", "Home.md"}, all: true},
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
		{"meet", "Notes/東京 Trip.md", "[[Meeting Notes]]"},
		{`"budget risk"`, "Projects/Alpha Plan.md", "**Budget risk** is tracked"},
		{"東京", "Notes/Meeting Notes.md", "[[東京 Trip]]"},
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

func TestWindowText(t *testing.T) {
	long := "One two three four five six seven eight nine ten eleven twelve thirteen fourteen. The budget risk is tracked here. Fifteen sixteen seventeen eighteen nineteen."
	tests := []struct {
		desc, text, title, query string
		n                        int
		want                     string
	}{
		{"words in bold, heading repeating the title left out", "# Alpha Plan (old)\n\nThe archived first draft. It shares its name.", "Alpha Plan (old)",
			"archived draft", 200, "The **archived** first **draft**. It shares its name."},
		{"a window around the words", long, "", "budget risk", 60, "…The **budget** **risk** is tracked here. Fifteen sixteen seventeen…"},
		{"the window with most of the words", "budget alone here and there, then much later on: the budget risk again", "", "budget risk", 30, "…on: the **budget** **risk** again"},
		{"prefix", "Meeting notes of Monday", "", "meet", 200, "**Meeting** notes of Monday"},
		{"accents folded", "Le café est ouvert", "", "CAFE", 200, "Le **café** est ouvert"},
		{"decomposed accents", "Cafe\u0301 Menu", "", "café", 200, "**Cafe\u0301** Menu"},
		{"folded as the index folds: ß", "Viele Grüße aus der Straße", "", "GRUSSE strasse", 200, "Viele **Grüße** aus der **Straße**"},
		{"folded as the index folds: Greek, ø, ł, ligature", "Αθήνα, Smørrebrød, Łódź, ﬁnden", "", "αθηνα smorrebrod lodz finden", 200, "**Αθήνα**, **Smørrebrød**, **Łódź**, **ﬁnden**"},
		{"not in a wikilink's target", "See [[Meeting Notes]] too", "", "meeting", 200, "See [[Meeting Notes]] too"},
		{"in a wikilink's alias", "See [[Meeting Notes|the meeting]] too", "", "meeting", 200, "See [[Meeting Notes|the **meeting**]] too"},
		{"in link text, not its destination", "[the café](Café%20Menu.md)", "", "café", 200, "[the **café**](Café%20Menu.md)"},
		{"not in an image's destination", "![café](img/café.png) café", "", "café", 200, "![**café**](img/café.png) **café**"},
		{"not in URLs", "<https://café.org> https://x.org/café www.café.org café", "", "café", 200, "<https://café.org> https://x.org/café www.café.org **café**"},
		{"not in HTML attributes", `<a href="café.md" title="café">café</a>`, "", "café", 200, `<a href="café.md" title="café">**café**</a>`},
		{"a window cut inside a link", "[x](a/" + strings.Repeat("b/", 30) + "café.md) end", "", "café", 20, "…b/b/b/b/café.md) end"},
		{"CJK inside a word", "東京の旅行メモ。 Unicode", "", "旅行", 200, "東京の**旅行**メモ。 Unicode"},
		{"filler words not bold", "The plan is set for May.", "", "what is the plan", 200, "The **plan** is set for May."},
		{"only filler words: bold", "The plan is set.", "", "the", 200, "**The** plan is set."},
		{"one letter words ignored", "I wrote a plan.", "", "a i", 200, "I wrote a plan."},
		{"no word found: the start", "# Beta\n\n## Goals\nShip the beta.", "Beta", "quantum", 200, "## Goals Ship the beta."},
		{"no word found, cut", long, "", "quantum", 20, "One two three four…"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := windowText(tt.text, tt.title, snippetWords(tt.query), tt.n); got != tt.want {
				t.Errorf("windowText(%q, %q, %q, %d) = %q, want %q", tt.text, tt.title, tt.query, tt.n, got, tt.want)
			}
		})
	}
}

// builtinSearchEngine opens testvault (read in place) with the builtin
// embedder and waits for its vectors.
func builtinSearchEngine(t *testing.T) *Engine {
	t.Helper()
	e := New(Options{Vault: "testvault", Index: filepath.Join(t.TempDir(), "index.db"), Embedder: embed.NewBuiltin()})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(testvault) = %v", err)
	}
	t.Cleanup(func() { e.Close() })
	if err := e.WaitEmbeddings(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSearchPages: the pages of an answer, put together, are the answer
// at the largest limit; each says the total and the number of pages.
func TestSearchPages(t *testing.T) {
	ctx := context.Background()
	e := builtinSearchEngine(t)
	for _, tt := range []struct {
		desc string
		give SearchQuery
	}{
		{"keyword", SearchQuery{Query: "the", Mode: SearchKeyword}},
		{"hybrid", SearchQuery{Query: "the alpha plan"}},
		{"semantic", SearchQuery{Query: "deeply nested note", Mode: SearchSemantic}},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			q := tt.give
			q.Limit = MaxSearchLimit
			all, err := e.SearchPage(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if all.Total != len(all.Hits) || all.Total < 4 || all.AtLeast || all.Page != 1 || all.TotalPages != 1 {
				t.Fatalf("SearchPage(%q, limit %d) = %d hits, total %d (at least: %v), page %d of %d; want every hit (4 or more) on page 1 of 1",
					q.Query, q.Limit, len(all.Hits), all.Total, all.AtLeast, all.Page, all.TotalPages)
			}
			q.Limit = 3
			var got []SearchHit
			pages := (all.Total + 2) / 3
			for p := 1; p <= pages+1; p++ {
				q.Page = p
				res, err := e.SearchPage(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				want := min(3, max(0, all.Total-3*(p-1)))
				if len(res.Hits) != want || res.Total != all.Total || res.Page != p || res.TotalPages != pages {
					t.Errorf("SearchPage(%q, limit 3, page %d) = %d hits, total %d, page %d of %d; want %d, %d, %d of %d",
						q.Query, p, len(res.Hits), res.Total, res.Page, res.TotalPages, want, all.Total, p, pages)
				}
				got = append(got, res.Hits...)
			}
			if !slices.Equal(searchIDs(got), searchIDs(all.Hits)) {
				t.Errorf("SearchPage(%q) pages of 3 = %q, want the one page %q", q.Query, searchIDs(got), searchIDs(all.Hits))
			}
			for i := range got {
				if got[i].Score != all.Hits[i].Score || got[i].Snippet != all.Hits[i].Snippet {
					t.Errorf("SearchPage(%q) hit %d on its page = %+v, on the one page %+v", q.Query, i, got[i], all.Hits[i])
				}
			}
		})
	}
	if _, err := e.SearchPage(ctx, SearchQuery{Query: "home", Page: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("SearchPage(page -1) = %v, want ErrInvalid", err)
	}
}

// TestSearchTotalCap: at most MaxSearchTotal notes are counted, and the
// answer says when more match.
func TestSearchTotalCap(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for i := range MaxSearchTotal + 10 {
		text := "alpha\n"
		if i < MaxSearchTotal {
			text = "alpha beta\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%03d.md", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tests := []struct {
		desc        string
		give        SearchQuery
		wantHits    int
		wantTotal   int
		wantAtLeast bool
		wantPages   int
	}{
		{"more than counted", SearchQuery{Query: "alpha", Mode: SearchKeyword}, 10, MaxSearchTotal, true, MaxSearchTotal / 10},
		{"the last page counted", SearchQuery{Query: "alpha", Mode: SearchKeyword, Page: MaxSearchTotal / 10}, 10, MaxSearchTotal, true, MaxSearchTotal / 10},
		{"past the pages", SearchQuery{Query: "alpha", Mode: SearchKeyword, Page: MaxSearchTotal/10 + 1}, 0, MaxSearchTotal, true, MaxSearchTotal / 10},
		{"exactly as many as counted", SearchQuery{Query: "beta", Mode: SearchKeyword, Limit: 50}, 50, MaxSearchTotal, false, MaxSearchTotal / 50},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := e.SearchPage(ctx, tt.give)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != tt.wantHits || res.Total != tt.wantTotal || res.AtLeast != tt.wantAtLeast || res.TotalPages != tt.wantPages {
				t.Errorf("SearchPage(%+v) = %d hits, total %d (at least: %v), %d pages; want %d, %d (%v), %d",
					tt.give, len(res.Hits), res.Total, res.AtLeast, res.TotalPages, tt.wantHits, tt.wantTotal, tt.wantAtLeast, tt.wantPages)
			}
		})
	}
}

// TestSearchSortBy: sortBy reorders the page's notes; the ranking still
// picks them.
func TestSearchSortBy(t *testing.T) {
	ctx := context.Background()
	e := searchEngine(t)
	base := SearchQuery{Query: "the", Mode: SearchKeyword, Limit: 6}
	ranked, err := e.SearchPage(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	title := func(id string) string {
		n, _ := e.GetNode(ctx, id, false)
		return strings.ToLower(n.Title)
	}
	tests := []struct {
		desc string
		give []string
		less func(a, b SearchHit) bool // a may come before b
	}{
		{"title", []string{"title"}, func(a, b SearchHit) bool { return title(a.ID) <= title(b.ID) }},
		{"path descending", []string{"-path"}, func(a, b SearchHit) bool { return a.ID >= b.ID }},
		{"score ascending", []string{"score"}, func(a, b SearchHit) bool { return a.Score <= b.Score }},
		{"score descending keeps the rank", []string{"-score"}, func(a, b SearchHit) bool { return a.KeywordRank < b.KeywordRank }},
		{"comma-separated, any case", []string{"-Score,Title"}, func(a, b SearchHit) bool {
			return a.Score > b.Score || a.Score == b.Score && title(a.ID) <= title(b.ID)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			q := base
			q.SortBy = tt.give
			res, err := e.SearchPage(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(slices.Sorted(slices.Values(searchIDs(res.Hits))), slices.Sorted(slices.Values(searchIDs(ranked.Hits)))) || res.Total != ranked.Total {
				t.Errorf("SearchPage(sortBy %q) = %q, want the ranked page's notes %q", tt.give, searchIDs(res.Hits), searchIDs(ranked.Hits))
			}
			for i := 1; i < len(res.Hits); i++ {
				if !tt.less(res.Hits[i-1], res.Hits[i]) {
					t.Errorf("SearchPage(sortBy %q) = %q: %s before %s", tt.give, searchIDs(res.Hits), res.Hits[i-1].ID, res.Hits[i].ID)
				}
			}
		})
	}
	for _, bad := range [][]string{{"bogus"}, {"title,-size"}} {
		q := base
		q.SortBy = bad
		if _, err := e.SearchPage(ctx, q); !errors.Is(err, ErrInvalid) {
			t.Errorf("SearchPage(sortBy %q) = %v, want ErrInvalid", bad, err)
		}
	}
}

// TestSearchNothingSimilar: a query like no note finds nothing by
// vectors, rather than the notes least unlike it.
func TestSearchNothingSimilar(t *testing.T) {
	e := builtinSearchEngine(t)
	tests := []struct {
		desc, give string
		modes      []SearchMode
	}{
		{"no word in the vault", "quantum chromodynamics", []SearchMode{SearchSemantic, SearchHybrid}},
		{"one word", "xylophone", []SearchMode{SearchSemantic, SearchHybrid}},
		// "of" is in notes: hybrid has its keyword hits.
		{"words unlike the notes", "photosynthesis of chlorophyll", []SearchMode{SearchSemantic}},
	}
	for _, tt := range tests {
		for _, mode := range tt.modes {
			res, err := e.SearchPage(context.Background(), SearchQuery{Query: tt.give, Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != 0 || res.Total != 0 || res.TotalPages != 0 {
				t.Errorf("%s: SearchPage(%q, %s) = %+v, total %d of %d pages; want nothing", tt.desc, tt.give, mode, res.Hits, res.Total, res.TotalPages)
			}
		}
	}
}

// TestSearchVectorOnlyHits: in hybrid, a note only the vector search
// found scores by its similarity relative to the best (or to
// BuiltinStrongSimilarity), and its snippet shows the query's words of
// its best chunk.
func TestSearchVectorOnlyHits(t *testing.T) {
	ctx := context.Background()
	e := builtinSearchEngine(t)
	const query = "malformed frontmatter"
	sem, err := e.SearchPage(ctx, SearchQuery{Query: query, Mode: SearchSemantic, Limit: MaxSearchLimit})
	if err != nil {
		t.Fatal(err)
	}
	if len(sem.Hits) == 0 || sem.Hits[0].ID != "Notes/Broken YAML.md" || !strings.Contains(sem.Hits[0].Snippet, "The **frontmatter** above is **malformed**.") {
		t.Fatalf("SearchPage(%q, semantic) = %+v, want Notes/Broken YAML.md first with the words of its chunk in bold", query, sem.Hits)
	}
	sim := map[string]float64{}
	for _, h := range sem.Hits {
		sim[h.ID] = h.Score
		if h.Score < BuiltinMinSimilarity {
			t.Errorf("SearchPage(%q, semantic) %s scores %v, below BuiltinMinSimilarity", query, h.ID, h.Score)
		}
	}
	hyb, err := e.SearchPage(ctx, SearchQuery{Query: query, Mode: SearchHybrid, Limit: MaxSearchLimit})
	if err != nil {
		t.Fatal(err)
	}
	vectorOnly := 0
	for _, h := range hyb.Hits {
		if h.KeywordRank > 0 {
			continue
		}
		vectorOnly++
		want := sim[h.ID] / max(sem.Hits[0].Score, BuiltinStrongSimilarity) / float64(RRFK+h.VectorRank) / (2 / float64(RRFK+1))
		if math.Abs(h.Score-want) > 1e-3 || h.Snippet == "" {
			t.Errorf("SearchPage(%q, hybrid) vector-only %s (vector rank %d, similarity %v) = score %v, snippet %q; want %.4f and a snippet",
				query, h.ID, h.VectorRank, sim[h.ID], h.Score, h.Snippet, want)
		}
	}
	if vectorOnly == 0 {
		t.Errorf("SearchPage(%q, hybrid) = %+v, want notes only the vector search found", query, hyb.Hits)
	}
}

// FuzzWindowText: any text and query make a one-line snippet that is the
// text's words as they are, with only bold marks and ellipses added.
func FuzzWindowText(f *testing.F) {
	f.Add("# T\n\nThe budget risk is tracked.", "budget risk", 40)
	f.Add("東京の旅行メモ。 Unicode", "旅行", 5)
	f.Add("Cafe\u0301 Menu \u0301\u0301 x", "\u0301\u0301 café", 200)
	f.Fuzz(func(t *testing.T, text, query string, n int) {
		n = n%300 + 1
		if n < 1 {
			n = -n + 1
		}
		got := windowText(text, "T", snippetWords(query), n)
		if strings.ContainsAny(got, "\n\r") {
			t.Fatalf("windowText(%q, %q, %d) = %q: more than one line", text, query, n, got)
		}
		if !utf8.ValidString(text) || strings.ContainsAny(text, "*…"+store.MarkOpen+store.MarkClose) {
			return
		}
		flat := textfold.Flatten(textfold.DropTitleHeading(text, "T"))
		plain := strings.ReplaceAll(strings.Trim(got, "…"), "**", "")
		if !strings.Contains(flat, plain) {
			t.Fatalf("windowText(%q, %q, %d) = %q: not a part of the text %q", text, query, n, got, flat)
		}
	})
}
