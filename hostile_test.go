package vaultgraph_test

// Hostile input at the Engine and MCP level, on real files: paths that try
// to leave the vault in every tool that takes an id, a folder or a title;
// symlinks out of the vault; a huge note; a note with 100,000 links; deep
// nesting; invalid UTF-8; YAML bombs; absurd limit/depth/maxTokens/page
// values. The answer is always a clear error (INVALID_PARAMS and the like)
// or a normal answer, memory stays bounded, and nothing is written outside
// the vault.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/mcp"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// hostileSecret is in every file outside the vault: no answer may show it.
const hostileSecret = "TOPSECRET-7f3a"

// hostileTools calls vaultgraph's MCP tool handlers in process, with the
// same binding, bounds checks and panic recovery the server uses.
type hostileTools struct {
	e        *vaultgraph.Engine
	handlers map[string]server.ToolHandlerFunc
}

func newHostileTools(e *vaultgraph.Engine) *hostileTools {
	t := &mcp.Tools{Engine: e}
	h := &hostileTools{e: e, handlers: map[string]server.ToolHandlerFunc{}}
	for _, st := range append(t.ServerTools(nil), t.WriteTools(nil)...) {
		h.handlers[st.Tool.Name] = st.Handler
	}
	return h
}

// call runs a tool and returns its text and isError. A Go error from a
// handler (a fault, not a caller's mistake) fails the test.
func (h *hostileTools) call(t testing.TB, name string, args map[string]any) (string, bool) {
	t.Helper()
	hd, ok := h.handlers[name]
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	// Arguments arrive as decoded JSON: round-trip them so that numbers
	// are float64 as they are over the wire.
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatal(err)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = decoded
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := hd(ctx, req)
	if err != nil {
		t.Fatalf("%s(%.200v): Go error %v, want a tool result", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s(%.200v): %d contents, want 1", name, args, len(res.Content))
	}
	text, ok := mcpgo.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("%s: content %T, want text", name, res.Content[0])
	}
	if !utf8.ValidString(text.Text) {
		// Over MCP the JSON-RPC encoding turns invalid bytes into U+FFFD;
		// format json must not need that.
		if args["format"] == "json" {
			t.Errorf("%s(%.200v): JSON answer is not valid UTF-8: %.200q", name, args, text.Text)
		} else {
			t.Logf("%s(%.200v): answer holds invalid UTF-8 (file names as they are; MCP's JSON encoding turns them into U+FFFD): %.120q", name, args, text.Text)
		}
	}
	return text.Text, res.IsError
}

// hostileClip shortens a long text to its start and its end.
func hostileClip(s string) string {
	if len(s) <= 400 {
		return s
	}
	return s[:200] + " ... " + s[len(s)-200:]
}

// errorCode returns the SPEC code an error text starts with.
func errorCode(text string) string {
	code, _, _ := strings.Cut(text, ":")
	return code
}

