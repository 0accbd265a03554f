package mcp

// Tests of the "not given" rule (params_given.go): many MCP clients send
// "" for every optional string they do not use, and {} for objects. Over
// the real server handler path, those calls answer and write exactly as
// the calls without them; "/" names the vault root.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// listedSchemas returns each listed tool's input schema as a client
// receives it (JSON), by tool name.
func listedSchemas(t *testing.T, ts *testServer) map[string]struct {
	Properties map[string]map[string]any `json:"properties"`
	Required   []string                  `json:"required"`
} {
	t.Helper()
	res, err := ts.client.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}{}
	for _, tool := range res.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		s := out[tool.Name]
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = s
	}
	return out
}

// TestToolParamsDescribed walks tools/list: every parameter of every tool,
// read and write, has a description.
func TestToolParamsDescribed(t *testing.T) {
	schemas := listedSchemas(t, newTestServer(t))
	if got := slices.Sorted(maps.Keys(schemas)); !slices.Equal(got, allTools) {
		t.Fatalf("tools/list = %q, want %q", got, allTools)
	}
	for _, tool := range allTools {
		for _, name := range slices.Sorted(maps.Keys(schemas[tool].Properties)) {
			if d, _ := schemas[tool].Properties[name]["description"].(string); strings.TrimSpace(d) == "" {
				t.Errorf("%s.%s has no description", tool, name)
			}
		}
	}
}

// emptyOptionals returns args plus every optional parameter of the schema
// set to a "not given" value: {} for objects, array (when not nil) for
// lists, and "" for all others, numbers and booleans too.
func emptyOptionals(args map[string]any, props map[string]map[string]any, required []string, array any) map[string]any {
	out := maps.Clone(args)
	if out == nil {
		out = map[string]any{}
	}
	for name, p := range props {
		if _, ok := out[name]; ok || slices.Contains(required, name) {
			continue
		}
		switch p["type"] {
		case "object":
			out[name] = map[string]any{}
		case "array":
			if array != nil {
				out[name] = array
			}
		default: // strings, numbers, booleans and sortBy (a string or a list)
			out[name] = ""
		}
	}
	return out
}

// TestEmptyOptionalsReadTools calls every read tool with its required
// parameters, then again (on a second server) with every optional string
// "" and every optional object empty, and every optional list empty or "":
// the answers are the same.
func TestEmptyOptionalsReadTools(t *testing.T) {
	for _, array := range []any{[]any{}, ""} {
		t.Run(fmt.Sprintf("lists %#v", array), func(t *testing.T) { checkEmptyOptionalsRead(t, array) })
	}
}

// checkEmptyOptionalsRead is TestEmptyOptionalsReadTools with array as
// the value of every optional list.
func checkEmptyOptionalsRead(t *testing.T, array any) {
	plain, empty := newTestServer(t), newTestServer(t)
	schemas := listedSchemas(t, plain)
	required := map[string]map[string]any{
		"get_node":       {"id": "Home"},
		"get_neighbors":  {"id": "Home"},
		"find_path":      {"source": "Home", "target": "Orphan"},
		"search":         {"query": "alpha"},
		"get_related":    {"ids": []any{"Beta"}},
		"search_by_tags": {"tags": []any{"project"}},
		"random_node":    {"tags": []any{"旅行"}}, // one note: the pick does not depend on the graph's order
	}
	for _, tool := range readTools {
		s := schemas[tool]
		args := emptyOptionals(required[tool], s.Properties, s.Required, array)
		// The response parameters every tool takes (described in the
		// instructions, not the schemas).
		for _, name := range []string{"format", "detail", "maxTokens"} {
			args[name] = ""
		}
		args["fields"] = array
		if len(args) == len(required[tool]) {
			t.Errorf("%s: no optional parameter to set empty in %v", tool, s.Properties)
		}
		want, wantErr := plain.call(t, tool, required[tool])
		got, isErr := empty.call(t, tool, args)
		if isErr || wantErr {
			t.Errorf("%s(%v) = %q (isError %v); without them %q (isError %v)", tool, args, got, isErr, want, wantErr)
			continue
		}
		if tool == "vault_status" { // the servers' folders and sync times differ
			got, want = withoutSync(got, empty.dir), withoutSync(want, plain.dir)
		}
		if got != want {
			t.Errorf("%s(%v) =\n%s\nwant as without them:\n%s", tool, args, got, want)
		}
	}
}

