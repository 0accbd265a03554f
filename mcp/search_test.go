package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// The search tool is not registered by NewServer yet: these tests add it
// to a test server.

func TestSearchToolDefinition(t *testing.T) {
	tool := searchTool().Tool
	if tool.Name != "search" {
		t.Fatalf("searchTool name = %q, want search", tool.Name)
	}
	if a := tool.Annotations; a.ReadOnlyHint == nil || !*a.ReadOnlyHint {
		t.Errorf("search annotations = %+v, want read-only", a)
	}
	if !slices.Equal(tool.InputSchema.Required, []string{"query"}) {
		t.Errorf("search required = %q, want [query]", tool.InputSchema.Required)
	}
	for _, name := range []string{"query", "mode", "limit", "page", "sortBy", "tags", "tagMode", "folder"} {
		if _, ok := tool.InputSchema.Properties[name]; !ok {
			t.Errorf("search has no parameter %q", name)
		}
	}
	limit := tool.InputSchema.Properties["limit"].(map[string]any)
	if lo, _ := number(limit["minimum"]); lo != 1 {
		t.Errorf("search limit schema = %v, want minimum 1", limit)
	}
	if hi, _ := number(limit["maximum"]); hi != float64(vaultgraph.MaxSearchLimit) {
		t.Errorf("search limit schema = %v, want 1 to %d", limit, vaultgraph.MaxSearchLimit)
	}
	mode := tool.InputSchema.Properties["mode"].(map[string]any)
	if !slices.Equal(mode["enum"].([]string), []string{"hybrid", "keyword", "semantic"}) {
		t.Errorf("search mode enum = %v", mode["enum"])
	}
}

func TestSearchCalls(t *testing.T) {
	ts := newTestServer(t, searchTool().serverTool)
	m := decode(t, mustCall(t, ts, map[string]any{"query": "cafe", "format": "json"}))
	nodes := asSlice(m["nodes"])
	if got, want := ids(m["nodes"]), []string{"Notes/Café Menu.md", "Notes/Meeting Notes.md", "Home.md"}; !slices.Equal(got, want) {
		t.Fatalf("search(cafe) = %q, want %q", got, want)
	}
	last := 2.0
	for i, n := range nodes {
		row := n.(map[string]any)
		var keys []string
		for k := range row {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"id", "score", "snippet", "tags", "title"}; !slices.Equal(keys, want) {
			t.Errorf("search(cafe) row %d fields = %q, want %q (standard)", i, keys, want)
		}
		score, _ := row["score"].(float64)
		if score <= 0 || score > 1 || score > last {
			t.Errorf("search(cafe) row %d score %v, want 0-1 and not above %v", i, score, last)
		}
		last = score
	}
	if snip := nodes[1].(map[string]any)["snippet"].(string); !strings.Contains(snip, "**café**") {
		t.Errorf("search(cafe) snippet of Meeting Notes = %q, want **café** in it", snip)
	}
	if w := strs(m["warnings"]); len(w) != 1 || !strings.HasPrefix(w[0], "vector search unavailable") {
		t.Errorf("search(cafe) warnings = %q, want vector search unavailable", w)
	}
	if _, ok := m["hint"]; ok {
		t.Errorf("search(cafe) hint = %v, want none (every match shown)", m["hint"])
	}

	// Filters, and keyword mode without the vector warning.
	m = decode(t, mustCall(t, ts, map[string]any{"query": "alpha", "folder": "archive", "tags": []string{"archive"}, "mode": "keyword", "format": "json"}))
	if got, want := ids(m["nodes"]), []string{"Archive/Alpha Plan.md", "Archive/Old Ideas.md"}; !slices.Equal(got, want) {
		t.Errorf("search(alpha, folder archive, tag archive) = %q, want %q", got, want)
	}
	if m["warnings"] != nil {
		t.Errorf("search(alpha, keyword) warnings = %v, want none", m["warnings"])
	}
	m = decode(t, mustCall(t, ts, map[string]any{"query": "alpha", "tags": []string{"archive", "project"}, "tagMode": "all", "format": "json"}))
	if got := ids(m["nodes"]); len(got) != 0 {
		t.Errorf("search(alpha, tags archive and project) = %q, want none", got)
	}

	// Pages: every matching note once, the total and pages on each, the
	// hint naming the next page.
	all := decode(t, mustCall(t, ts, map[string]any{"query": "home", "limit": 50, "format": "json"}))
	want := ids(all["nodes"])
	if len(want) != 7 || want[0] != "Home.md" || all["total"] != 7.0 || all["page"] != 1.0 || all["totalPages"] != 1.0 || all["hint"] != nil {
		t.Fatalf("search(home, limit 50) = %q, total %v, page %v of %v, hint %v; want 7 notes, Home.md first, page 1 of 1, no hint",
			want, all["total"], all["page"], all["totalPages"], all["hint"])
	}
	var paged []string
	for page := 1; page <= 4; page++ {
		m = decode(t, mustCall(t, ts, map[string]any{"query": "home", "limit": 2, "page": page, "format": "json"}))
		paged = append(paged, ids(m["nodes"])...)
		hint, _ := m["hint"].(string)
		wantHint := fmt.Sprintf("page %d of 4: pass page: %d for more", page, page+1)
		if page == 4 {
			wantHint = ""
		}
		if m["total"] != 7.0 || m["page"] != float64(page) || m["totalPages"] != 4.0 || hint != wantHint {
			t.Errorf("search(home, limit 2, page %d) = total %v, page %v of %v, hint %q; want 7, %d of 4, %q", page, m["total"], m["page"], m["totalPages"], hint, page, wantHint)
		}
	}
	if !slices.Equal(paged, want) {
		t.Errorf("search(home, limit 2) pages 1-4 = %q, want %q", paged, want)
	}

	// sortBy reorders the page the ranking picked.
	m = decode(t, mustCall(t, ts, map[string]any{"query": "home", "limit": 4, "sortBy": "-title", "format": "json"}))
	got := ids(m["nodes"])
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want[:4]))) {
		t.Errorf("search(home, limit 4, sortBy -title) = %q, want the first 4 ranked %q", got, want[:4])
	}
	var titles []string
	for _, n := range asSlice(m["nodes"]) {
		titles = append(titles, strings.ToLower(n.(map[string]any)["title"].(string)))
	}
	if !slices.IsSortedFunc(titles, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("search(home, limit 4, sortBy -title) titles = %q, want them descending", titles)
	}

	// FTS5 syntax is text.
	for _, q := range []string{`"unbalanced`, `a OR`, `NEAR(`, `*`, `-x`, `title:home`} {
		if text, isErr := ts.call(t, "search", map[string]any{"query": q}); isErr {
			t.Errorf("search(%q) = %q, want an answer", q, text)
		}
	}
}

