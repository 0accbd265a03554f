package mcp

import (
	"slices"
	"strings"
	"testing"
)

// rowsOf returns the rows of a list answer's key as objects.
func rowsOf(got map[string]any, key string) []map[string]any {
	var out []map[string]any
	for _, r := range asSlice(got[key]) {
		m, _ := r.(map[string]any)
		out = append(out, m)
	}
	return out
}

// rowByID is the row of list whose id is id, or nil.
func rowByID(list []map[string]any, id string) map[string]any {
	for _, r := range list {
		if r["id"] == id {
			return r
		}
	}
	return nil
}

func TestBacklinkContext(t *testing.T) {
	ts := newTestServer(t)
	got := ts.callJSON(t, "get_neighbors", map[string]any{"id": "Beta", "direction": "in"})
	rows := rowsOf(got, "nodes")
	want := map[string]string{
		"Projects/Alpha Plan.md": "Budget risk is tracked in **[[Beta#Goals|Beta's goals]]**.",
		"Home.md":                "**[[Beta#Goals]]** links to a heading, [[Beta#^block1]] to a block.",
		"Notes/Meeting Notes.md": `attendees: "**[[Beta]]**"`,
	}
	if len(rows) != len(want) {
		t.Fatalf("get_neighbors(Beta, in) = %d rows, want %d", len(rows), len(want))
	}
	for id, w := range want {
		if r := rowByID(rows, id); r == nil || r["context"] != w {
			t.Errorf("context of %s = %v, want %q", id, r["context"], w)
		}
	}
	// get_node's neighbours: incoming ones have a context, outgoing ones
	// an empty one.
	node := ts.callJSON(t, "get_node", map[string]any{"id": "Orphan", "depth": 1})
	if n := rowsOf(node, "neighbors"); len(n) != 0 {
		t.Errorf("Orphan's neighbours = %v, want none", n)
	}
	node = ts.callJSON(t, "get_node", map[string]any{"id": "Beta", "depth": 1})
	for _, r := range rowsOf(node, "neighbors") {
		c, _ := r["context"].(string)
		if (r["direction"] == "out") != (c == "") {
			t.Errorf("neighbour %v (%v) has context %q", r["id"], r["direction"], c)
		}
	}
	// minimal detail leaves it out; fields picks it.
	got = ts.callJSON(t, "get_neighbors", map[string]any{"id": "Beta", "direction": "in", "detail": "minimal"})
	if _, ok := rowsOf(got, "nodes")[0]["context"]; ok {
		t.Errorf("minimal row has context: %v", rowsOf(got, "nodes")[0])
	}
	got = ts.callJSON(t, "get_neighbors", map[string]any{"id": "Beta", "direction": "in", "fields": []string{"context"}})
	if c, _ := rowsOf(got, "nodes")[0]["context"].(string); !strings.Contains(c, "**") {
		t.Errorf("fields [context]: row = %v, want its context", rowsOf(got, "nodes")[0])
	}
}

