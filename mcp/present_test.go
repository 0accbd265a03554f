package mcp_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
	"github.com/vaultgraph/vaultgraph/mcp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// call is one read-tool call of the response tests: the tool and a
// function running it with a presentation.
type call struct {
	name string // golden file stem
	tool string
	run  func(context.Context, *mcp.Tools, mcp.Presentation) (any, error)
}

// openTools opens an Engine over dir with its index in a temporary folder.
func openTools(t testing.TB, dir string) *mcp.Tools {
	t.Helper()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return &mcp.Tools{Engine: e, Rand: rand.New(rand.NewPCG(7, 7))}
}

// generatedVault writes a deterministic 1,000-note vault.
func generatedVault(t testing.TB, notes int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: notes, Seed: 42}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readCalls are typical calls of every read tool. hub and other are notes
// of the vault (a well-linked one and another), tag a tag and query words
// to search for.
func readCalls(hub, other, tag, query string) []call {
	return []call{
		{"get_node", "get_node", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.GetNode(ctx, mcp.GetNodeParams{ID: hub, Presentation: p})
		}},
		{"get_node_depth1", "get_node", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.GetNode(ctx, mcp.GetNodeParams{ID: hub, Depth: 1, Presentation: p})
		}},
		{"get_neighbors", "get_neighbors", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: hub, Presentation: p})
		}},
		{"find_path", "find_path", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.FindPath(ctx, mcp.FindPathParams{Source: other, Target: hub, Presentation: p})
		}},
		{"get_hubs", "get_hubs", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.GetHubs(ctx, mcp.GetHubsParams{Metric: string(graph.PageRank), Presentation: p})
		}},
		{"search_by_tags", "search_by_tags", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{tag}, Presentation: p})
		}},
		{"list_nodes", "list_nodes", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.ListNodes(ctx, mcp.ListNodesParams{Presentation: p})
		}},
		{"list_tags", "list_tags", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.ListTags(ctx, mcp.ListTagsParams{Presentation: p})
		}},
		{"random_node", "random_node", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			// With a tag the pick depends only on the seed (without one it
			// also depends on the order notes were loaded in).
			return tl.RandomNode(ctx, mcp.RandomNodeParams{Tags: []string{tag}, Presentation: p})
		}},
		{"vault_status", "vault_status", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.VaultStatus(ctx, mcp.VaultStatusParams{Presentation: p})
		}},
		{"search", "search", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.Search(ctx, mcp.SearchParams{Query: query, Presentation: p})
		}},
	}
}

// testvaultCalls are readCalls on testvault.
func testvaultCalls() []call { return readCalls("Home", "Deep Note", "project", "alpha plan") }

// render runs c and renders its answer as p says.
func render(t testing.TB, tl *mcp.Tools, c call, p mcp.Presentation) string {
	t.Helper()
	tl.Rand = rand.New(rand.NewPCG(7, 7)) // random_node: the same note every time
	if c.tool == "vault_status" && p.Detail != mcp.DetailMinimal {
		// The vault path, sync time and load time change from run to run;
		// the tests keep to the stable fields.
		p.Fields = []string{"notes", "links", "brokenLinks", "attachments", "tags", "edges", "problemCount", "duplicateNameCount", "duplicateNames"}
	}
	v, err := c.run(context.Background(), tl, p)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	s, err := mcp.Render(c.tool, v, p)
	if err != nil {
		t.Fatalf("%s: Render = %v", c.name, err)
	}
	return s
}

// TestGolden checks every read tool's answer on testvault in each format
// at standard detail, and at minimal and full detail in the default
// format, against testdata/golden (go test ./mcp -run Golden -update
// rewrites them). Full detail leaves out the file dates, which depend on
// the checkout.
func TestGolden(t *testing.T) {
	tl := openTools(t, filepath.Join("..", "testvault"))
	variants := []struct {
		suffix string
		p      mcp.Presentation
	}{
		{"toon", mcp.Presentation{Format: mcp.FormatTOON}},
		{"md", mcp.Presentation{Format: mcp.FormatMarkdown}},
		{"json", mcp.Presentation{Format: mcp.FormatJSON}},
		{"minimal", mcp.Presentation{Detail: mcp.DetailMinimal}},
		{"full", mcp.Presentation{Detail: mcp.DetailFull}},
	}
	for _, c := range testvaultCalls() {
		for _, v := range variants {
			if v.suffix == "full" {
				v.p.Fields = withoutDates(c.tool)
			}
			name := c.name + "." + v.suffix
			t.Run(name, func(t *testing.T) {
				got := render(t, tl, c, v.p) + "\n"
				path := filepath.Join("testdata", "golden", name+".txt")
				if *update {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./mcp -run Golden -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, got, want)
				}
			})
		}
	}
}