// withoutSync returns a vault_status answer without the vault's folder
// and the lastSync line.
func withoutSync(s, dir string) string {
	lines := strings.SplitAfter(strings.ReplaceAll(s, dir, "VAULT"), "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, "lastSync:") }), "")
}

// writeOptionals returns a write tool's args plus every optional
// parameter set to "" (strings, and lists: tags [] is a real request,
// "remove all tags", but tags "" is not given) or {} (objects).
func (ts *testServer) writeOptionals(t *testing.T, tool string, args map[string]any) map[string]any {
	t.Helper()
	s := listedSchemas(t, ts)[tool]
	return emptyOptionals(args, s.Properties, s.Required, "")
}

// TestEmptyOptionalsWriteTools calls each write tool with every optional
// field "": nothing is written where nothing was asked, "" never moves,
// renames or empties a note, and "/" is the vault root.
func TestEmptyOptionalsWriteTools(t *testing.T) {
	const meeting = "Notes/Meeting Notes.md"

	t.Run("update_node with only empty fields changes nothing", func(t *testing.T) {
		ts := newTestServer(t)
		before := snapshot(t, ts.dir)
		args := ts.writeOptionals(t, "update_node", map[string]any{"id": meeting})
		if text := ts.wantError(t, CodeInvalidParams, "update_node", args); !strings.Contains(text, "nothing to change") {
			t.Errorf("update_node(%v) = %q, want \"nothing to change\"", args, text)
		}
		if d := diffSnapshots(before, snapshot(t, ts.dir)); d != nil {
			t.Errorf("update_node(%v) changed %q", args, d)
		}
	})

	t.Run("update_node with empty fields and one change", func(t *testing.T) {
		ts := newTestServer(t)
		before := snapshot(t, ts.dir)
		args := ts.writeOptionals(t, "update_node", map[string]any{"id": meeting, "properties": map[string]any{"status": "done"}})
		w := ts.write(t, "update_node", args)
		if w.ID != meeting || len(w.Links) != 0 {
			t.Errorf("update_node(%v) = %+v, want %s updated in place", args, w, meeting)
		}
		after := snapshot(t, ts.dir)
		if d := diffSnapshots(before, after); !slices.Equal(d, []string{"~" + meeting}) {
			t.Errorf("update_node(%v) changed %q, want only ~%s", args, d, meeting)
		}
		if got := after[meeting]; !strings.Contains(got, "status: done\n") || !strings.Contains(got, "# Meeting Notes") {
			t.Errorf("%s =\n%s\nwant status done and its body kept", meeting, got)
		}
	})

	t.Run(`update_node directory "/" moves to the root`, func(t *testing.T) {
		ts := newTestServer(t)
		before := snapshot(t, ts.dir)
		w := ts.write(t, "update_node", map[string]any{"id": meeting, "directory": "/", "title": ""})
		if w.ID != "Meeting Notes.md" || len(w.Links) == 0 {
			t.Errorf("update_node(directory /) = %+v, want Meeting Notes.md with links rewritten", w)
		}
		after := snapshot(t, ts.dir)
		want := []string{"+Meeting Notes.md", "-" + meeting, "~Home.md", "~Projects/Alpha Plan.md"}
		if d := diffSnapshots(before, after); !slices.Equal(d, want) {
			t.Errorf("update_node(directory /) changed %q, want %q", d, want)
		}
		// Its own relative markdown links are fixed for the new folder.
		if got, want := after["Meeting Notes.md"], strings.NewReplacer("](../Home.md)", "](Home.md)", "](Café%20Menu.md)", "](Notes/Café%20Menu.md)").Replace(before[meeting]); got != want {
			t.Errorf("Meeting Notes.md =\n%s\nwant\n%s", got, want)
		}
		for _, p := range []string{"Home.md", "Projects/Alpha Plan.md"} {
			if strings.Contains(after[p], "Notes/Meeting Notes") {
				t.Errorf("%s still links to Notes/Meeting Notes:\n%s", p, after[p])
			}
		}
	})

	t.Run("create_node with empty fields writes the title only, at the root", func(t *testing.T) {
		ts := newTestServer(t)
		before := snapshot(t, ts.dir)
		ts.write(t, "create_node", map[string]any{"title": "Plain"})
		args := ts.writeOptionals(t, "create_node", map[string]any{"title": "Fresh", "tags": []any{}})
		w := ts.write(t, "create_node", args)
		if w.ID != "Fresh.md" {
			t.Errorf("create_node(%v) = %+v, want Fresh.md", args, w)
		}
		after := snapshot(t, ts.dir)
		if d := diffSnapshots(before, after); !slices.Equal(d, []string{"+Fresh.md", "+Plain.md"}) {
			t.Errorf("create_node(%v) changed %q, want +Fresh.md", args, d)
		}
		if got, want := after["Fresh.md"], strings.ReplaceAll(after["Plain.md"], "Plain", "Fresh"); got != want || strings.Contains(got, "---") {
			t.Errorf("Fresh.md = %q, want %q as for a title alone, no frontmatter", got, want)
		}
	})

	t.Run(`create_node directory "/" is the root`, func(t *testing.T) {
		ts := newTestServer(t)
		before := snapshot(t, ts.dir)
		if w := ts.write(t, "create_node", map[string]any{"title": "Rooted", "directory": "/", "content": "x"}); w.ID != "Rooted.md" {
			t.Errorf("create_node(directory /) = %+v, want Rooted.md", w)
		}
		if d := diffSnapshots(before, snapshot(t, ts.dir)); !slices.Equal(d, []string{"+Rooted.md"}) {
			t.Errorf("create_node(directory /) changed %q, want +Rooted.md", d)
		}
	})

	t.Run("delete_node with empty fields deletes", func(t *testing.T) {
		ts := newTestServer(t)
		before := snapshot(t, ts.dir)
		args := ts.writeOptionals(t, "delete_node", map[string]any{"id": "Orphan"})
		w := ts.write(t, "delete_node", args)
		if w.Deleted == nil || !*w.Deleted {
			t.Errorf("delete_node(%v) = %+v, want deleted", args, w)
		}
		if d := diffSnapshots(before, snapshot(t, ts.dir)); !slices.Equal(d, []string{"-Orphan.md"}) {
			t.Errorf("delete_node(%v) changed %q, want -Orphan.md", args, d)
		}
	})
}