// hostilePaths are ids, folders and titles that try to leave the vault or
// that no file system takes. The vault comes from escapeVault: the
// outside folder is top/outside (holding Secret.md), and the vault holds
// the symlinks escape -> outside, up -> top, hop -> escape, dangling.
func hostilePaths(outside string) []string {
	long := strings.Repeat("a", 300)
	return []string{
		"..", "../", "../outside", "../outside/Secret", "../outside/Secret.md", "../../../../../../etc/passwd",
		"Projects/../../outside/Secret.md", "./../outside/Secret.md",
		outside, outside + "/Secret.md", outside + "/Secret", "/", "/etc/passwd", "/etc",
		`C:\`, `C:\Windows\win.ini`, "C:/Windows", "c:", `\\server\share`, `\\server\share\Secret.md`, "//server/share/Secret.md",
		`..\outside\Secret.md`, `..\..`,
		"\x00", "Inside.md\x00", "Inside\x00../../outside", "../outside/Secret.md\x00.png",
		long, long + ".md", "Folder/" + long + "/Note.md", strings.Repeat("é", 200), strings.Repeat("a/", 2000) + "x.md",
		"CON.md", "CON", "con", "NUL.md", "Projects/AUX.md", "COM1", "lpt9.md", "CONOUT$",
		"escape", "escape/Secret", "escape/Secret.md", "up/outside/Secret.md", "hop/Secret.md", "dangling", "dangling/x.md",
		"file:///etc/passwd", "vaultgraph://note/../outside/Secret.md", "%2e%2e/outside/Secret.md", "..%2Foutside%2FSecret.md",
	}
}

// hostileCall is one tool call with a hostile string in one of its
// parameters.
type hostileCall struct {
	tool  string
	write bool
	args  func(s string) map[string]any
}

var hostileCalls = []hostileCall{
	{tool: "get_node", args: func(s string) map[string]any { return map[string]any{"id": s, "format": "json", "detail": "full"} }},
	{tool: "get_node", args: func(s string) map[string]any { return map[string]any{"id": s, "depth": 1} }},
	{tool: "get_neighbors", args: func(s string) map[string]any { return map[string]any{"id": s, "format": "json"} }},
	{tool: "find_path", args: func(s string) map[string]any { return map[string]any{"source": s, "target": "Inside"} }},
	{tool: "find_path", args: func(s string) map[string]any { return map[string]any{"source": "Inside", "target": s} }},
	{tool: "list_nodes", args: func(s string) map[string]any { return map[string]any{"folder": s, "format": "json"} }},
	{tool: "search", args: func(s string) map[string]any {
		return map[string]any{"query": "classified", "folder": s, "mode": "keyword", "format": "json"}
	}},
	{tool: "search", args: func(s string) map[string]any { return map[string]any{"query": s, "mode": "keyword", "format": "json"} }},
	{tool: "search_by_tags", args: func(s string) map[string]any { return map[string]any{"tags": []string{s}} }},
	{tool: "random_node", args: func(s string) map[string]any { return map[string]any{"tags": []string{s}} }},
	{tool: "create_node", write: true, args: func(s string) map[string]any {
		return map[string]any{"title": "Evil", "content": "pwned", "directory": s}
	}},
	{tool: "create_node", write: true, args: func(s string) map[string]any { return map[string]any{"title": s, "content": "pwned"} }},
	{tool: "update_node", write: true, args: func(s string) map[string]any { return map[string]any{"id": s, "content": "pwned"} }},
	{tool: "update_node", write: true, args: func(s string) map[string]any { return map[string]any{"id": "Inside", "directory": s} }},
	{tool: "update_node", write: true, args: func(s string) map[string]any { return map[string]any{"id": "Inside", "title": s} }},
	{tool: "update_node", write: true, args: func(s string) map[string]any {
		return map[string]any{"id": "Inside", "title": "Renamed", "directory": s}
	}},
	{tool: "delete_node", write: true, args: func(s string) map[string]any { return map[string]any{"id": s} }},
}

// raceScale is n, or raceN under the race detector (which makes the
// parser and the writer 10-20 times slower).
func raceScale(n, raceN int) int {
	if hostileRace() {
		return raceN
	}
	return n
}

// hostileRace reports whether the test binary runs with the race
// detector.
func hostileRace() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return true
			}
		}
	}
	return false
}

// TestHostileNesting: deep nesting of lists, blockquotes, brackets and
// emphasis is indexed quickly without a crash, links at the bottom
// included where the parser reaches them.
func TestHostileNesting(t *testing.T) {
	// 10,000 levels; under the race detector (10-20 times slower to parse)
	// 2,000, so that the race run of the package stays in its timeout.
	depth := raceScale(10_000, 2_000)
	indented := func(n int) string { // nested list items by indentation
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- item\n")
		}
		b.WriteString(strings.Repeat("  ", n) + "- [[Target]]\n")
		return b.String()
	}
	files := map[string]string{
		"Target.md":      "# Target\n",
		"Lists.md":       strings.Repeat("- ", depth) + "[[Target]]\n",
		"Ordered.md":     strings.Repeat("1. ", depth) + "[[Target]]\n",
		"Quotes.md":      strings.Repeat(">", depth) + " [[Target]]\n",
		"QuoteLists.md":  strings.Repeat("> - ", depth) + "[[Target]]\n",
		"Indented.md":    indented(1000),
		"Brackets.md":    strings.Repeat("[", depth) + "[[Target]]" + strings.Repeat("]", depth) + "\n",
		"Wikis.md":       strings.Repeat("[[", depth) + "Target" + strings.Repeat("]]", depth) + "\n",
		"Emphasis.md":    strings.Repeat("*", depth) + "[[Target]]" + strings.Repeat("*", depth) + "\n",
		"Links.md":       strings.Repeat("[a](", depth) + "Target.md" + strings.Repeat(")", depth) + "\n",
		"Parens.md":      "[x](" + strings.Repeat("(", depth) + "Target.md" + strings.Repeat(")", depth) + ")\n",
		"Images.md":      strings.Repeat("![", depth) + "x" + strings.Repeat("](Target.md)", depth) + "\n",
		"HTML.md":        strings.Repeat("<div>", depth) + "[[Target]]" + strings.Repeat("</div>", depth) + "\n",
		"Backticks.md":   strings.Repeat("`", depth) + "[[Target]]" + strings.Repeat("`", depth-1) + "\n",
		"Fences.md":      strings.Repeat("```\n", depth) + "[[Target]]\n",
		"Tags.md":        strings.Repeat("#a/", depth) + "b\n",
		"Headings.md":    strings.Repeat("#", depth) + " [[Target]]\n",
		"Tables.md":      "| a |\n| - |\n" + strings.Repeat("| [[Target]] \\| x |\n", depth),
		"FrontDeep.md":   "---\nx: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n---\n[[Target]]\n",
		"FrontMap.md":    "---\n" + deepYAMLMap(depth) + "---\n[[Target]]\n",
		"FrontFlow.md":   "---\nx: " + strings.Repeat("{a: ", depth) + "1" + strings.Repeat("}", depth) + "\n---\n[[Target]]\n",
		"LinkRefs.md":    strings.Repeat("[x]: Target.md\n", depth) + strings.Repeat("[x]", depth) + "\n",
		"AutoLinks.md":   strings.Repeat("<http://a.b/", depth) + strings.Repeat(">", depth) + "\n",
		"Entities.md":    strings.Repeat("&#x5B;", depth) + "\n",
		"Escapes.md":     strings.Repeat("\\", 2*depth) + "[[Target]]\n",
		"LongLine.md":    strings.Repeat("x", raceScale(4<<20, 1<<20)) + " [[Target]]\n",
		"ManyLines.md":   strings.Repeat("\n", raceScale(1<<20, 1<<17)) + "[[Target]]\n",
		"CRs.md":         strings.Repeat("\r", raceScale(1<<20, 1<<17)) + "[[Target]]\n",
		"Spaces.md":      strings.Repeat(" ", raceScale(1<<20, 1<<17)) + "[[Target]]\n",
		"Pipes.md":       "[[Target" + strings.Repeat("|", depth) + "]]\n",
		"Hashes.md":      "[[Target" + strings.Repeat("#", depth) + "]]\n",
		"Carets.md":      "[[Target#" + strings.Repeat("^", depth) + "]]\n",
		"Comments.md":    strings.Repeat("%%", depth) + "[[Target]]\n",
		"MathDollars.md": strings.Repeat("$", depth) + "[[Target]]\n",
	}
	dir := makeVault(t, files)
	var e *vaultgraph.Engine
	start := time.Now()
	growth := heapWatch(func() {
		e = vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	defer e.Close()
	took := time.Since(start)
	t.Logf("Open of %d deeply nested notes: %v, heap growth %d MB", len(files), took.Round(time.Millisecond), growth>>20)
	if took > 2*time.Minute {
		t.Errorf("Open took %v, want well under 2 minutes", took)
	}
	if growth > hostileMemLimit {
		t.Errorf("heap growth %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	h := newHostileTools(e)
	var known []string
	for _, id := range slices.Sorted(maps.Keys(files)) {
		for _, f := range []string{"json", "toon", "markdown"} {
			for _, detail := range []string{"standard", "full"} {
				text, isErr := h.call(t, "get_node", map[string]any{"id": id, "format": f, "detail": detail})
				switch {
				case isErr && strings.Contains(text, "exceeded max depth") && strings.HasPrefix(id, "Front"):
					known = append(known, fmt.Sprintf("get_node(%s, %s, %s) = %.120q", id, f, detail, text))
				case isErr || !strings.Contains(text, id):
					t.Errorf("get_node(%s, %s, %s) = %q, want the note", id, f, detail, hostileClip(text))
				}
			}
		}
	}
	// The clear cases keep their link to Target.
	for _, id := range []string{"Lists.md", "Quotes.md", "Indented.md", "Ordered.md", "LongLine.md", "ManyLines.md"} {
		n, err := e.GetNode(context.Background(), id, false)
		if err != nil || n == nil {
			t.Fatalf("GetNode(%s) = %v, %v", id, n, err)
		}
		if !slices.Contains(linkIDs(n.Links), "Target.md") {
			t.Errorf("%s: links %v, broken %q, warnings %q: the link at the bottom is not seen", id, linkIDs(n.Links), n.Broken, n.Warnings)
		}
	}
	// Rename Target: every link that was seen is rewritten, nothing else.
	start = time.Now()
	text, isErr := h.call(t, "update_node", map[string]any{"id": "Target", "title": "Target Two", "format": "json"})
	t.Logf("rename of the target of deeply nested links: %v", time.Since(start).Round(time.Millisecond))
	if isErr && errorCode(text) != "INVALID_PARAMS" {
		t.Errorf("rename Target = %.300q", text)
	}
	if len(known) > 0 {
		t.Errorf("a frontmatter value nested too deep to show (PROVIDER_ERROR from encoding/json's depth limit), want it left out (vault.MaxPropertyDepth): %q", known)
	}
}

// deepYAMLMap is a YAML mapping nested depth levels by indentation,
// capped so that the file stays small.
func deepYAMLMap(depth int) string {
	depth = min(depth, 2000)
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("k:\n")
	}
	b.WriteString(strings.Repeat(" ", depth) + "k: v\n")
	return b.String()
}

// TestHostileUTF8: invalid UTF-8 in contents, links, tags, frontmatter and
// file names is indexed with a warning, and every answer is valid UTF-8
// (and valid JSON with format json).
func TestHostileUTF8(t *testing.T) {
	files := map[string]string{
		"Target.md":      "# Target\n",
		"Bad.md":         "# Bad \xff\xfe\n[[Target]] [[Tar\xffget]] #t\xffag [x](Tar\xc3get.md)\n\xed\xa0\x80 surrogate \xc0\xaf overlong\n",
		"Front.md":       "---\ntitle: \"T\xff\"\ntags: [a\xff, b]\nrel: \"[[Target\xfe]]\"\n---\nbody \xf8\x88\x80\x80\x80\n",
		"Name \xff.md":   "[[Target]] invalid file name\n",
		"Te\xcc.md":      "a name cut inside a character\n",
		"BOM.md":         "\xef\xbb\xbf\xef\xbb\xbf---\ntitle: x\n---\n[[Target]]\n",
		"Controls.md":    "\x01\x02\x1b[31m red \x7f [[Target]] \u202e reversed \u2028 sep\n",
		"NonChar.md":     "\uFFFE \uFFFF \U0010FFFF [[Target\uFFFF]]\n",
		"HalfUTF16.md":   "\xff\xfeh\x00i\x00",
		"Lone.md":        "\x80\x80\x80\x80 [[\x80]] [[#\x80]] [[Target#\x80|\x80]]\n",
		"Sub/Dir\xff.md": "in a folder\n",
	}
	top := t.TempDir()
	dir := filepath.Join(top, "vault")
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", rel, err)
		}
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h := newHostileTools(e)
	checkJSON := func(what, text string) {
		t.Helper()
		if !json.Valid([]byte(text)) {
			t.Errorf("%s: not valid JSON: %.300q", what, text)
		}
	}
	ids := map[string]bool{}
	for page := 1; ; page++ {
		text, isErr := h.call(t, "list_nodes", map[string]any{"format": "json", "detail": "full", "page": page, "limit": 100})
		if isErr {
			t.Fatalf("list_nodes = %.300q", text)
		}
		checkJSON("list_nodes", text)
		var res struct {
			Nodes      []struct{ ID string }
			TotalPages int
		}
		if err := json.Unmarshal([]byte(text), &res); err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Nodes {
			ids[n.ID] = true
		}
		if page >= res.TotalPages {
			break
		}
	}
	t.Logf("ids as JSON shows them: %q", slices.Sorted(maps.Keys(ids)))
	if len(ids) < len(files)-2 {
		t.Errorf("list_nodes shows %d notes, want about %d", len(ids), len(files))
	}
	// Every note as the list shows its ID can be read back by that ID.
	for id := range ids {
		text, isErr := h.call(t, "get_node", map[string]any{"id": id, "format": "json", "detail": "full"})
		checkJSON("get_node("+id+")", text)
		if isErr || text == "null" {
			t.Errorf("get_node(%q), the ID list_nodes gave = %.300q: a note with an invalid UTF-8 file name cannot be read by the ID shown", id, text)
		}
		for _, f := range []string{"toon", "markdown"} {
			h.call(t, "get_node", map[string]any{"id": id, "format": f, "depth": 1})
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"list_tags", map[string]any{"format": "json"}},
		{"list_tags", map[string]any{}},
		{"vault_status", map[string]any{"format": "json"}},
		{"vault_status", map[string]any{}},
		{"search", map[string]any{"query": "surrogate overlong", "mode": "keyword", "format": "json"}},
		{"search", map[string]any{"query": "\uFFFD", "mode": "keyword"}},
		{"get_hubs", map[string]any{"format": "json"}},
		{"get_neighbors", map[string]any{"id": "Target", "format": "json"}},
		{"list_nodes", map[string]any{"brokenLinks": true}},
	} {
		text, isErr := h.call(t, c.tool, c.args)
		if isErr {
			t.Errorf("%s(%v) = %.300q", c.tool, c.args, text)
		}
		if c.args["format"] == "json" {
			checkJSON(c.tool, text)
		}
	}
	// Writes with invalid UTF-8 (possible from the CLI or the Go API,
	// not over JSON) write valid names.
	ctx := context.Background()
	if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "New \xff Note", Content: "x \xfe\n", Tags: []string{"t\xff"}}); err != nil {
		t.Logf("CreateNode with invalid UTF-8 = %v", err)
	}
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Target", Title: strp("Tar\xffget Two")}); err != nil {
		t.Logf("rename with invalid UTF-8 = %v", err)
	}
	for rel := range noteFiles(t, dir) {
		if _, ok := files[rel]; !ok && !utf8.ValidString(rel) {
			t.Errorf("a write made the file %q, not valid UTF-8", rel)
		}
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("leftovers %q", l)
	}
}