func TestGetRelated(t *testing.T) {
	ts := newTestServer(t)
	got := ts.callJSON(t, "get_related", map[string]any{"ids": []string{"Beta"}})
	rows := rowsOf(got, "nodes")
	if len(rows) == 0 || rows[0]["score"] != 1.0 {
		t.Fatalf("get_related(Beta) = %v, want rows, the first scoring 1", got)
	}
	for _, r := range rows {
		if r["id"] == "Projects/Beta.md" {
			t.Errorf("the seed is listed: %v", r)
		}
		if _, ok := r["distance"].(float64); !ok {
			t.Errorf("row %v has no distance", r)
		}
	}
	if r := rowByID(rows, "Notes/Café Menu.md"); r == nil || r["distance"] != 2.0 || r["shared"] != 2.0 || r["via"] != "Home; Meeting Notes" {
		t.Errorf("Café Menu = %v, want distance 2, shared 2 via Home; Meeting Notes", r)
	}

	linked := ts.callJSON(t, "get_related", map[string]any{"ids": []string{"Beta"}, "excludeLinked": true})
	for _, r := range rowsOf(linked, "nodes") {
		if r["distance"] == 1.0 {
			t.Errorf("excludeLinked lists %v, a neighbour of Beta", r["id"])
		}
	}
	if n, all := len(rowsOf(linked, "nodes")), len(rows); n >= all {
		t.Errorf("excludeLinked gives %d rows, without it %d: want fewer", n, all)
	}

	q := ts.callJSON(t, "get_related", map[string]any{"query": "budget risk"})
	if seeds := strs(q["seeds"]); !slices.Contains(seeds, "Projects/Alpha Plan.md") {
		t.Errorf("get_related(query budget risk) seeds = %q, want Projects/Alpha Plan.md among them", seeds)
	}

	paged := ts.callJSON(t, "get_related", map[string]any{"ids": []string{"Beta", "Home"}, "limit": 2, "page": 2, "sortBy": "title"})
	if p := rowsOf(paged, "nodes"); len(p) != 2 || paged["page"] != 2.0 || p[0]["title"].(string) > p[1]["title"].(string) {
		t.Errorf("page 2 by title = %v", paged)
	}

	if text, isErr := ts.call(t, "get_related", map[string]any{"ids": []string{"No Such Note"}}); isErr || text != "null" {
		t.Errorf("get_related(missing) = %q (isError %v), want null", text, isErr)
	}
	wantIn(t, ts.wantError(t, CodeInvalidParams, "get_related", map[string]any{}), "ids")
	wantIn(t, ts.wantError(t, CodeInvalidParams, "get_related", map[string]any{"ids": []string{"Beta"}, "sortBy": "size"}), "sortBy")
}

// mentionNote is a note that mentions Beta in plain text, and in ways
// that do not count.
const mentionNote = "We asked beta about the budget.\n\n- BETA is late\n- `beta` in code, [[Beta]] linked, https://beta.example.com\n"

func TestMentions(t *testing.T) {
	ts := newTestServer(t)
	ts.callJSON(t, "create_node", map[string]any{"title": "Log", "content": mentionNote})
	got := ts.callJSON(t, "get_node", map[string]any{"id": "Beta", "fields": []string{"mentions"}})
	ms := rowsOf(got, "mentions")
	type row struct {
		source, text, context string
		line                  float64
	}
	var rows []row
	for _, m := range ms {
		rows = append(rows, row{m["source"].(string), m["text"].(string), m["context"].(string), m["line"].(float64)})
	}
	want := []row{
		{"Log.md", "beta", "We asked **beta** about the budget.", 1},
		{"Log.md", "BETA", "**BETA** is late", 3},
	}
	if !slices.Equal(rows, want) {
		t.Fatalf("mentions of Beta = %+v, want %+v", rows, want)
	}
	full := ts.callJSON(t, "get_node", map[string]any{"id": "Beta", "detail": "full"})
	if len(rowsOf(full, "mentions")) != 2 {
		t.Errorf("detail full: mentions = %v, want 2", full["mentions"])
	}
	std := ts.callJSON(t, "get_node", map[string]any{"id": "Beta"})
	if _, ok := std["mentions"]; ok {
		t.Errorf("standard detail lists mentions: %v", std["mentions"])
	}
}

