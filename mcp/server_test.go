package mcp

// Tests of the MCP server through mcp-go's in-process client: what
// tools/list shows, every tool's answer on testvault, every kind of
// caller mistake, and panics. Note resources: resource_test.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// readTools are the read tools this release registers: all a read-only
// server lists.
var readTools = []string{
	"get_node", "get_neighbors", "find_path", "get_hubs", "search", "search_by_tags",
	"list_nodes", "list_tags", "random_node", "vault_status", "get_related",
}

// writeTools are the write tools a server lists unless it is read-only.
var writeTools = []string{"create_node", "update_node", "delete_node", "repair_links", "link_mentions"}

// allTools are the tools a server that writes lists, sorted as tools/list
// returns them.
var allTools = slices.Sorted(slices.Values(append(slices.Clone(readTools), writeTools...)))

// testServer is an MCP server over a copy of testvault with a client
// connected to it in-process.
type testServer struct {
	dir    string // the vault copy
	engine *vaultgraph.Engine
	server *server.MCPServer
	client *client.Client
	logs   *syncBuffer // the server's log
}

// syncBuffer is a bytes.Buffer safe for concurrent writers and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// copyTestVault copies testvault into a temporary folder.
func copyTestVault(t testing.TB) string { return testutil.CopyTestVault(t) }

// newTestServer serves a copy of testvault (index in a temporary folder)
// and connects a client to it; extra tools are registered before the
// client starts.
func newTestServer(t testing.TB, extra ...func(*Tools, *slog.Logger) server.ServerTool) *testServer {
	t.Helper()
	return newTestServerWith(t, serverConfig{}, extra...)
}

// serverConfig chooses what newTestServerWith makes read-only.
type serverConfig struct {
	readOnlyServer bool // ServerOptions.ReadOnly: the write tools are not listed
	readOnlyEngine bool // Options.ReadOnly: the Engine refuses writes
}

// newTestServerWith is newTestServer with the server or the Engine (or
// both, as `serve --read-only` runs them) read-only.
func newTestServerWith(t testing.TB, cfg serverConfig, extra ...func(*Tools, *slog.Logger) server.ServerTool) *testServer {
	t.Helper()
	ts := &testServer{dir: copyTestVault(t), logs: &syncBuffer{}}
	ctx := context.Background()
	ts.engine = vaultgraph.New(vaultgraph.Options{Vault: ts.dir, Index: filepath.Join(t.TempDir(), "index.db"), ReadOnly: cfg.readOnlyEngine})
	if err := ts.engine.Open(ctx); err != nil {
		t.Fatalf("Open(%s) = %v", ts.dir, err)
	}
	t.Cleanup(func() { _ = ts.engine.Close() })
	log := slog.New(slog.NewTextHandler(ts.logs, nil))
	tools := &Tools{Engine: ts.engine, Rand: rand.New(rand.NewPCG(1, 2))}
	ts.server = NewServer(tools, ServerOptions{Version: "test", ReadOnly: cfg.readOnlyServer, Logger: log})
	for _, fn := range extra {
		st := fn(tools, log)
		ts.server.AddTool(st.Tool, st.Handler)
	}
	c, err := client.NewInProcessClient(ts.server)
	if err != nil {
		t.Fatal(err)
	}
	ts.client = c
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatalf("client Start = %v", err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ClientInfo = mcpgo.Implementation{Name: "vaultgraph-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("Initialize = %v", err)
	}
	return ts
}

// call calls a tool and returns its only text content and isError.
func (ts *testServer) call(t testing.TB, name string, args map[string]any) (string, bool) {
	t.Helper()
	return callTool(t, ts.client, name, args)
}

// callTool calls a tool through c and returns its only text content and
// isError. A protocol error fails the test.
func callTool(t testing.TB, c *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("CallTool(%s, %v) = %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("CallTool(%s, %v) has %d contents, want 1 text", name, args, len(res.Content))
	}
	text, ok := mcpgo.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("CallTool(%s, %v) content is %T, want text", name, args, res.Content[0])
	}
	if res.StructuredContent != nil {
		t.Errorf("CallTool(%s) has structured content too; the text is the only copy", name)
	}
	return text.Text, res.IsError
}

// decode parses a tool's JSON answer.
func decode(t testing.TB, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v\n%s", err, text)
	}
	return m
}