// hostileNumber reads an int or float64 test value.
func hostileNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: %d\n", i, i)
	}
	return b.String()
}

// TestHostileBounds sends absurd numbers and types for limit, depth,
// maxTokens and page to every tool that takes them: each is INVALID_PARAMS
// (or, for a page past the end, an empty page), answered at once.
func TestHostileBounds(t *testing.T) {
	e := openVault(t, copyTestVault(t))
	h := newHostileTools(e)
	huge := []any{
		1e9, 1e18, 1e300, -1, -1e18, 0.5, 1.5, 2147483648, 9223372036854775807, -9223372036854775808,
		18446744073709551615.0, "100", "1e9", true, []int{1}, map[string]int{"a": 1}, nil,
	}
	type tc struct {
		tool  string
		param string
		base  map[string]any
	}
	var cases []tc
	for _, tool := range []string{"get_neighbors", "search_by_tags", "list_nodes", "list_tags", "get_hubs", "search"} {
		base := map[string]any{}
		switch tool {
		case "get_neighbors":
			base["id"] = "Home"
		case "search_by_tags":
			base["tags"] = []string{"project"}
		case "search":
			base["query"] = "home"
			base["mode"] = "keyword"
		}
		cases = append(cases, tc{tool, "limit", base})
		if tool != "get_hubs" && tool != "search" {
			cases = append(cases, tc{tool, "page", base})
		}
	}
	cases = append(cases, tc{"get_node", "depth", map[string]any{"id": "Home"}})
	for _, tool := range []string{"get_node", "list_nodes", "list_tags", "vault_status", "get_hubs", "search", "find_path", "random_node", "get_neighbors", "search_by_tags"} {
		base := map[string]any{}
		switch tool {
		case "get_node", "get_neighbors":
			base["id"] = "Home"
		case "find_path":
			base["source"], base["target"] = "Home", "Orphan"
		case "search_by_tags":
			base["tags"] = []string{"project"}
		case "search":
			base["query"] = "home"
		}
		cases = append(cases, tc{tool, "maxTokens", base})
	}
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	allocBefore := m.TotalAlloc
	for _, c := range cases {
		for _, v := range huge {
			args := maps.Clone(c.base)
			args[c.param] = v
			start := time.Now()
			text, isErr := h.call(t, c.tool, args)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s(%s=%v) took %v", c.tool, c.param, v, d)
			}
			ok := isErr && errorCode(text) == "INVALID_PARAMS" && strings.Contains(text, c.param)
			// A huge page is a valid page past the end.
			if f, isNum := hostileNumber(v); !ok && c.param == "page" && isNum && f >= 1 && f == float64(int64(f)) && f < 9.2e18 && !isErr {
				ok = true
			}
			if v == nil && !isErr { // null is the default
				ok = true
			}
			if !ok {
				t.Errorf("%s(%s=%v) = %.200q (isError %v), want INVALID_PARAMS naming %s", c.tool, c.param, v, text, isErr, c.param)
			}
		}
	}
	runtime.ReadMemStats(&m)
	if alloc := m.TotalAlloc - allocBefore; alloc > 2<<30 {
		t.Errorf("%d calls with absurd bounds allocated %d MB in all", len(cases)*len(huge), alloc>>20)
	} else {
		t.Logf("%d calls with absurd bounds allocated %d MB in all", len(cases)*len(huge), alloc>>20)
	}
	// Absurd list parameters.
	many := make([]string, 100_000)
	for i := range many {
		many[i] = fmt.Sprintf("f%d", i)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": "Home", "fields": many}},
		{"list_nodes", map[string]any{"sortBy": many}},
		{"list_nodes", map[string]any{"tags": many}},
		{"search_by_tags", map[string]any{"tags": many}},
		{"random_node", map[string]any{"tags": many}},
		{"search", map[string]any{"query": strings.Repeat("home ", 100_000), "mode": "keyword"}},
		{"search", map[string]any{"query": strings.Repeat("\"", 100_001), "mode": "keyword"}},
		{"search", map[string]any{"query": strings.Repeat("a OR ", 50_000) + "b", "mode": "keyword"}},
		{"list_nodes", map[string]any{"properties": map[string]any{"a": strings.Repeat("x", 1<<20)}}},
		{"get_node", map[string]any{"id": strings.Repeat("x", 1<<20)}},
		{"find_path", map[string]any{"source": strings.Repeat("x", 1<<20), "target": "Home"}},
	} {
		start := time.Now()
		text, isErr := h.call(t, c.tool, c.args)
		d := time.Since(start)
		if d > 10*time.Second {
			t.Errorf("%s with a huge list took %v", c.tool, d)
		}
		if isErr && errorCode(text) != "INVALID_PARAMS" {
			t.Errorf("%s with a huge parameter = %.200q, want an answer or INVALID_PARAMS", c.tool, text)
		}
		if len(text) > 2<<20 {
			t.Errorf("%s with a huge parameter answered %d bytes", c.tool, len(text))
		}
	}
}

