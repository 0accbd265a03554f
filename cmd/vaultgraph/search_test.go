package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// searchAnswer is search's JSON answer.
type searchAnswer struct {
	Nodes []struct {
		ID      string   `json:"id"`
		Title   string   `json:"title"`
		Score   *float64 `json:"score"`
		Tags    []string `json:"tags"`
		Snippet string   `json:"snippet"`
		Content *string  `json:"content"`
	} `json:"nodes"`
	Total      int      `json:"total"`
	Page       int      `json:"page"`
	TotalPages int      `json:"totalPages"`
	Hint       string   `json:"hint"`
	Warnings   []string `json:"warnings"`
}

func (a searchAnswer) ids() []string {
	out := make([]string, len(a.Nodes))
	for i, n := range a.Nodes {
		out[i] = n.ID
	}
	return out
}

func TestSearchCommand(t *testing.T) {
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	search := func(args ...string) (string, string, int) {
		// Keyword ranking is what these cases check: no vectors.
		return runCLI(t, append([]string{"search", "--vault", vault, "--index", index, "--embed", "none"}, args...)...)
	}
	tests := []struct {
		desc     string
		give     []string
		want     []string // ids, best first
		snippet  string   // in the first snippet
		warnings int
	}{
		{"words", []string{"meeting", "notes"}, []string{"Notes/Meeting Notes.md", "Projects/Alpha Plan.md", "Notes/東京 Trip.md", "Home.md"}, "", 1},
		{"diacritics", []string{"cafe", "--mode", "keyword"}, []string{"Notes/Café Menu.md", "Notes/Meeting Notes.md", "Home.md"}, "", 0},
		{"phrase", []string{`"budget risk"`}, []string{"Projects/Alpha Plan.md"}, "**Budget risk**", 1},
		{"CJK", []string{"東京", "--mode", "semantic"}, []string{"Notes/東京 Trip.md", "Notes/Meeting Notes.md"}, "**東京**の旅行メモ", 1},
		{"folder", []string{"alpha", "--folder", "archive"}, []string{"Archive/Alpha Plan.md", "Archive/Old Ideas.md"}, "", 1},
		{"tags", []string{"plan", "--tags", "project,beta", "--tag-mode", "all"}, []string{"Projects/Beta.md"}, "", 1},
		{"limit", []string{"home", "--limit", "1"}, []string{"Home.md"}, "**home**", 1},
		{"FTS5 syntax is text", []string{"--", "(home)", "-MOC*", "[[welcome"}, []string{"Home.md"}, "**Welcome**", 1},
		{"no match", []string{"--", "NEAR(", "-zebra*"}, nil, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			out, errOut, code := search(append([]string{"--format", "json"}, tt.give...)...)
			if code != 0 {
				t.Fatalf("search %q = exit %d, stderr %q", tt.give, code, errOut)
			}
			a := decode[searchAnswer](t, out)
			if got := a.ids(); !slices.Equal(got, tt.want) && !(len(got) == 0 && tt.want == nil) {
				t.Errorf("search %q = %q, want %q", tt.give, got, tt.want)
			}
			for i, n := range a.Nodes {
				if n.Score == nil || *n.Score < 0 || *n.Score > 1 || n.Snippet == "" || n.Content != nil {
					t.Errorf("search %q row %d = %+v, want a score in 0-1, a snippet, no content", tt.give, i, n)
				}
			}
			if tt.snippet != "" && (len(a.Nodes) == 0 || !strings.Contains(a.Nodes[0].Snippet, tt.snippet)) {
				t.Errorf("search %q first snippet lacks %q: %+v", tt.give, tt.snippet, a.Nodes)
			}
			if len(a.Warnings) != tt.warnings {
				t.Errorf("search %q warnings = %q, want %d", tt.give, a.Warnings, tt.warnings)
			}
		})
	}

	// Default TOON, Markdown, detail, fields, max tokens.
	formats := []struct {
		give []string
		want string // the start of stdout
	}{
		{[]string{"cafe"}, "nodes[3]{id,title,score,tags,snippet}:\n  Notes/Café Menu.md,Café Menu,1,food,"},
		{[]string{"cafe", "--format", "markdown"}, "3 nodes\n1. **Café Menu** Notes/Café Menu.md · score 1.00 strong"},
		{[]string{"cafe", "--detail", "minimal"}, "nodes[3]{id,title,score}:\n  Notes/Café Menu.md,Café Menu,1\n"},
		{[]string{"cafe", "--fields", "id,snippet"}, "nodes[3]{id,score,snippet}:\n"},
		{[]string{"home", "--max-tokens", "100"}, "nodes["},
	}
	for _, tt := range formats {
		out, errOut, code := search(tt.give...)
		if code != 0 || !strings.HasPrefix(out, tt.want) {
			t.Errorf("search %q = exit %d, %q (stderr %q), want it to start with %q", tt.give, code, out, errOut, tt.want)
		}
	}

	// Pages: the total and the pages, the notes of each page, --sort-by.
	out, errOut, code := search("home", "--limit", "50", "--format", "json", "--mode", "keyword")
	all := decode[searchAnswer](t, out)
	if code != 0 || all.Total != 7 || len(all.Nodes) != 7 || all.Page != 1 || all.TotalPages != 1 || all.Hint != "" {
		t.Fatalf("search home --limit 50 = exit %d (%s), %q, total %d, page %d of %d, hint %q; want 7 notes on page 1 of 1, no hint",
			code, errOut, all.ids(), all.Total, all.Page, all.TotalPages, all.Hint)
	}
	out, _, _ = search("home", "--limit", "3", "--page", "2", "--format", "json", "--mode", "keyword")
	a := decode[searchAnswer](t, out)
	if got, want := a.ids(), all.ids()[3:6]; !slices.Equal(got, want) || a.Total != 7 || a.Page != 2 || a.TotalPages != 3 || a.Hint != "page 2 of 3: pass --page 3 for more" {
		t.Errorf("search home --limit 3 --page 2 = %q, total %d, page %d of %d, hint %q; want %q, 7, 2 of 3, the next page", got, a.Total, a.Page, a.TotalPages, a.Hint, want)
	}
	out, _, _ = search("home", "--limit", "3", "--sort-by", "path", "--format", "json", "--mode", "keyword")
	a = decode[searchAnswer](t, out)
	if got, want := a.ids(), slices.Sorted(slices.Values(all.ids()[:3])); !slices.Equal(got, want) {
		t.Errorf("search home --limit 3 --sort-by path = %q, want the first 3 by rank, by path: %q", got, want)
	}

	// Mistakes are INVALID_PARAMS on stderr with exit 1.
	for _, give := range [][]string{{}, {" "}, {"x", "--mode", "fuzzy"}, {"x", "--limit", "-1"}, {"x", "--limit", "0"}, {"x", "--limit", "51"},
		{"x", "--page", "-1"}, {"x", "--sort-by", "size"}, {"x", "--tag-mode", "some"}, {"x", "--format", "xml"}} {
		out, errOut, code := search(give...)
		if code != 1 || out != "" || !strings.HasPrefix(errOut, "vaultgraph: INVALID_PARAMS: ") {
			t.Errorf("search %q = exit %d, stdout %q, stderr %q, want exit 1 and INVALID_PARAMS", give, code, out, errOut)
		}
	}
}