func mustCall(t *testing.T, ts *testServer, args map[string]any) string {
	t.Helper()
	text, isErr := ts.call(t, "search", args)
	if isErr {
		t.Fatalf("search(%v) = %s", args, text)
	}
	return text
}

func TestSearchFormats(t *testing.T) {
	ts := newTestServer(t, searchTool().serverTool)
	tests := []struct {
		desc string
		args map[string]any
		want string // the answer's start
		has  string // and a part of it
		not  string // and not this
	}{
		{"TOON by default", map[string]any{"query": "cafe"}, "nodes[3]{id,title,score,tags,snippet}:\n  Notes/Café Menu.md,Café Menu,1,food,", "**café**", "content"},
		{"minimal", map[string]any{"query": "cafe", "detail": "minimal"}, "nodes[3]{id,title,score}:\n  Notes/Café Menu.md,Café Menu,1\n", "", "snippet"},
		{"full", map[string]any{"query": "cafe", "detail": "full"}, "nodes[3]{id,title,score,tags,aliases,created,modified,size,hash,inDegree,outDegree,snippet,content}:", "", ""},
		{"fields", map[string]any{"query": "cafe", "fields": []string{"id", "snippet"}}, "nodes[3]{id,score,snippet}:", "", ""},
		{"Markdown", map[string]any{"query": "cafe", "format": "markdown"}, "3 nodes\n1. **Café Menu** Notes/Café Menu.md · score 1.00 strong · tags: food · snippet: ", "[the **café**]", ""},
		{"maxTokens", map[string]any{"query": "home", "maxTokens": 120}, "nodes[", "omitted: ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			text := mustCall(t, ts, tt.args)
			if !strings.HasPrefix(text, tt.want) || !strings.Contains(text, tt.has) || (tt.not != "" && strings.Contains(text, tt.not)) {
				t.Errorf("search(%v) = %q, want it to start with %q, hold %q and not %q", tt.args, text, tt.want, tt.has, tt.not)
			}
		})
	}
}

func TestSearchErrors(t *testing.T) {
	ts := newTestServer(t, searchTool().serverTool)
	tests := []struct {
		args map[string]any
		want string
	}{
		{nil, "query"},
		{map[string]any{"query": "  "}, "query"},
		{map[string]any{"query": "x", "mode": "fuzzy"}, "mode"},
		{map[string]any{"query": "x", "tagMode": "some"}, "tagMode"},
		{map[string]any{"query": "x", "limit": 51}, "limit"},
		{map[string]any{"query": "x", "limit": -1}, "limit"},
		{map[string]any{"query": "x", "page": -1}, "page"},
		{map[string]any{"query": "x", "sortBy": "size"}, "sortBy"},
		{map[string]any{"query": "x", "sortBy": []string{"title", "-bogus"}}, "sortBy"},
		{map[string]any{"query": 3}, "query"},
		{map[string]any{"query": "x", "format": "xml"}, "format"},
	}
	for _, tt := range tests {
		text, isErr := ts.call(t, "search", tt.args)
		if !isErr || !strings.HasPrefix(text, CodeInvalidParams+": "+tt.want) {
			t.Errorf("search(%v) = %q (isError %v), want INVALID_PARAMS naming %s", tt.args, text, isErr, tt.want)
		}
	}
}