// withoutDates is every field of tool but the file dates.
func withoutDates(tool string) []string {
	all, _, _, _ := mcp.FieldTable(tool)
	return slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == "created" || f == "modified" })
}

// TestMaxTokens checks that every answer fits budgets from 50 to 5,000
// tokens in every format, on testvault and a generated vault, that a
// trimmed answer says what it left out, and that it stays valid data.
func TestMaxTokens(t *testing.T) {
	vaults := []struct {
		name  string
		tl    *mcp.Tools
		calls []call
	}{
		{"testvault", openTools(t, filepath.Join("..", "testvault")), testvaultCalls()},
		{"generated", openTools(t, generatedVault(t, 300)), nil},
	}
	vaults[1].calls = generatedCalls(t, vaults[1].tl)
	budgets := []int{50, 80, 120, 200, 350, 500, 800, 1200, 2000, 5000}
	for _, vt := range vaults {
		for _, c := range vt.calls {
			for _, format := range mcp.Formats.Values {
				for _, detail := range []string{mcp.DetailStandard, mcp.DetailFull} {
					full := render(t, vt.tl, c, mcp.Presentation{Format: format, Detail: detail})
					fullTokens := countTokens(t, full)
					for _, budget := range budgets {
						p := mcp.Presentation{Format: format, Detail: detail, MaxTokens: budget}
						got := render(t, vt.tl, c, p)
						n := countTokens(t, got)
						desc := fmt.Sprintf("%s %s %s/%s maxTokens %d", vt.name, c.name, format, detail, budget)
						if n > budget {
							t.Errorf("%s: %d tokens:\n%s", desc, n, got)
						}
						if !utf8.ValidString(got) {
							t.Errorf("%s: invalid UTF-8", desc)
						}
						if fullTokens <= budget && got != full {
							t.Errorf("%s: the whole answer (%d tokens) fits but was trimmed", desc, fullTokens)
						}
						if fullTokens > budget && !strings.Contains(got, "maxTokens") {
							t.Errorf("%s: trimmed answer does not say what it left out:\n%s", desc, got)
						}
						if format == mcp.FormatJSON && !json.Valid([]byte(got)) {
							t.Errorf("%s: not valid JSON:\n%s", desc, got)
						}
						if strings.TrimLeft(got, " \n") != got {
							t.Errorf("%s: starts with a blank line:\n%s", desc, got)
						}
					}
				}
			}
		}
	}
}