// TestHostileLongNames: notes whose file names are long but legal (up to
// 255 bytes, which Obsidian and every Linux and macOS file system take)
// can be edited, renamed and linked to like any other.
func TestHostileLongNames(t *testing.T) {
	for _, n := range []int{200, 226, 227, 240, 252} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			long := strings.Repeat("L", n-3) // + ".md"
			dir := makeVault(t, map[string]string{
				"Hub.md":       "# Hub\n",
				long + ".md":   "# Long\n[[Hub]]\n",
				"Pointer.md":   "[[" + long + "]]\n",
				"Sub/Other.md": "[[Hub]]\n",
			})
			e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
			if err := e.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			h := newHostileTools(e)
			var known []string
			check := func(tool string, args map[string]any) {
				t.Helper()
				before := noteFiles(t, dir)
				text, isErr := h.call(t, tool, args)
				if !isErr {
					return
				}
				if d := treeDiff(noteFiles(t, dir), before); d != "" {
					t.Errorf("%s(%.80v) failed but changed files:\n%.1000s", tool, args, d)
				}
				if strings.Contains(text, "too long to keep a backup") {
					known = append(known, fmt.Sprintf("%s(%.60v) = %.200s", tool, args, text))
					return
				}
				t.Errorf("%s(%.80v) = %q", tool, args, hostileClip(text))
			}
			check("update_node", map[string]any{"id": long, "content": "edited\n"})
			check("update_node", map[string]any{"id": long, "tags": []string{"t"}})
			check("update_node", map[string]any{"id": "Hub", "title": "Hub Two"}) // rewrites the long note's link
			check("update_node", map[string]any{"id": long, "directory": "Sub"})  // moves the long note
			check("delete_node", map[string]any{"id": "Pointer"})
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("leftovers %q", l)
			}
			if len(known) > 0 {
				t.Errorf("a note with a legal %d-byte file name cannot be written (vault/commit/backup.go backupName, %q): %q", n, commit.BackupPrefix, known)
			}
		})
	}
}