func TestLinkMentions(t *testing.T) {
	ts := newTestServer(t)
	ts.callJSON(t, "create_node", map[string]any{"title": "Log", "content": mentionNote})
	before := snapshot(t, ts.dir)

	dry := ts.callJSON(t, "link_mentions", map[string]any{"id": "Beta", "dryRun": true})
	if dry["dryRun"] != true || len(rowsOf(dry, "links")) != 2 {
		t.Errorf("dry run = %v, want 2 links and dryRun", dry)
	}
	wantIn(t, ts.wantError(t, CodeInvalidParams, "link_mentions", map[string]any{"id": "Beta", "sources": []string{"Log.md:3", "Home.md"}}), "Home.md")
	wantIn(t, ts.wantError(t, CodeInvalidParams, "link_mentions", map[string]any{"id": "Beta", "sources": []string{"Log.md:2"}}), "Log.md:2")
	if changed := diffSnapshots(before, snapshot(t, ts.dir)); len(changed) != 0 {
		t.Fatalf("a dry run and refused calls changed %q", changed)
	}

	res := ts.callJSON(t, "link_mentions", map[string]any{"id": "Beta", "sources": []string{"Log:3"}})
	if links := rowsOf(res, "links"); len(links) != 1 || links[0]["new"] != "[[Beta|BETA]]" {
		t.Errorf("link_mentions(Log:3) links = %v, want [[Beta|BETA]]", res["links"])
	}
	if got, want := ts.file(t, "Log.md"), strings.Replace(mentionNote, "- BETA", "- [[Beta|BETA]]", 1); got != want {
		t.Errorf("Log.md =\n%s\nwant\n%s", got, want)
	}
	if changed := diffSnapshots(before, snapshot(t, ts.dir)); !slices.Equal(changed, []string{"~Log.md"}) {
		t.Errorf("files changed = %q, want only Log.md", changed)
	}
	// The new link is a backlink with its sentence; one mention is left.
	in := ts.callJSON(t, "get_neighbors", map[string]any{"id": "Beta", "direction": "in"})
	if r := rowByID(rowsOf(in, "nodes"), "Log.md"); r == nil || r["context"] != "**[[Beta|BETA]]** is late" {
		t.Errorf("Log.md as a backlink = %v, want context **[[Beta|BETA]]** is late", r)
	}
	left := ts.callJSON(t, "get_node", map[string]any{"id": "Beta", "fields": []string{"mentions"}})
	if ms := rowsOf(left, "mentions"); len(ms) != 1 || ms[0]["line"] != 1.0 {
		t.Errorf("mentions left = %v, want the one on line 1", left["mentions"])
	}
	all := ts.callJSON(t, "link_mentions", map[string]any{"id": "Beta"})
	if files := rowsOf(all, "files"); len(files) != 1 || files[0]["path"] != "Log.md" {
		t.Errorf("link_mentions(all) files = %v", all["files"])
	}
	if got := ts.file(t, "Log.md"); !strings.HasPrefix(got, "We asked [[Beta|beta]] about") {
		t.Errorf("Log.md = %q, want the first mention linked", got)
	}
	none := ts.callJSON(t, "link_mentions", map[string]any{"id": "Beta"})
	if len(rowsOf(none, "files")) != 0 || !strings.Contains(strings.Join(strs(none["warnings"]), " "), "no unlinked mention") {
		t.Errorf("nothing left to link: %v", none)
	}
}

// wantIn checks that an error message names what it is about.
func wantIn(t *testing.T, msg, want string) {
	t.Helper()
	if !strings.Contains(msg, want) {
		t.Errorf("error %q does not name %q", msg, want)
	}
}

// TestRelatedBadInput: ids and sources that leave the vault, bad lines
// and odd text are a clear INVALID_PARAMS or a null, never a fault, and
// nothing is written.
func TestRelatedBadInput(t *testing.T) {
	ts := newTestServer(t)
	before := snapshot(t, ts.dir)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"get_related", map[string]any{"ids": []string{"../outside"}}},
		{"get_related", map[string]any{"ids": []string{"/etc/passwd"}}},
		{"get_related", map[string]any{"ids": []string{"Beta"}, "limit": 51}},
		{"get_related", map[string]any{"ids": "Beta"}},
		{"link_mentions", map[string]any{"id": "../outside"}},
		{"link_mentions", map[string]any{"id": "Home", "sources": []string{"../outside:3"}}},
		{"link_mentions", map[string]any{"id": "Home", "sources": []string{"Projects/Beta.md:0"}}},
		{"link_mentions", map[string]any{"id": "Home", "sources": []string{"Projects/Beta.md:-4"}}},
	} {
		text, isErr := ts.call(t, tc.tool, tc.args)
		if !isErr || !strings.HasPrefix(text, CodeInvalidParams+": ") {
			t.Errorf("%s(%v) = %q (isError %v), want INVALID_PARAMS", tc.tool, tc.args, text, isErr)
		}
	}
	for _, q := range []string{`"`, "***", strings.Repeat("x ", 500), "\x00"} {
		if text, isErr := ts.call(t, "get_related", map[string]any{"query": q}); isErr && !strings.HasPrefix(text, CodeInvalidParams) {
			t.Errorf("get_related(query %.20q) = %q, want an answer or INVALID_PARAMS", q, text)
		}
	}
	if changed := diffSnapshots(before, snapshot(t, ts.dir)); len(changed) != 0 {
		t.Errorf("bad calls changed %q", changed)
	}
}