func TestSearchTools(t *testing.T) {
	tools := newSearchTools(t)
	v, err := tools.Search(context.Background(), SearchParams{Query: "meet", Mode: "KEYWORD"})
	if err != nil {
		t.Fatal(err)
	}
	l := v.(*ListResponse)
	if len(l.Nodes) == 0 || l.Nodes[0].ID != "Notes/Meeting Notes.md" || l.Nodes[0].Score == nil || *l.Nodes[0].Score != 1 {
		t.Fatalf("Search(meet) = %+v, want Meeting Notes first with score 1", l.Nodes)
	}
	if c := l.Nodes[0].Content; c != nil && *c != "" {
		t.Errorf("Search(meet) read content though the standard preset does not show it")
	}
	v, _ = tools.Search(context.Background(), SearchParams{Query: "meet", Presentation: Presentation{Detail: DetailFull}})
	if c := v.(*ListResponse).Nodes[0].Content; c == nil || !strings.Contains(*c, "We spoke about") {
		t.Errorf("Search(meet, full) content = %v, want the note's text", c)
	}
}

func newSearchTools(t *testing.T) *Tools {
	t.Helper()
	ts := newTestServer(t)
	return &Tools{Engine: ts.engine}
}

func TestSearchFields(t *testing.T) {
	fields, minimal, standard, full := fieldTable("search")
	if !slices.Contains(fields, "snippet") || !slices.Equal(full, fields) {
		t.Errorf("fieldTable(search) fields = %q, full = %q, want snippet in both", fields, full)
	}
	if want := []string{"id", "title", "score"}; !slices.Equal(minimal, want) {
		t.Errorf("fieldTable(search) minimal = %q, want %q", minimal, want)
	}
	if want := []string{"id", "title", "score", "tags", "snippet"}; !slices.Equal(standard, want) {
		t.Errorf("fieldTable(search) standard = %q, want %q", standard, want)
	}
	// Other tools have no snippets.
	for _, tool := range []string{"list_nodes", "get_hubs", "get_neighbors", "search_by_tags", "get_node"} {
		all, _, std, _ := fieldTable(tool)
		if slices.Contains(all, "snippet") {
			t.Errorf("fieldTable(%s) = %q, want no snippet", tool, all)
		}
		if tool != "get_node" && tool != "get_hubs" && !slices.Contains(std, "content") {
			t.Errorf("fieldTable(%s) standard = %q, want content still", tool, std)
		}
	}
}

func TestSearchHint(t *testing.T) {
	tests := []struct {
		desc string
		give vaultgraph.SearchResult
		want string // the hint; "" for none
	}{
		{"one page", vaultgraph.SearchResult{Total: 3, Page: 1, TotalPages: 1}, ""},
		{"nothing", vaultgraph.SearchResult{Page: 1}, ""},
		{"more pages", vaultgraph.SearchResult{Total: 23, Page: 2, TotalPages: 3}, "page 2 of 3: pass page: 3 for more"},
		{"the last page", vaultgraph.SearchResult{Total: 23, Page: 3, TotalPages: 3}, ""},
		{"past the last page", vaultgraph.SearchResult{Total: 23, Page: 4, TotalPages: 3}, ""},
		{"more than counted", vaultgraph.SearchResult{Total: 250, AtLeast: true, Page: 1, TotalPages: 25},
			"page 1 of 25; at least 250 notes match (the best 250 are paged): pass page: 2 for more, or narrow the query, tags or folder"},
		{"the last page counted", vaultgraph.SearchResult{Total: 250, AtLeast: true, Page: 25, TotalPages: 25},
			"at least 250 notes match and the pages hold the best 250: narrow the query, tags or folder for others"},
	}
	for _, tt := range tests {
		if got := say(searchHint(&tt.give), false); got != tt.want {
			t.Errorf("%s: searchHint(%+v) = %q, want %q", tt.desc, tt.give, got, tt.want)
		}
		if got := say(searchHint(&tt.give), true); strings.Contains(got, "page: ") {
			t.Errorf("%s: searchHint for the command line = %q, want --page", tt.desc, got)
		}
	}
}

// TestEmptySearchHint checks that a search finding nothing says what to
// try: fewer words, the other matching, no filters.
func TestEmptySearchHint(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"query": "zzzqqq xxyyzz", "mode": "keyword"}, []string{"no note matches", "fewer or other words", "mode: hybrid"}},
		{map[string]any{"query": "zzzqqq", "mode": "keyword", "tags": []string{"project"}}, []string{"without the tags or folder filter"}},
	}
	for _, tt := range tests {
		text, isErr := ts.call(t, "search", tt.args)
		for _, w := range tt.want {
			if isErr || !strings.Contains(text, w) {
				t.Errorf("search(%v) = %q, want a hint with %q", tt.args, text, w)
			}
		}
	}
	if got := emptySearchHint(SearchParams{Mode: "semantic"}); !strings.Contains(say(got, true), "--mode keyword") {
		t.Errorf("empty semantic search hint for the command line = %q, want --mode keyword", say(got, true))
	}
}