func TestSearchHelp(t *testing.T) {
	out, errOut, code := runCLI(t, "search", "--help")
	if code != 0 || errOut != "" || !strings.Contains(out, "Usage:\n  vaultgraph search QUERY...") {
		t.Errorf("search --help = exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	for _, flag := range []string{"--mode", "--limit", "--page", "--sort-by", "--tags", "--tag-mode", "--folder", "--format", "--detail", "--fields", "--max-tokens", "--vault"} {
		if !strings.Contains(out, flag) {
			t.Errorf("search --help lacks %s", flag)
		}
	}
	out, _, _ = runCLI(t, "--help")
	if !strings.Contains(out, "  search ") {
		t.Errorf("vaultgraph --help does not list search:\n%s", out)
	}
}

// TestSearchSemanticBuiltin checks the default embedder end to end: the
// CLI makes the missing vectors before answering, a semantic query finds
// the note by words its title and body share, and vault-status reports
// full coverage by the builtin model.
func TestSearchSemanticBuiltin(t *testing.T) {
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	out, errOut, code := runCLI(t, "search", "tokyo trip", "--mode", "semantic", "--detail", "minimal", "--format", "json",
		"--vault", vault, "--index", index)
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errOut)
	}
	var got searchAnswer
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if ids := got.ids(); len(ids) == 0 || ids[0] != "Notes/東京 Trip.md" {
		t.Errorf("semantic search = %q, want Notes/東京 Trip.md first", ids)
	}
	out, _, _ = runCLI(t, "vault-status", "--fields", "embeddingCoverage,embeddingModel", "--format", "json", "--vault", vault, "--index", index)
	if !strings.Contains(out, `"embeddingCoverage":1`) || !strings.Contains(out, `"embeddingModel":"builtin-hash-v1-512"`) {
		t.Errorf("vault-status = %s, want full coverage by the builtin model", out)
	}
}
