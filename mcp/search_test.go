package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// The search tool is not registered by NewServer yet: these tests add it
// to a test server.

func TestSearchToolDefinition(t *testing.T) {
	tool := searchTool(&Tools{}, nil).Tool
	if tool.Name != "search" {
		t.Fatalf("searchTool name = %q, want search", tool.Name)
	}
	if a := tool.Annotations; a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
		t.Errorf("search annotations = %+v, want read-only, not destructive", a)
	}
	if !slices.Equal(tool.InputSchema.Required, []string{"query"}) {
		t.Errorf("search required = %q, want [query]", tool.InputSchema.Required)
	}
	for _, name := range []string{"query", "mode", "limit", "tags", "tagMode", "folder", "format", "detail", "fields", "maxTokens"} {
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
	ts := newTestServer(t, searchTool)
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

	// A cut answer says so.
	m = decode(t, mustCall(t, ts, map[string]any{"query": "home", "limit": 2, "format": "json"}))
	if got := ids(m["nodes"]); len(got) != 2 || got[0] != "Home.md" || m["total"] != 2.0 {
		t.Errorf("search(home, limit 2) = %q, total %v, want Home.md first, 2", got, m["total"])
	}
	if hint, _ := m["hint"].(string); !strings.Contains(hint, "limit") {
		t.Errorf("search(home, limit 2) hint = %q, want one about limit", hint)
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
	ts := newTestServer(t, searchTool)
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
	ts := newTestServer(t, searchTool)
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
	fields, minimal, standard, full := FieldTable("search")
	if !slices.Contains(fields, "snippet") || !slices.Equal(full, fields) {
		t.Errorf("FieldTable(search) fields = %q, full = %q, want snippet in both", fields, full)
	}
	if want := []string{"id", "title", "score"}; !slices.Equal(minimal, want) {
		t.Errorf("FieldTable(search) minimal = %q, want %q", minimal, want)
	}
	if want := []string{"id", "title", "score", "tags", "snippet"}; !slices.Equal(standard, want) {
		t.Errorf("FieldTable(search) standard = %q, want %q", standard, want)
	}
	// Other tools have no snippets.
	for _, tool := range []string{"list_nodes", "get_hubs", "get_neighbors", "search_by_tags", "get_node"} {
		all, _, std, _ := FieldTable(tool)
		if slices.Contains(all, "snippet") {
			t.Errorf("FieldTable(%s) = %q, want no snippet", tool, all)
		}
		if tool != "get_node" && !slices.Contains(std, "content") {
			t.Errorf("FieldTable(%s) standard = %q, want content still", tool, std)
		}
	}
}

func TestSearchHint(t *testing.T) {
	max := vaultgraph.MaxSearchLimit
	tests := []struct {
		more   bool
		lim, n int
		want   string // part of the hint; "" for none
	}{
		{false, 10, 3, ""},
		{false, 10, 10, ""},
		{true, 10, 10, "larger limit"},
		{false, max, max, "narrow"},
		{false, max, max - 1, ""},
	}
	for _, tt := range tests {
		got := searchHint(tt.more, tt.lim, tt.n)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("searchHint(%v, %d, %d) = %q, want %q", tt.more, tt.lim, tt.n, got, tt.want)
		}
	}
}