// ids returns the "id" of each object in list (a JSON array).
func ids(list any) []string {
	var out []string
	items, _ := list.([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		id, _ := m["id"].(string)
		out = append(out, id)
	}
	return out
}

func TestToolsList(t *testing.T) {
	ts := newTestServer(t)
	res, err := ts.client.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// Check the tools as a client receives them: their JSON.
	raw, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
		Annotations map[string]any `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &tools); err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]map[string]any{}
	for _, tool := range tools {
		names = append(names, tool.Name)
		byName[tool.Name] = tool.InputSchema
		if len(tool.Description) < 40 {
			t.Errorf("%s: description %q is too short to act on", tool.Name, tool.Description)
		}
		if tool.InputSchema["type"] != "object" {
			t.Errorf("%s: inputSchema type = %v, want object", tool.Name, tool.InputSchema["type"])
		}
		if _, ok := tool.InputSchema["properties"].(map[string]any); !ok {
			t.Errorf("%s: inputSchema properties = %v, want an object (clients drop tools without one)", tool.Name, tool.InputSchema["properties"])
		}
		if slices.Contains(writeTools, tool.Name) {
			continue // TestWriteToolsList checks their annotations and schemas
		}
		// Only what differs from the MCP defaults is sent: a read tool
		// is read-only (destructive and idempotent then mean nothing).
		if !maps.Equal(tool.Annotations, map[string]any{"readOnlyHint": true}) {
			t.Errorf("%s: annotations = %v, want only readOnlyHint true", tool.Name, tool.Annotations)
		}
	}
	if !slices.Equal(names, allTools) {
		t.Fatalf("tools/list = %q, want %q", names, allTools)
	}

	prop := func(tool, name string) map[string]any {
		p, _ := byName[tool]["properties"].(map[string]any)[name].(map[string]any)
		if p == nil {
			t.Errorf("%s: no property %s", tool, name)
		}
		return p
	}
	required := func(tool string) []string {
		var out []string
		for _, r := range asSlice(byName[tool]["required"]) {
			out = append(out, r.(string))
		}
		return out
	}
	tests := []struct {
		tool     string
		required []string
		ints     map[string][2]float64 // property -> minimum, maximum (-1: none)
		enums    map[string][]string
		types    map[string]string
		sortBy   bool // takes sortBy: a string or a list, so no type
	}{
		{
			tool: "get_node", required: []string{"id"},
			ints:  map[string][2]float64{"depth": {0, 1}},
			types: map[string]string{"id": "string"},
		},
		{
			tool: "get_neighbors", required: []string{"id"},
			ints:   map[string][2]float64{"limit": {1, vaultgraph.MaxNeighborsLimit}, "page": {1, -1}},
			enums:  map[string][]string{"direction": {"in", "out", "both"}},
			sortBy: true,
		},
		{
			tool: "find_path", required: []string{"source", "target"},
			types: map[string]string{"source": "string", "target": "string", "directed": "boolean"},
		},
		{
			tool:   "get_hubs",
			ints:   map[string][2]float64{"limit": {1, vaultgraph.MaxHubsLimit}, "page": {1, -1}},
			enums:  map[string][]string{"metric": {"in_degree", "out_degree", "pagerank"}},
			sortBy: true,
		},
		{
			tool: "search_by_tags", required: []string{"tags"},
			ints:   map[string][2]float64{"limit": {1, vaultgraph.MaxTagsLimit}, "page": {1, -1}},
			enums:  map[string][]string{"mode": {"any", "all"}},
			types:  map[string]string{"tags": "array"},
			sortBy: true,
		},
		{
			tool:  "list_nodes",
			ints:  map[string][2]float64{"limit": {1, vaultgraph.MaxListLimit}, "page": {1, -1}},
			enums: map[string][]string{"tagMode": {"any", "all", "none"}},
			types: map[string]string{
				"folder": "string", "tags": "array", "properties": "object",
				"createdAfter": "string", "createdBefore": "string", "modifiedAfter": "string", "modifiedBefore": "string",
				"orphans": "boolean", "brokenLinks": "boolean", "brokenAnchors": "boolean",
			},
			sortBy: true,
		},
		{tool: "list_tags", ints: map[string][2]float64{"limit": {1, vaultgraph.MaxTagListLimit}, "page": {1, -1}}, sortBy: true},
		{tool: "search", required: []string{"query"}, ints: map[string][2]float64{"limit": {1, 50}, "page": {1, -1}}, enums: map[string][]string{"mode": {"hybrid", "keyword", "semantic"}}, sortBy: true},
		{tool: "random_node", types: map[string]string{"tags": "array"}},
		{tool: "vault_status"},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			if got := required(tt.tool); !slices.Equal(got, tt.required) {
				t.Errorf("required = %q, want %q", got, tt.required)
			}
			for name, bounds := range tt.ints {
				p := prop(tt.tool, name)
				if p["type"] != "integer" || p["minimum"] != bounds[0] {
					t.Errorf("%s = %v, want an integer with minimum %v", name, p, bounds[0])
				}
				if bounds[1] >= 0 && p["maximum"] != bounds[1] {
					t.Errorf("%s maximum = %v, want %v", name, p["maximum"], bounds[1])
				}
			}
			for name, want := range tt.enums {
				p := prop(tt.tool, name)
				var got []string
				for _, v := range asSlice(p["enum"]) {
					got = append(got, v.(string))
				}
				if p["type"] != "string" || !slices.Equal(got, want) {
					t.Errorf("%s = %v, want a string enum %q", name, p, want)
				}
			}
			for name, want := range tt.types {
				if p := prop(tt.tool, name); p["type"] != want {
					t.Errorf("%s type = %v, want %s", name, p["type"], want)
				}
			}
			if tt.tool == "search_by_tags" && prop(tt.tool, "tags")["minItems"] != 1.0 {
				t.Errorf("search_by_tags tags minItems = %v, want 1", prop(tt.tool, "tags")["minItems"])
			}
			if _, has := byName[tt.tool]["properties"].(map[string]any)["sortBy"]; has != tt.sortBy {
				t.Errorf("has sortBy = %v, want %v", has, tt.sortBy)
			} else if has {
				if p := prop(tt.tool, "sortBy"); p["type"] != nil || !strings.Contains(fmt.Sprint(p["description"]), `"-key" descends`) {
					t.Errorf("sortBy = %v, want no type (a string or a list) and the keys described", p)
				}
			}
			// The response parameters every tool takes are described
			// once, in the instructions, not in each schema
			// (TestInstructionsDescribeResponseParams).
			for _, name := range []string{"format", "detail", "fields", "maxTokens"} {
				if _, has := byName[tt.tool]["properties"].(map[string]any)[name]; has {
					t.Errorf("%s is in the schema; the instructions describe it", name)
				}
			}
		})
	}
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func TestToolCalls(t *testing.T) {
	ts := newTestServer(t)
	type toolCall struct {
		desc  string
		tool  string
		args  map[string]any
		check func(t *testing.T, got map[string]any)
	}
	// Every call asks for format json (unless it names a format) so that
	// the checks can read the answer as data.
	tests := []toolCall{
		{
			desc: "get_node Home, full", tool: "get_node", args: map[string]any{"id": "Home", "detail": "full"},
			check: func(t *testing.T, got map[string]any) {
				want := []string{"Archive/Alpha Plan.md", "Projects/Alpha Plan.md", "Projects/Beta.md",
					"Deep/Nested/Folder/Deep Note.md", "Notes/Café Menu.md", "Notes/Meeting Notes.md"}
				if got["id"] != "Home.md" || !slices.Equal(ids(got["links"]), want) {
					t.Errorf("id, links = %v, %q, want Home.md, %q", got["id"], ids(got["links"]), want)
				}
				if c, _ := got["content"].(string); !strings.HasPrefix(c, "# Home\n") {
					t.Errorf("content = %.40q, want the body from # Home", c)
				}
				if !slices.Equal(strs(got["brokenLinks"]), []string{"Missing Note"}) || len(strs(got["warnings"])) != 2 {
					t.Errorf("brokenLinks, warnings = %q, %q, want [Missing Note] and 2 warnings", got["brokenLinks"], got["warnings"])
				}
				if _, ok := got["neighbors"]; ok {
					t.Errorf("depth 0 has neighbors")
				}
				if got["inDegree"] != 6.0 || got["outDegree"] != 6.0 || got["hash"] == "" {
					t.Errorf("inDegree, outDegree, hash = %v, %v, %v, want 6, 6 and a hash", got["inDegree"], got["outDegree"], got["hash"])
				}
			},
		},
		{
			desc: "get_node Home, standard", tool: "get_node", args: map[string]any{"id": "Home"},
			check: func(t *testing.T, got map[string]any) {
				if got["id"] != "Home.md" || got["title"] != "Home" || !slices.Equal(strs(got["tags"]), []string{"home", "index", "MOC"}) {
					t.Errorf("id, title, tags = %v, %v, %v", got["id"], got["title"], got["tags"])
				}
				if c, _ := got["content"].(string); !strings.HasPrefix(c, "# Home\n") || len(strs(got["warnings"])) != 2 {
					t.Errorf("content = %.40q, warnings %q, want the body from # Home and 2 warnings", c, got["warnings"])
				}
				for _, k := range []string{"links", "brokenLinks", "attachments", "properties", "created"} {
					if _, ok := got[k]; ok {
						t.Errorf("standard detail has %s", k)
					}
				}
				// The hash, so that an agent can pass ifMatch at once.
				if h, _ := got["hash"].(string); len(h) != 16 {
					t.Errorf("standard detail hash = %v, want the note's hash", got["hash"])
				}
			},
		},
		{
			desc: "get_node depth 1, lower case without .md", tool: "get_node",
			args: map[string]any{"id": "projects/alpha plan", "depth": 1},
			check: func(t *testing.T, got map[string]any) {
				if got["id"] != "Projects/Alpha Plan.md" || got["incomingCount"] != 2.0 || got["outgoingCount"] != 3.0 {
					t.Errorf("id, in, out = %v, %v, %v, want Projects/Alpha Plan.md, 2, 3", got["id"], got["incomingCount"], got["outgoingCount"])
				}
				var nbs []string
				for _, nb := range asSlice(got["neighbors"]) {
					m := nb.(map[string]any)
					nbs = append(nbs, m["direction"].(string)+":"+m["id"].(string))
				}
				if want := []string{"both:Projects/Beta.md", "both:Home.md", "out:Notes/Meeting Notes.md"}; !slices.Equal(nbs, want) {
					t.Errorf("neighbors = %q, want %q", nbs, want)
				}
			},
		},
		{
			desc: "get_neighbors in, any case", tool: "get_neighbors", args: map[string]any{"id": "HOME", "direction": "in"},
			check: func(t *testing.T, got map[string]any) {
				want := []string{"Deep/Nested/Folder/Deep Note.md", "Notes/Broken YAML.md", "Notes/Café Menu.md",
					"Notes/Meeting Notes.md", "Projects/Alpha Plan.md", "Projects/Beta.md"}
				if !slices.Equal(ids(got["nodes"]), want) || got["total"] != 6.0 {
					t.Errorf("nodes, total = %q, %v, want %q, 6", ids(got["nodes"]), got["total"], want)
				}
			},
		},
		{
			desc: "get_neighbors limit 2 hints", tool: "get_neighbors", args: map[string]any{"id": "Home.md", "limit": 2},
			check: func(t *testing.T, got map[string]any) {
				if len(ids(got["nodes"])) != 2 || got["hint"] != "page 1 of 4: pass page: 2 for more" || got["page"] != 1.0 || got["totalPages"] != 4.0 {
					t.Errorf("nodes, hint = %q, %v (page %v of %v), want 2 and a hint", ids(got["nodes"]), got["hint"], got["page"], got["totalPages"])
				}
			},
		},
		{
			desc: "get_neighbors sorted, page 2", tool: "get_neighbors",
			args: map[string]any{"id": "Home", "direction": "in", "sortBy": "-title", "limit": 2, "page": 2},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Notes/Café Menu.md", "Notes/Broken YAML.md"}; !slices.Equal(ids(got["nodes"]), want) || got["page"] != 2.0 {
					t.Errorf("nodes = %q on page %v, want %q on page 2", ids(got["nodes"]), got["page"], want)
				}
			},
		},
		{
			desc: "find_path undirected", tool: "find_path", args: map[string]any{"source": "Deep Note", "target": "Notes/東京 Trip"},
			check: func(t *testing.T, got map[string]any) {
				want := []string{"Deep/Nested/Folder/Deep Note.md", "Home.md", "Notes/Meeting Notes.md", "Notes/東京 Trip.md"}
				if !slices.Equal(strs(got["path"]), want) || got["length"] != 3.0 {
					t.Errorf("path, length = %q, %v, want %q, 3", got["path"], got["length"], want)
				}
			},
		},
		{
			desc: "find_path directed", tool: "find_path", args: map[string]any{"source": "東京 Trip", "target": "home", "directed": true},
			check: func(t *testing.T, got map[string]any) {
				want := []string{"Notes/東京 Trip.md", "Notes/Meeting Notes.md", "Home.md"}
				if !slices.Equal(strs(got["path"]), want) || got["length"] != 2.0 {
					t.Errorf("path, length = %q, %v, want %q, 2", got["path"], got["length"], want)
				}
			},
		},
		{
			desc: "get_hubs default", tool: "get_hubs",
			check: func(t *testing.T, got map[string]any) {
				hubs := asSlice(got["nodes"])
				// total counts every ranked note (8 of testvault's 13 are
				// linked to), not the page
				if len(hubs) != 8 || got["metric"] != "in_degree" || got["total"] != 8.0 || got["totalPages"] != 1.0 {
					t.Fatalf("%d hubs by %v (total %v, %v pages), want 8 by in_degree of 8 on 1 page", len(hubs), got["metric"], got["total"], got["totalPages"])
				}
				top := hubs[0].(map[string]any)
				if top["id"] != "Home.md" || top["score"] != 6.0 {
					t.Errorf("top hub = %v, want Home.md with 6 links in", top)
				}
			},
		},
		{
			desc: "get_hubs pagerank", tool: "get_hubs", args: map[string]any{"metric": "pagerank", "limit": 3},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Home.md", "Notes/Meeting Notes.md", "Projects/Beta.md"}; !slices.Equal(ids(got["nodes"]), want) || got["metric"] != "pagerank" {
					t.Errorf("hubs by %v = %q, want %q by pagerank", got["metric"], ids(got["nodes"]), want)
				}
			},
		},
		{
			desc: "get_hubs out_degree", tool: "get_hubs", args: map[string]any{"metric": "out_degree", "limit": 1},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Home.md"}; !slices.Equal(ids(got["nodes"]), want) {
					t.Errorf("hubs = %q, want %q", ids(got["nodes"]), want)
				}
			},
		},
		{
			desc: "search_by_tags any, parent tag", tool: "search_by_tags", args: map[string]any{"tags": []string{"project"}},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Projects/Alpha Plan.md", "Projects/Beta.md", "Tagged.md"}; !slices.Equal(ids(got["nodes"]), want) || got["total"] != 3.0 {
					t.Errorf("nodes, total = %q, %v, want %q, 3", ids(got["nodes"]), got["total"], want)
				}
			},
		},
		{
			desc: "search_by_tags all", tool: "search_by_tags", args: map[string]any{"tags": []string{"#Travel", "旅行"}, "mode": "all"},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Notes/東京 Trip.md"}; !slices.Equal(ids(got["nodes"]), want) {
					t.Errorf("nodes = %q, want %q", ids(got["nodes"]), want)
				}
			},
		},
		{
			desc: "search_by_tags paged", tool: "search_by_tags", args: map[string]any{"tags": []string{"project"}, "limit": 2, "page": 2},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Tagged.md"}; !slices.Equal(ids(got["nodes"]), want) || got["total"] != 3.0 || got["page"] != 2.0 || got["totalPages"] != 2.0 {
					t.Errorf("nodes = %q, total %v, page %v of %v, want %q, 3, page 2 of 2", ids(got["nodes"]), got["total"], got["page"], got["totalPages"], want)
				}
				if _, ok := got["hint"]; ok {
					t.Errorf("hint %v on the last page", got["hint"])
				}
			},
		},
		{
			desc: "list_nodes folder by title", tool: "list_nodes", args: map[string]any{"folder": "Notes", "sortBy": []string{"title"}},
			check: func(t *testing.T, got map[string]any) {
				want := []string{"Notes/Broken YAML.md", "Notes/Café Menu.md", "Notes/Meeting Notes.md", "Notes/東京 Trip.md"}
				if !slices.Equal(ids(got["nodes"]), want) || got["total"] != 4.0 || got["page"] != 1.0 || got["totalPages"] != 1.0 {
					t.Errorf("got %q, total %v, page %v of %v, want %q, 4, 1 of 1", ids(got["nodes"]), got["total"], got["page"], got["totalPages"], want)
				}
				if _, ok := got["hint"]; ok {
					t.Errorf("hint %v on the only page", got["hint"])
				}
			},
		},
		{
			desc: "list_nodes orphans", tool: "list_nodes", args: map[string]any{"orphans": true},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Orphan.md", "Tagged.md", "Unclosed.md"}; !slices.Equal(ids(got["nodes"]), want) {
					t.Errorf("nodes = %q, want %q", ids(got["nodes"]), want)
				}
			},
		},
		{
			desc: "list_nodes sorted, paged", tool: "list_nodes", args: map[string]any{"sortBy": []string{"-outDegree", "title"}, "limit": 3},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Home.md", "Notes/Meeting Notes.md", "Projects/Alpha Plan.md"}; !slices.Equal(ids(got["nodes"]), want) || got["total"] != 13.0 {
					t.Errorf("nodes, total = %q, %v, want %q, 13", ids(got["nodes"]), got["total"], want)
				}
				if got["hint"] != "page 1 of 5: pass page: 2 for more" {
					t.Errorf("hint = %v", got["hint"])
				}
			},
		},
		{
			desc: "list_nodes broken anchors", tool: "list_nodes", args: map[string]any{"brokenAnchors": true},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Projects/Beta.md"}; !slices.Equal(ids(got["nodes"]), want) {
					t.Errorf("nodes = %q, want %q ([[Alpha Plan#Risks#Budget]]: no heading Budget)", ids(got["nodes"]), want)
				}
			},
		},
		{
			desc: "list_nodes properties", tool: "list_nodes", args: map[string]any{"properties": map[string]any{"status": "paused"}},
			check: func(t *testing.T, got map[string]any) {
				if want := []string{"Projects/Beta.md"}; !slices.Equal(ids(got["nodes"]), want) {
					t.Errorf("nodes = %q, want %q", ids(got["nodes"]), want)
				}
			},
		},
		{
			desc: "search keyword", tool: "search", args: map[string]any{"query": "spoke", "mode": "keyword"},
			check: func(t *testing.T, got map[string]any) {
				nodes := asSlice(got["nodes"])
				if len(nodes) == 0 || ids(got["nodes"])[0] != "Notes/Meeting Notes.md" {
					t.Fatalf("nodes = %q, want Notes/Meeting Notes.md first", ids(got["nodes"]))
				}
				if top := nodes[0].(map[string]any); top["score"] != 1.0 || !strings.Contains(fmt.Sprint(top["snippet"]), "**spoke**") {
					t.Errorf("top hit = %v, want score 1 and a snippet marking the match", top)
				}
			},
		},
		{
			desc: "list_tags", tool: "list_tags",
			check: func(t *testing.T, got map[string]any) {
				tags := asSlice(got["tags"])
				if got["total"] != 17.0 || len(tags) != 17 {
					t.Fatalf("total %v, %d tags, want 17", got["total"], len(tags))
				}
				if top := tags[0].(map[string]any); top["tag"] != "project" || top["count"] != 3.0 {
					t.Errorf("first tag = %v, want project with 3 notes", top)
				}
			},
		},
		{
			desc: "list_tags by tag, paged", tool: "list_tags", args: map[string]any{"sortBy": []string{"tag"}, "limit": 5},
			check: func(t *testing.T, got map[string]any) {
				var tags []string
				for _, tg := range asSlice(got["tags"]) {
					tags = append(tags, tg.(map[string]any)["tag"].(string))
				}
				if len(tags) != 5 || !slices.IsSorted(tags) || got["total"] != 17.0 || got["totalPages"] != 4.0 || got["hint"] != "page 1 of 4: pass page: 2 for more" {
					t.Errorf("tags %q, total %v, %v pages, hint %v, want 5 sorted of 17 on 4 pages", tags, got["total"], got["totalPages"], got["hint"])
				}
			},
		},
		{
			desc: "random_node tagged", tool: "random_node", args: map[string]any{"tags": []string{"travel"}},
			check: func(t *testing.T, got map[string]any) {
				if c, _ := got["content"].(string); got["id"] != "Notes/東京 Trip.md" || c == "" {
					t.Errorf("got %v with content %.20q, want Notes/東京 Trip.md with its content", got["id"], c)
				}
			},
		},
		{
			desc: "random_node any", tool: "random_node",
			check: func(t *testing.T, got map[string]any) {
				if id, _ := got["id"].(string); !strings.HasSuffix(id, ".md") {
					t.Errorf("id = %v, want a note", got["id"])
				}
			},
		},
		{
			desc: "vault_status", tool: "vault_status",
			check: func(t *testing.T, got map[string]any) {
				if got["notes"] != 13.0 || got["links"] != 30.0 || got["brokenLinks"] != 2.0 || got["tags"] != 17.0 {
					t.Errorf("notes, links, broken, tags = %v, %v, %v, %v, want 13, 30, 2, 17",
						got["notes"], got["links"], got["brokenLinks"], got["tags"])
				}
				if got["brokenAnchors"] != 1.0 {
					t.Errorf("brokenAnchors = %v, want 1 ([[Alpha Plan#Risks#Budget]] in Projects/Beta.md)", got["brokenAnchors"])
				}
			},
		},
		{
			desc: "get_related Beta", tool: "get_related", args: map[string]any{"ids": []string{"Beta"}, "limit": 3},
			check: func(t *testing.T, got map[string]any) {
				if ids := ids(got["nodes"]); len(ids) != 3 || slices.Contains(ids, "Projects/Beta.md") {
					t.Errorf("nodes = %q, want 3 notes other than Beta", ids)
				}
				if seeds := strs(got["seeds"]); !slices.Equal(seeds, []string{"Projects/Beta.md"}) {
					t.Errorf("seeds = %q, want [Projects/Beta.md]", seeds)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			args := maps.Clone(tt.args)
			if args == nil {
				args = map[string]any{}
			}
			args["format"] = "json"
			text, isErr := ts.call(t, tt.tool, args)
			if isErr {
				t.Fatalf("%s(%v) is an error: %s", tt.tool, args, text)
			}
			if strings.Contains(text, "\n") {
				t.Errorf("answer is not compact JSON: %.80q", text)
			}
			tt.check(t, decode(t, text))
		})
	}
	for _, tool := range readTools {
		if !slices.ContainsFunc(tests, func(tt toolCall) bool { return tt.tool == tool }) {
			t.Errorf("no happy-path call of %s", tool)
		}
	}
}

func strs(v any) []string {
	var out []string
	for _, s := range asSlice(v) {
		str, _ := s.(string)
		out = append(out, str)
	}
	return out
}

func TestToolErrors(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		desc  string
		tool  string
		args  map[string]any
		param string // named in the message
	}{
		{"get_node missing id", "get_node", nil, "id"},
		{"get_node id a number", "get_node", map[string]any{"id": 5}, "id"},
		{"get_node depth x", "get_node", map[string]any{"id": "Home", "depth": "x"}, "depth"},
		{"get_node depth 2", "get_node", map[string]any{"id": "Home", "depth": 2}, "depth"},
		{"get_node depth 0.5", "get_node", map[string]any{"id": "Home", "depth": 0.5}, "depth"},
		{"get_node outside the vault", "get_node", map[string]any{"id": "../secret"}, "id"},
		{"get_neighbors missing id", "get_neighbors", map[string]any{"direction": "in"}, "id"},
		{"get_neighbors direction up", "get_neighbors", map[string]any{"id": "Home", "direction": "up"}, "direction"},
		{"get_neighbors limit 51", "get_neighbors", map[string]any{"id": "Home", "limit": 51}, "limit"},
		{"get_neighbors limit 0", "get_neighbors", map[string]any{"id": "Home", "limit": 0}, "limit"},
		{"get_neighbors limit -1", "get_neighbors", map[string]any{"id": "Home", "limit": -1}, "limit"},
		{"get_neighbors limit ten", "get_neighbors", map[string]any{"id": "Home", "limit": "ten"}, "limit"},
		{"find_path missing target", "find_path", map[string]any{"source": "Home"}, "target"},
		{"find_path missing source", "find_path", map[string]any{"target": "Home"}, "source"},
		{"find_path directed yes", "find_path", map[string]any{"source": "Home", "target": "Beta", "directed": "yes"}, "directed"},
		{"find_path absolute", "find_path", map[string]any{"source": "/etc/passwd", "target": "Beta"}, "source"},
		{"get_hubs metric betweenness", "get_hubs", map[string]any{"metric": "betweenness"}, "metric"},
		{"get_hubs limit 51", "get_hubs", map[string]any{"limit": 51}, "limit"},
		{"get_hubs limit 0", "get_hubs", map[string]any{"limit": 0}, "limit"},
		{"get_hubs page 0", "get_hubs", map[string]any{"page": 0}, "page"},
		{"search limit 0", "search", map[string]any{"query": "alpha", "limit": 0}, "limit"},
		{"search page 0", "search", map[string]any{"query": "alpha", "page": 0}, "page"},
		{"search unknown sortBy", "search", map[string]any{"query": "alpha", "sortBy": "colour"}, "colour"},
		{"get_hubs unknown sortBy", "get_hubs", map[string]any{"sortBy": "colour"}, "colour"},
		{"search_by_tags missing tags", "search_by_tags", nil, "tags"},
		{"search_by_tags empty tags", "search_by_tags", map[string]any{"tags": []string{}}, "tags"},
		{"search_by_tags tags a string", "search_by_tags", map[string]any{"tags": "project"}, "tags"},
		{"search_by_tags mode some", "search_by_tags", map[string]any{"tags": []string{"project"}, "mode": "some"}, "mode"},
		{"search_by_tags limit 101", "search_by_tags", map[string]any{"tags": []string{"project"}, "limit": 101}, "limit"},
		{"list_nodes unknown sortBy", "list_nodes", map[string]any{"sortBy": []string{"-modified", "size"}}, "sortBy"},
		{"list_nodes sortBy a number", "list_nodes", map[string]any{"sortBy": 1}, "sortBy"},
		{"list_nodes tagMode some", "list_nodes", map[string]any{"tags": []string{"project"}, "tagMode": "some"}, "tagMode"},
		{"list_nodes limit 101", "list_nodes", map[string]any{"limit": 101}, "limit"},
		{"list_nodes limit 0", "list_nodes", map[string]any{"limit": 0}, "limit"},
		{"list_nodes page 0", "list_nodes", map[string]any{"page": 0}, "page"},
		{"list_nodes page -1", "list_nodes", map[string]any{"page": -1}, "page"},
		{"list_nodes createdAfter yesterday", "list_nodes", map[string]any{"createdAfter": "yesterday"}, "createdAfter"},
		{"list_nodes modifiedBefore a number", "list_nodes", map[string]any{"modifiedBefore": 20240101}, "modifiedBefore"},
		{"list_nodes properties a list", "list_nodes", map[string]any{"properties": []string{"status"}}, "properties"},
		{"list_nodes orphans a string", "list_nodes", map[string]any{"orphans": "true"}, "orphans"},
		{"random_node tags a string", "random_node", map[string]any{"tags": "travel"}, "tags"},
		{"get_node format yaml", "get_node", map[string]any{"id": "Home", "format": "yaml"}, "format"},
		{"get_node detail max", "get_node", map[string]any{"id": "Home", "detail": "max"}, "detail"},
		{"get_node fields a string", "get_node", map[string]any{"id": "Home", "fields": "id"}, "fields"},
		{"list_nodes maxTokens 10", "list_nodes", map[string]any{"maxTokens": 10}, "maxTokens"},
		{"list_nodes maxTokens a string", "list_nodes", map[string]any{"maxTokens": "many"}, "maxTokens"},
		{"vault_status format xml", "vault_status", map[string]any{"format": "xml"}, "format"},
		{"get_neighbors page 0", "get_neighbors", map[string]any{"id": "Home", "page": 0}, "page"},
		{"get_neighbors sortBy size", "get_neighbors", map[string]any{"id": "Home", "sortBy": "size"}, "sortBy"},
		{"search_by_tags page -1", "search_by_tags", map[string]any{"tags": []string{"project"}, "page": -1}, "page"},
		{"search_by_tags sortBy size", "search_by_tags", map[string]any{"tags": []string{"project"}, "sortBy": []string{"size"}}, "sortBy"},
		{"list_tags limit 1001", "list_tags", map[string]any{"limit": 1001}, "limit"},
		{"list_tags page 0", "list_tags", map[string]any{"page": 0}, "page"},
		{"list_tags sortBy title", "list_tags", map[string]any{"sortBy": "title"}, "sortBy"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			text, isErr := ts.call(t, tt.tool, tt.args)
			if !isErr {
				t.Fatalf("%s(%v) = %s, want an INVALID_PARAMS error", tt.tool, tt.args, text)
			}
			msg, ok := strings.CutPrefix(text, CodeInvalidParams+": ")
			if !ok {
				t.Fatalf("error = %q, want it to start with %s: ", text, CodeInvalidParams)
			}
			if !strings.Contains(msg, tt.param) {
				t.Errorf("error = %q, want it to name %s", text, tt.param)
			}
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "rename_vault"
		if res, err := ts.client.CallTool(context.Background(), req); err == nil && !res.IsError {
			t.Errorf("CallTool(rename_vault) = %v, want an error: no such tool", res)
		}
	})
}

// TestNotFoundIsNull checks that null alone means "no result", and that
// an id matching no note is instead a warning naming it, in every format.
func TestNotFoundIsNull(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		tool string
		args map[string]any
		// missing are the ids the answer's warnings name; none: null.
		missing []string
	}{
		{"get_node", map[string]any{"id": "Nope"}, []string{"Nope"}},
		{"get_node", map[string]any{"id": "Nope", "depth": 1}, []string{"Nope"}},
		{"get_neighbors", map[string]any{"id": "Missing Note"}, []string{"Missing Note"}},
		{"find_path", map[string]any{"source": "Home", "target": "Orphan"}, nil},
		{"find_path", map[string]any{"source": "Home", "target": "Nope"}, []string{"Nope"}},
		{"find_path", map[string]any{"source": "Gone", "target": "Nope"}, []string{"Gone", "Nope"}},
		{"random_node", map[string]any{"tags": []string{"no-such-tag"}}, nil},
	}
	for _, tt := range tests {
		for _, format := range append([]string{""}, Formats.Values...) {
			args := maps.Clone(tt.args)
			if format != "" {
				args["format"] = format
			}
			text, isErr := ts.call(t, tt.tool, args)
			if tt.missing == nil {
				if text != "null" || isErr {
					t.Errorf("%s(%v) = %q, isError %v, want null, not an error", tt.tool, args, text, isErr)
				}
				continue
			}
			if text == "null" || isErr {
				t.Errorf("%s(%v) = %q, isError %v, want a warning, not null or an error", tt.tool, args, text, isErr)
			}
			for _, id := range tt.missing {
				if !strings.Contains(text, "no note matches") || !strings.Contains(text, id) {
					t.Errorf("%s(%v) = %q, want a warning naming %q", tt.tool, args, text, id)
				}
			}
		}
	}
	text, _ := ts.call(t, "get_node", map[string]any{"id": "Nope", "format": "json"})
	if want := `{"warnings":["no note matches \"Nope\""]}`; text != want {
		t.Errorf("get_node Nope (JSON) = %s, want %s", text, want)
	}
}

// TestFormats checks each tool's default format and that format and
// detail change what comes back.
func TestFormats(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		desc string
		tool string
		args map[string]any
		want string // the answer's start
		has  string // and a part of it
	}{
		{"get_node Markdown", "get_node", map[string]any{"id": "Tagged"}, "# Tag Examples\n", "id: Tagged.md"},
		{"get_node Markdown, title heading in the content", "get_node", map[string]any{"id": "Home"}, "", "# Home\n"},
		{"get_node depth 1 Markdown", "get_node", map[string]any{"id": "Tagged", "depth": 1}, "# Tag Examples\n", "## Neighbours (0)"},
		{"random_node Markdown", "random_node", map[string]any{"tags": []string{"ideas"}}, "# Tag Examples\n", "id: Tagged.md"},
		{"get_neighbors TOON", "get_neighbors", map[string]any{"id": "Home"}, "nodes[7]{id,title,direction,tags,context,content}:\n  Archive/Alpha Plan.md,Alpha Plan,out,", "total: 7\n"},
		{"search_by_tags TOON", "search_by_tags", map[string]any{"tags": []string{"project"}}, "nodes[3]{id,title,tags,content}:\n", "Projects/Beta.md"},
		{"list_nodes TOON", "list_nodes", map[string]any{"folder": "Notes"}, "nodes[4]{id,title,tags,content}:\n", "total: 4"},
		{"get_hubs TOON", "get_hubs", map[string]any{"limit": 2}, "metric: in_degree\nnodes[2]{id,score}:\n  Home.md,6\n", ""},
		{"get_hubs TOON, full", "get_hubs", map[string]any{"limit": 2, "detail": "full"}, "metric: in_degree\nnodes[2]{id,title,score,tags,", ""},
		{"list_tags TOON", "list_tags", nil, "tags[17]{tag,count}:\n  project,3\n", "total: 17"},
		{"find_path TOON", "find_path", map[string]any{"source": "東京 Trip", "target": "Home", "directed": true, "format": "toon"}, "path[3]: Notes/東京 Trip.md,Notes/Meeting Notes.md,Home.md\nlength: 2", ""},
		{"find_path Markdown", "find_path", map[string]any{"source": "東京 Trip", "target": "Home", "directed": true, "format": "markdown"}, "2 links: Notes/東京 Trip.md → Notes/Meeting Notes.md → Home.md", ""},
		{"vault_status TOON", "vault_status", map[string]any{"format": "toon"}, "vault: ", "notes: 13\n"},
		{"list_nodes Markdown", "list_nodes", map[string]any{"folder": "Notes", "format": "markdown"}, "4 nodes\n1. **Broken YAML** Notes/Broken YAML.md", ""},
		{"get_node JSON, minimal", "get_node", map[string]any{"id": "Home", "format": "json", "detail": "minimal"}, `{"id":"Home.md","title":"Home","warnings":[`, ""},
		{"list_nodes TOON, minimal", "list_nodes", map[string]any{"folder": "Notes", "detail": "minimal", "limit": 1}, "nodes[1]{id,title}:\n  Notes/Broken YAML.md,Broken YAML\n", "hint: "},
		{"list_nodes TOON, fields", "list_nodes", map[string]any{"folder": "Notes", "fields": []string{"id", "inDegree"}, "limit": 1}, "nodes[1]{id,inDegree}:\n  Notes/Broken YAML.md,0\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			text, isErr := ts.call(t, tt.tool, tt.args)
			if isErr || !strings.HasPrefix(text, tt.want) || !strings.Contains(text, tt.has) {
				t.Errorf("%s(%v) = %q (isError %v), want it to start with %q and hold %q", tt.tool, tt.args, text, isErr, tt.want, tt.has)
			}
		})
	}
}

// boomParams is the test tool's one parameter.
type boomParams struct {
	Nil bool `json:"nil"`
}

// boomTool panics: with a message, or with a nil pointer dereference.
func boomTool(t *Tools, log *slog.Logger) server.ServerTool {
	d := def(func(_ *Tools, _ context.Context, p boomParams) (any, error) {
		if p.Nil {
			var n *vaultgraph.Node
			return n.ID, nil
		}
		panic("kaboom")
	}, "", nil, mcpgo.NewTool("boom", mcpgo.WithDescription("panics"), mcpgo.WithBoolean("nil")))
	return d.serverTool(t, log)
}

func TestHandlerPanic(t *testing.T) {
	ts := newTestServer(t, boomTool)
	for _, args := range []map[string]any{nil, {"nil": true}} {
		text, isErr := ts.call(t, "boom", args)
		if !isErr || !strings.HasPrefix(text, CodeProviderError+": boom failed unexpectedly") {
			t.Errorf("boom(%v) = %q, isError %v, want a PROVIDER_ERROR", args, text, isErr)
		}
		if text, isErr := ts.call(t, "get_node", map[string]any{"id": "Home", "format": "json"}); isErr || !strings.Contains(text, `"id":"Home.md"`) {
			t.Errorf("get_node after a panic = %.60q, isError %v, want Home.md", text, isErr)
		}
	}
	if logs := ts.logs.String(); !strings.Contains(logs, "kaboom") || !strings.Contains(logs, "nil pointer") {
		t.Errorf("server log = %q, want both panics with their stacks", logs)
	}
}

// TestInstructions checks that the server instructions describe the
// parameters every read tool takes, which the schemas describe in a few
// words, and the rule that "" is not given.
func TestInstructions(t *testing.T) {
	for _, word := range []string{"format", "TOON", "Markdown", "json", "detail", "minimal", "full", "fields", "maxTokens", `"" is the same as leaving it out`, `directory "/"`} {
		if !strings.Contains(instructions, word) {
			t.Errorf("instructions do not mention %q:\n%s", word, instructions)
		}
	}
}

// TestBindTypeErrorNamesParameter checks that a wrong JSON type is
// INVALID_PARAMS naming the parameter as the schema does, also for the
// presentation parameters (not "Presentation.maxTokens").
func TestBindTypeErrorNamesParameter(t *testing.T) {
	ts := newTestServer(t)
	for _, tt := range []struct {
		give map[string]any
		want string
	}{
		{map[string]any{"id": "Home", "maxTokens": "many"}, "INVALID_PARAMS: maxTokens: expected an integer, got a JSON string"},
		{map[string]any{"id": "Home", "fields": "id"}, "INVALID_PARAMS: fields: expected a list, got a JSON string"},
		{map[string]any{"id": "Home", "depth": "one"}, "INVALID_PARAMS: depth: expected an integer, got a JSON string"},
	} {
		if got := ts.wantError(t, CodeInvalidParams, "get_node", tt.give); got != tt.want {
			t.Errorf("get_node(%v) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

// TestInstructionsDescribeResponseParams checks that the server
// instructions, sent once in the handshake, describe the response
// parameters every tool takes, with their values.
func TestInstructionsDescribeResponseParams(t *testing.T) {
	for _, want := range slices.Concat([]string{"format:", "detail:", "fields:", "maxTokens:"}, Formats.Values, Details.Values) {
		if !strings.Contains(instructions, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
}

// TestJSONRowTagsAreLists checks that JSON list rows keep tags and aliases
// as lists, as get_node does; only TOON tables and Markdown lines join them.
func TestJSONRowTagsAreLists(t *testing.T) {
	ts := newTestServer(t)
	args := map[string]any{"folder": "Projects", "fields": []string{"id", "tags", "aliases"}, "sortBy": "path"}
	args["format"] = "json"
	js, _ := ts.call(t, "list_nodes", args)
	if want := `{"nodes":[{"id":"Projects/Alpha Plan.md","tags":["project","project/alpha"],"aliases":["Alpha","AP"]},`; !strings.HasPrefix(js, want) {
		t.Errorf("list_nodes (JSON) = %s, want it to start with %s", js, want)
	}
	args["format"] = "toon"
	if text, _ := ts.call(t, "list_nodes", args); !strings.Contains(text, "Projects/Alpha Plan.md,project project/alpha,Alpha; AP") {
		t.Errorf("list_nodes (TOON) = %s, want tags and aliases joined in the table", text)
	}
}

// TestFieldsLinkCounts checks that get_node's link counts are fields like
// any other: fields picks them without a warning, and leaves them out
// when not named.
func TestFieldsLinkCounts(t *testing.T) {
	ts := newTestServer(t)
	text, _ := ts.call(t, "get_node", map[string]any{"id": "Home", "depth": 1, "format": "json", "fields": []string{"id", "incomingCount"}})
	if !strings.HasPrefix(text, `{"id":"Home.md","incomingCount":6,"neighbors":[`) || strings.Contains(text, "outgoingCount") || strings.Contains(text, "fields:") {
		t.Errorf("get_node fields id, incomingCount = %.200s, want id and incomingCount, no outgoingCount, no warning", text)
	}
	text, _ = ts.call(t, "get_node", map[string]any{"id": "Home", "depth": 1, "format": "json", "fields": []string{"id"}})
	if strings.Contains(text, "Count") {
		t.Errorf("get_node fields id = %.200s, want no link counts", text)
	}
}

// TestListNodesTypedProperties checks that list_nodes takes a property's
// value typed as JSON has it (2, false) as it takes the text ("2").
func TestListNodesTypedProperties(t *testing.T) {
	ts := newTestServer(t)
	for _, props := range []map[string]any{
		{"priority": "2"}, {"priority": 2}, {"priority": 2.0}, {"done": false}, {"done": "false"}, {"status": "active", "priority": 2},
	} {
		text, isErr := ts.call(t, "list_nodes", map[string]any{"properties": props, "format": "json", "detail": "minimal"})
		if want := `{"nodes":[{"id":"Projects/Alpha Plan.md","title":"Alpha Plan"}],"total":1`; isErr || !strings.HasPrefix(text, want) {
			t.Errorf("list_nodes properties %v = %s (isError %v), want Projects/Alpha Plan.md", props, text, isErr)
		}
	}
	if text, isErr := ts.call(t, "list_nodes", map[string]any{"properties": map[string]any{"priority": []int{2}}}); !isErr || !strings.Contains(text, "properties") {
		t.Errorf("list_nodes properties priority [2] = %s (isError %v), want INVALID_PARAMS naming properties", text, isErr)
	}
}

// TestOutOfRangeMessages pins the words of an integer argument outside
// its schema's bounds, or maxTokens outside its own: the number as JSON
// gave it, printed as Go prints a float64 (5e+06), and the bounds.
func TestOutOfRangeMessages(t *testing.T) {
	ts := newTestServer(t)
	for _, tt := range []struct {
		tool string
		give map[string]any
		want string
	}{
		{"get_hubs", map[string]any{"limit": 0}, "INVALID_PARAMS: limit: 0 is out of range: use 1 to 50"},
		{"get_hubs", map[string]any{"limit": 5_000_000}, "INVALID_PARAMS: limit: 5e+06 is out of range: use 1 to 50"},
		{"get_hubs", map[string]any{"limit": 2.5e7}, "INVALID_PARAMS: limit: 2.5e+07 is out of range: use 1 to 50"},
		{"get_hubs", map[string]any{"page": -3}, "INVALID_PARAMS: page: -3 is out of range: use 1 or more"},
		{"get_node", map[string]any{"id": "Home", "depth": 1_000_000}, "INVALID_PARAMS: depth: 1e+06 is out of range: use 0 to 1"},
		{"get_node", map[string]any{"id": "Home", "maxTokens": 10}, "INVALID_PARAMS: maxTokens: 10 is out of range: use 50 to 1000000"},
		{"get_node", map[string]any{"id": "Home", "maxTokens": 5_000_000}, "INVALID_PARAMS: maxTokens: 5000000 is out of range: use 50 to 1000000"},
	} {
		if got := ts.wantError(t, CodeInvalidParams, tt.tool, tt.give); got != tt.want {
			t.Errorf("%s(%v) = %q, want %q", tt.tool, tt.give, got, tt.want)
		}
	}
}