// TestTightBudgets checks that a tight budget drops warnings before the
// identifying fields, and keeps the id, total and page when anything fits.
func TestTightBudgets(t *testing.T) {
	tl := openTools(t, filepath.Join("..", "testvault"))
	ctx := context.Background()
	tests := []struct {
		desc   string
		tool   string
		run    func(mcp.Presentation) (any, error)
		p      mcp.Presentation
		want   []string
		unwant []string
	}{
		{
			desc: "get_node 60 toon keeps the id, counts the warnings",
			tool: "get_node",
			run: func(p mcp.Presentation) (any, error) {
				return tl.GetNode(ctx, mcp.GetNodeParams{ID: "Home", Presentation: p})
			},
			p:      mcp.Presentation{Format: mcp.FormatTOON, MaxTokens: 60},
			want:   []string{"id: Home.md", "2 warnings left out", "read vaultgraph://note/Home.md"},
			unwant: []string{"does not fit", "broken link"},
		},
		{
			desc: "list_tags 50 keeps total and page, no rows to speak of",
			tool: "list_tags",
			run: func(p mcp.Presentation) (any, error) {
				return tl.ListTags(ctx, mcp.ListTagsParams{Presentation: p})
			},
			p:      mcp.Presentation{MaxTokens: 50},
			want:   []string{"total: 17", "page: 1", "all 17 tags left out", "page with a smaller limit"},
			unwant: []string{"does not fit", "id fields"},
		},
		{
			desc: "vault_status 50 names no id fields",
			tool: "vault_status",
			run: func(p mcp.Presentation) (any, error) {
				return tl.VaultStatus(ctx, mcp.VaultStatusParams{Presentation: p})
			},
			p:      mcp.Presentation{MaxTokens: 50},
			want:   []string{"notes: 13", "fields left out"},
			unwant: []string{"id fields", "page"},
		},
		{
			desc: "get_node markdown 50 does not start with a blank line",
			tool: "get_node",
			run: func(p mcp.Presentation) (any, error) {
				return tl.GetNode(ctx, mcp.GetNodeParams{ID: "Notes/東京 Trip", Presentation: p})
			},
			p:      mcp.Presentation{Format: mcp.FormatMarkdown, MaxTokens: 50},
			want:   []string{"# Notes/東京 Trip.md\n"},
			unwant: []string{"id: Notes", "detail: full"},
		},
		{
			desc: "get_node markdown with only content starts with it",
			tool: "get_node",
			run: func(p mcp.Presentation) (any, error) {
				return tl.GetNode(ctx, mcp.GetNodeParams{ID: "Home", Presentation: p})
			},
			p:    mcp.Presentation{Format: mcp.FormatMarkdown, Fields: []string{"content"}},
			want: []string{"# Home\n\nWelcome"},
		},
		{
			desc: "search has no page advice while it has no page",
			tool: "search",
			run: func(p mcp.Presentation) (any, error) {
				return tl.Search(ctx, mcp.SearchParams{Query: "alpha plan", Presentation: p})
			},
			p:    mcp.Presentation{MaxTokens: 120},
			want: []string{"left out (maxTokens 120"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			v, err := tt.run(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := mcp.Render(tt.tool, v, tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if n := countTokens(t, got); n > tt.p.MaxTokens && tt.p.MaxTokens > 0 {
				t.Errorf("%d tokens, over %d", n, tt.p.MaxTokens)
			}
			if strings.HasPrefix(got, "\n") {
				t.Errorf("starts with a blank line:\n%s", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.unwant {
				if strings.Contains(got, w) {
					t.Errorf("answer holds %q:\n%s", w, got)
				}
			}
			if tt.tool == "search" && !strings.Contains(got, "\npage: ") && strings.Contains(got, "page with") {
				t.Errorf("search answer without pages advises paging:\n%s", got)
			}
		})
	}
}

// generatedCalls are readCalls on a generated vault: the top hub, a note
// linked to it, the most used tag, and the hub's title as the query.
func generatedCalls(t testing.TB, tl *mcp.Tools) []call {
	t.Helper()
	ctx := context.Background()
	top, err := tl.Engine.HubsPage(ctx, graph.InDegree, vaultgraph.PageQuery{Limit: 1})
	if err != nil || len(top.Hubs) == 0 {
		t.Fatalf("HubsPage = %v, %v", top, err)
	}
	hubs := top.Hubs
	nbs, _, _, err := tl.Engine.Neighbors(ctx, hubs[0].ID, graph.In, 1)
	if err != nil || len(nbs) == 0 {
		t.Fatalf("Neighbors = %v, %v", nbs, err)
	}
	tags, err := tl.Engine.ListTags(ctx)
	if err != nil || len(tags) == 0 {
		t.Fatalf("ListTags = %v, %v", tags, err)
	}
	return readCalls(hubs[0].ID, nbs[0].ID, tags[0].Tag, hubs[0].Title)
}

func countTokens(t testing.TB, s string) int {
	t.Helper()
	n, err := mcp.CountTokens(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFieldsAndDetail checks field selection: presets, explicit fields in
// any case and order, unknown fields as a warning, an empty list as the
// preset, and bad format or detail values as INVALID_PARAMS.
func TestFieldsAndDetail(t *testing.T) {
	tl := openTools(t, filepath.Join("..", "testvault"))
	ctx := context.Background()
	list := func(p mcp.Presentation) map[string]any {
		t.Helper()
		p.Format = mcp.FormatJSON
		v, err := tl.ListNodes(ctx, mcp.ListNodesParams{Presentation: p, Paging: mcp.Paging{Limit: 3}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := mcp.Render("list_nodes", v, p)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			t.Fatalf("%v: %s", err, s)
		}
		return out
	}
	keys := func(out map[string]any) string {
		row := out["nodes"].([]any)[0].(map[string]any)
		var ks []string
		for k := range row {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return strings.Join(ks, ",")
	}
	tests := []struct {
		desc     string
		p        mcp.Presentation
		want     string
		warnings bool
	}{
		{"default is standard", mcp.Presentation{}, "content,id,tags,title", false},
		{"minimal", mcp.Presentation{Detail: "minimal"}, "id,title", false},
		{"full", mcp.Presentation{Detail: "FULL"}, "aliases,content,created,hash,id,inDegree,modified,outDegree,size,tags,title", false},
		{"fields override detail", mcp.Presentation{Detail: "full", Fields: []string{"Title", "id"}}, "id,title", false},
		{"comma-separated fields", mcp.Presentation{Fields: []string{"id,modified"}}, "id,modified", false},
		{"empty fields is the preset", mcp.Presentation{Fields: []string{}}, "content,id,tags,title", false},
		{"unknown field warns", mcp.Presentation{Fields: []string{"id", "colour"}}, "id", true},
		{"only unknown fields: preset and warning", mcp.Presentation{Fields: []string{"colour"}}, "content,id,tags,title", true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			out := list(tt.p)
			if got := keys(out); got != tt.want {
				t.Errorf("row fields = %s, want %s", got, tt.want)
			}
			w, _ := out["warnings"].([]any)
			if (len(w) > 0) != tt.warnings {
				t.Errorf("warnings = %v, want some: %v", w, tt.warnings)
			}
			if tt.warnings && !strings.Contains(fmt.Sprint(w), "colour") {
				t.Errorf("warning %v does not name the unknown field", w)
			}
		})
	}
	for _, p := range []mcp.Presentation{{Format: "xml"}, {Detail: "everything"}, {MaxTokens: 10}, {MaxTokens: mcp.MaxMaxTokens + 1}} {
		_, err := mcp.Render("list_nodes", &mcp.ListResponse{}, p)
		if mcp.Code(err) != "INVALID_PARAMS" {
			t.Errorf("Render(%+v) error = %v, want INVALID_PARAMS", p, err)
		}
	}
	if s, err := mcp.Render("get_node", nil, mcp.Presentation{}); err != nil || s != "null" {
		t.Errorf("Render(nil) = %q, %v, want null", s, err)
	}
}

// TestSortByUnknown checks that every list tool refuses an unknown sort
// key with INVALID_PARAMS naming it.
func TestSortByUnknown(t *testing.T) {
	tl := openTools(t, filepath.Join("..", "testvault"))
	ctx := context.Background()
	bad := mcp.SortKeys{"-colour"}
	for name, run := range map[string]func() (any, error){
		"list_nodes": func() (any, error) { return tl.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{SortBy: bad}}) },
		"get_neighbors": func() (any, error) {
			return tl.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{SortBy: bad}})
		},
		"search_by_tags": func() (any, error) {
			return tl.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Paging: mcp.Paging{SortBy: bad}})
		},
		"list_tags": func() (any, error) { return tl.ListTags(ctx, mcp.ListTagsParams{Paging: mcp.Paging{SortBy: bad}}) },
		"get_hubs":  func() (any, error) { return tl.GetHubs(ctx, mcp.GetHubsParams{Paging: mcp.Paging{SortBy: bad}}) },
	} {
		_, err := run()
		if mcp.Code(err) != "INVALID_PARAMS" || !strings.Contains(mcp.Message(err), "colour") {
			t.Errorf("%s sortBy -colour: error = %v, want INVALID_PARAMS naming it", name, err)
		}
	}
}

// TestSortKeysJSON checks that sortBy takes a string or a list.
func TestSortKeysJSON(t *testing.T) {
	for in, want := range map[string]string{
		`"-modified"`:           "-modified",
		`"-modified, title"`:    "-modified|title",
		`["-modified","title"]`: "-modified|title",
		`["a,b", "c"]`:          "a|b|c",
		`[]`:                    "",
	} {
		var k mcp.SortKeys
		if err := json.Unmarshal([]byte(in), &k); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := strings.Join(k, "|"); got != want {
			t.Errorf("%s = %q, want %q", in, got, want)
		}
	}
	var k mcp.SortKeys
	if err := json.Unmarshal([]byte(`{"a":1}`), &k); mcp.Code(err) != "INVALID_PARAMS" {
		t.Errorf("object: error = %v, want INVALID_PARAMS", err)
	}
}