// TestHostileCleanupDuringCommit: commit.Recover, which every Engine
// Open that is neither read-only nor TrustIndex runs (every `serve` start,
// `vaultgraph index`, a command on another index), put in the middle of a
// rename's Commit as a second process starting at that moment would. The rename must still be all or
// nothing: either it succeeds, or it fails and no file changed.
func TestHostileCleanupDuringCommit(t *testing.T) {
	files := map[string]string{"Hub.md": "# Hub\n"}
	for i := range 5 {
		files[fmt.Sprintf("N%d.md", i)] = fmt.Sprintf("Note %d links to [[Hub]].\n", i)
	}
	for _, step := range []struct {
		name string
		n    int
	}{{"backup", 2}, {"rename", 2}, {"rename", 4}} {
		t.Run(fmt.Sprintf("%s#%d", step.name, step.n), func(t *testing.T) {
			dir := makeVault(t, files)
			e := openWriter(t, dir, false)
			before := noteFiles(t, dir)
			var cleaned []string
			e.SetCommitFailAt(func(s string, n int) error {
				if s == step.name && n == step.n {
					// Another process opens the vault now.
					done, err := commit.Recover(dir)
					cleaned = append(cleaned, done...)
					if err != nil {
						t.Logf("commit.Recover: %v", err)
					}
				}
				return nil
			})
			_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Hub", Title: strp("Hub Two")})
			e.SetCommitFailAt(nil)
			after := noteFiles(t, dir)
			t.Logf("commit.Recover in the middle did: %q; rename = %s", cleaned, hostileClip(fmt.Sprint(err)))
			want := maps.Clone(before)
			if err == nil {
				delete(want, "Hub.md")
				want["Hub Two.md"] = before["Hub.md"]
				for k, v := range want {
					want[k] = strings.ReplaceAll(v, "[[Hub]]", "[[Hub Two]]")
				}
			}
			if d := treeDiff(after, want); d != "" {
				t.Errorf("commit.Recover run in the middle of a rename's commit (as the Open of a second process would, vault/commit/lock.go) "+
					"made the rename not all or nothing (%s):\n%s", hostileClip(fmt.Sprint(err)), d)
			}
		})
	}
}
