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
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// outsideTree is the part of top's tree that is not the vault.
func outsideTree(t testing.TB, top string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, v := range fileTree(t, top) {
		if k != "vault" && !strings.HasPrefix(k, "vault/") && !strings.HasPrefix(k, "<mode> vault/") {
			out[k] = v
		}
	}
	return out
}

// TestHostileToolPaths sends every hostile path to every tool parameter
// that names a note, a folder or a title. Reads answer null, an empty
// list or INVALID_PARAMS and never show a file outside the vault; writes
// are refused (INVALID_PARAMS, NODE_NOT_FOUND, NODE_EXISTS) or land inside
// the vault under a portable name; nothing outside the vault changes.
func TestHostileToolPaths(t *testing.T) {
	// Reads share one vault and one engine with an index (search needs
	// it); each write gets a vault of its own, as a write may succeed (a
	// title is cleaned into a name).
	readTop, readDir, outside := escapeVault(t)
	hostileEscapeFiles(t, readTop, readDir)
	readEngine := vaultgraph.New(vaultgraph.Options{Vault: readDir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := readEngine.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer readEngine.Close()
	reads := newHostileTools(readEngine)
	if text, _ := reads.call(t, "search", map[string]any{"query": "classified", "mode": "keyword", "format": "json"}); !strings.Contains(text, `"total":0`) && !strings.Contains(text, "nodes\":[]") && strings.Contains(text, "Secret") {
		t.Fatalf("search(classified) finds the outside note without any hostile input: %.300q", text)
	}
	for _, s := range hostilePaths(filepath.ToSlash(outside)) {
		for i, hc := range hostileCalls {
			t.Run(fmt.Sprintf("%s#%d/%.40q", hc.tool, i, s), func(t *testing.T) {
				top, dir, h := readTop, readDir, reads
				if hc.write {
					top, dir, _ = escapeVault(t)
					hostileEscapeFiles(t, top, dir)
					e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
					if err := e.Open(context.Background()); err != nil {
						t.Fatal(err)
					}
					defer e.Close()
					h = newHostileTools(e)
				}
				args := hc.args(s)
				before := outsideTree(t, top)
				vaultBefore := noteFiles(t, dir)
				text, isErr := h.call(t, hc.tool, args)
				if strings.Contains(text, hostileSecret) {
					t.Errorf("%s(%.80q) shows a file outside the vault: %.300q", hc.tool, s, text)
				}
				if d := treeDiff(outsideTree(t, top), before); d != "" {
					t.Errorf("%s(%.80q) CHANGED FILES OUTSIDE THE VAULT:\n%s", hc.tool, s, d)
				}
				if isErr {
					switch code := errorCode(text); code {
					case "INVALID_PARAMS", "NODE_NOT_FOUND", "NODE_EXISTS":
					default:
						t.Errorf("%s(%.80q) = %q, want INVALID_PARAMS, NODE_NOT_FOUND or NODE_EXISTS", hc.tool, s, hostileClip(text))
					}
					if d := treeDiff(noteFiles(t, dir), vaultBefore); d != "" {
						t.Errorf("%s(%.80q) failed (%.100s) but changed the vault:\n%.2000s", hc.tool, s, text, d)
					}
				}
				if !hc.write {
					if d := treeDiff(noteFiles(t, dir), vaultBefore); d != "" {
						t.Errorf("read %s(%.80q) changed the vault:\n%.2000s", hc.tool, s, d)
					}
					return
				}
				checkPortableTree(t, dir, hc.tool, s, text)
				if l := leftovers(t, dir); len(l) > 0 {
					t.Errorf("%s(%.80q) left %q", hc.tool, s, l)
				}
				// The engine still answers.
				if text, isErr := h.call(t, "get_node", map[string]any{"id": "Kept", "format": "json"}); isErr || !strings.Contains(text, `"id":"Folder/Kept.md"`) {
					t.Errorf("after %s(%.80q): get_node(Kept) = %.200q", hc.tool, s, text)
				}
			})
		}
	}
}

// hostileEscapeFiles adds a note to an escapeVault vault and puts the
// secret into the outside note.
func hostileEscapeFiles(t *testing.T, top, dir string) {
	t.Helper()
	write(t, dir, "Folder/Kept.md", "# Kept\n[[Inside]]\n")
	write(t, top, "outside/Secret.md", "# Secret\n"+hostileSecret+" classified\n")
}

// checkPortableTree checks that every note file in the vault has a name
// that every file system takes: no reserved names, no name over 255
// bytes, no name ending in a dot or space, valid UTF-8.
func checkPortableTree(t *testing.T, dir, tool, give, answer string) {
	t.Helper()
	for rel, v := range noteFiles(t, dir) {
		if strings.HasPrefix(v, "<symlink>") {
			continue
		}
		for _, seg := range strings.Split(rel, "/") {
			stem, _, _ := strings.Cut(seg, ".")
			switch strings.ToUpper(strings.TrimRight(stem, " ")) {
			case "CON", "PRN", "AUX", "NUL", "COM1", "COM9", "LPT1", "LPT9", "CONOUT$":
				t.Errorf("%s(%.40q) wrote %s: a reserved Windows name (answer %.200q)", tool, give, rel, answer)
			}
			if len(seg) > 255 || strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, " ") || !utf8.ValidString(seg) {
				t.Errorf("%s(%.40q) wrote %.80q: not a portable name", tool, give, rel)
			}
		}
	}
}

// TestHostileSymlinks: a symlinked folder and a symlinked note pointing
// outside the vault are not indexed as notes (they are reported as
// problems), never shown, and never written through.
func TestHostileSymlinks(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "vault")
	outside := filepath.Join(top, "outside")
	write(t, outside, "Secret.md", "# Secret\n"+hostileSecret+" [[Real]]\n#secret-tag\n")
	write(t, outside, "Sub/Outside Note.md", "# Outside Note\n"+hostileSecret+"\n")
	write(t, dir, "Real.md", "# Real\n[[Leak]] [[Secret]] [[Outside Note]] [[linked/Secret]]\n")
	write(t, dir, "Other.md", "# Other\n[[Real]]\n")
	for name, target := range map[string]string{
		"Leak.md":   filepath.Join(outside, "Secret.md"),
		"linked":    outside,
		"Rel.md":    "../outside/Secret.md", // a relative symlink out
		"Inner.md":  "Real.md",              // a symlink that stays inside: followed
		"Loop.md":   "Loop.md",
		"LoopA":     "LoopB",
		"LoopB":     "LoopA",
		"Up":        "..",
		"RootLink":  ".",
		"Dangle.md": filepath.Join(top, "nowhere.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	index := filepath.Join(t.TempDir(), "index.db")
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h := newHostileTools(e)
	ctx := context.Background()

	// Only the real notes (and the inside symlink) are notes.
	res, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: vaultgraph.MaxListLimit})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nodeIDs(res.Nodes), []string{"Inner.md", "Other.md", "Real.md"}; !slices.Equal(got, want) {
		t.Errorf("notes = %q, want %q", got, want)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string]string{}
	for _, p := range st.Problems {
		reported[p.Path] = p.Reason
	}
	for _, p := range []string{"Leak.md", "linked", "Rel.md", "Dangle.md"} {
		if _, ok := reported[p]; !ok {
			t.Errorf("vault_status problems = %v, want %s reported", st.Problems, p)
		}
	}
	for _, tag := range []string{"secret-tag"} {
		if text, _ := h.call(t, "search_by_tags", map[string]any{"tags": []string{tag}, "format": "json"}); !strings.Contains(text, `"total":0`) {
			t.Errorf("search_by_tags(%s) = %.300q, want nothing: the tag is in a file outside", tag, text)
		}
	}

	// Reads never show the outside files.
	reads := []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": "Leak", "format": "json"}},
		{"get_node", map[string]any{"id": "Leak.md"}},
		{"get_node", map[string]any{"id": "linked/Secret"}},
		{"get_node", map[string]any{"id": "linked/Sub/Outside Note.md"}},
		{"get_node", map[string]any{"id": "Rel"}},
		{"get_node", map[string]any{"id": "Real", "depth": 1, "detail": "full", "format": "json"}},
		{"get_neighbors", map[string]any{"id": "Real", "format": "json"}},
		{"list_nodes", map[string]any{"folder": "linked", "format": "json"}},
		{"list_nodes", map[string]any{"format": "json", "detail": "full"}},
		{"search", map[string]any{"query": hostileSecret, "mode": "keyword", "format": "json"}},
		{"search", map[string]any{"query": "Secret", "mode": "keyword", "format": "json"}},
		{"list_tags", map[string]any{"format": "json"}},
		{"get_hubs", map[string]any{"format": "json"}},
		{"find_path", map[string]any{"source": "Real", "target": "Leak"}},
	}
	for _, r := range reads {
		text, isErr := h.call(t, r.tool, r.args)
		if strings.Contains(text, hostileSecret) || strings.Contains(text, "secret-tag") {
			t.Errorf("%s(%v) shows an outside file: %.300q", r.tool, r.args, text)
		}
		if isErr && errorCode(text) != "INVALID_PARAMS" {
			t.Errorf("%s(%v) = %.300q, want an answer or INVALID_PARAMS", r.tool, r.args, text)
		}
	}

	// Writes never go through a symlink out, and never remove one's
	// target.
	outsideBefore := outsideTree(t, top)
	writes := []struct {
		tool  string
		args  map[string]any
		codes []string // allowed error codes; empty: must succeed
	}{
		{"create_node", map[string]any{"title": "Leak", "content": "pwned"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "Rel", "content": "pwned"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "Dangle", "content": "pwned"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "Secret", "directory": "linked", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "New", "directory": "linked/Sub", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "New", "directory": "Up", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "New", "directory": "LoopA", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Leak", "content": "pwned"}, []string{"NODE_NOT_FOUND", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Leak.md", "tags": []string{"pwned"}}, []string{"NODE_NOT_FOUND", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "linked/Secret.md", "content": "pwned"}, []string{"NODE_NOT_FOUND", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "title": "Leak"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "title": "Rel"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "directory": "linked"}, []string{"INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "directory": "linked/Sub"}, []string{"INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "title": "Secret", "directory": "linked"}, []string{"INVALID_PARAMS"}},
		{"delete_node", map[string]any{"id": "Leak"}, nil},
		{"delete_node", map[string]any{"id": "Leak.md"}, nil},
		{"delete_node", map[string]any{"id": "linked/Secret.md"}, nil},
		{"delete_node", map[string]any{"id": "Rel"}, nil},
	}
	for _, w := range writes {
		vaultBefore := fileTree(t, dir)
		text, isErr := h.call(t, w.tool, w.args)
		if strings.Contains(text, hostileSecret) {
			t.Errorf("%s(%v) shows an outside file: %.300q", w.tool, w.args, text)
		}
		switch {
		case isErr && !slices.Contains(w.codes, errorCode(text)):
			t.Errorf("%s(%v) = %.300q, want one of %q", w.tool, w.args, text, w.codes)
		case !isErr && len(w.codes) > 0:
			t.Errorf("%s(%v) = %.300q, want one of %q", w.tool, w.args, text, w.codes)
		case !isErr && w.tool == "delete_node" && strings.Contains(text, "deleted: true"):
			t.Errorf("%s(%v) = %.300q, want nothing deleted", w.tool, w.args, text)
		}
		if d := treeDiff(outsideTree(t, top), outsideBefore); d != "" {
			t.Fatalf("%s(%v) = %.200q CHANGED FILES OUTSIDE THE VAULT:\n%s", w.tool, w.args, text, d)
		}
		after := fileTree(t, dir)
		delete(after, ".vaultgraph")
		delete(vaultBefore, ".vaultgraph")
		for k, v := range vaultBefore {
			if strings.HasPrefix(v, "<symlink>") && after[k] != v {
				t.Errorf("%s(%v) replaced the symlink %s (%s) with %.80q", w.tool, w.args, k, v, after[k])
			}
		}
		if isErr {
			if d := treeDiff(after, vaultBefore); d != "" {
				t.Errorf("%s(%v) failed but changed the vault:\n%s", w.tool, w.args, d)
			}
		}
	}
	// A rename of a note that the outside file links to changes nothing
	// outside either.
	if text, isErr := h.call(t, "update_node", map[string]any{"id": "Real", "title": "Real Renamed"}); isErr {
		t.Errorf("rename Real = %.300q", text)
	}
	if d := treeDiff(outsideTree(t, top), outsideBefore); d != "" {
		t.Errorf("a rename changed files outside the vault:\n%s", d)
	}
}

// heapWatch samples the heap while fn runs and returns the largest
// HeapInuse growth over the start.
func heapWatch(fn func()) (growth uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	peak.Store(base)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	return peak.Load() - base
}

// hostileMemLimit bounds the heap growth of indexing one hostile note.
const hostileMemLimit = 600 << 20

// TestHostileHugeNote indexes a 50 MB note: it is indexed (by name and
// frontmatter) with a warning, memory stays bounded, and reads of it are
// cut to size.
func TestHostileHugeNote(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and indexes a 50 MB note")
	}
	dir := makeVault(t, map[string]string{"Small.md": "# Small\n[[Huge]]\n"})
	var b strings.Builder
	b.WriteString("---\ntags: [big]\n---\n# Huge\n")
	line := "word [[Small]] #tag another line of text with a [link](Small.md) and **bold** and `code`\n"
	for b.Len() < 50<<20 {
		b.WriteString(line)
	}
	write(t, dir, "Huge.md", b.String())
	b.Reset()

	var e *vaultgraph.Engine
	start := time.Now()
	growth := heapWatch(func() {
		e = vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	defer e.Close()
	t.Logf("Open with a 50 MB note: %v, heap growth %d MB", time.Since(start).Round(time.Millisecond), growth>>20)
	if growth > hostileMemLimit {
		t.Errorf("Open with a 50 MB note grew the heap by %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	n, err := e.GetNode(context.Background(), "Huge", false)
	if err != nil || n == nil {
		t.Fatalf("GetNode(Huge) = %v, %v; want the note", n, err)
	}
	if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "byte limit") }) {
		t.Errorf("Huge warnings = %q, want one about its size", n.Warnings)
	}
	if !slices.Contains(n.Tags, "big") {
		t.Errorf("Huge tags = %q, want the frontmatter tag big", n.Tags)
	}
	h := newHostileTools(e)
	growth = heapWatch(func() {
		for _, args := range []map[string]any{
			{"id": "Huge"},
			{"id": "Huge", "depth": 1, "format": "json", "detail": "full"},
			{"id": "Small", "depth": 1, "format": "json"},
			{"id": "Huge", "maxTokens": 50},
		} {
			text, isErr := h.call(t, "get_node", args)
			if isErr || len(text) > 100_000 {
				t.Errorf("get_node(%v) = %d bytes (isError %v), want a note cut to size", args, len(text), isErr)
			}
		}
		if text, isErr := h.call(t, "list_nodes", map[string]any{"format": "json"}); isErr || len(text) > 20_000 {
			t.Errorf("list_nodes = %d bytes (isError %v), want a list cut to size", len(text), isErr)
		}
		if text, isErr := h.call(t, "search", map[string]any{"query": "another line of text", "mode": "keyword"}); isErr {
			t.Errorf("search = %.300q", text)
		}
	})
	t.Logf("reads of the 50 MB note: heap growth %d MB", growth>>20)
	if growth > hostileMemLimit {
		t.Errorf("reads of a 50 MB note grew the heap by %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	// Rewriting it (a rename of the note it links to) is refused or done,
	// never half done, and its bytes are never lost.
	size := fileSize(t, filepath.Join(dir, "Huge.md"))
	if text, isErr := h.call(t, "update_node", map[string]any{"id": "Small", "title": "Small Two"}); isErr {
		t.Logf("rename of a note the huge one links to: %.300s", text)
	}
	if got := fileSize(t, filepath.Join(dir, "Huge.md")); got < size {
		t.Errorf("Huge.md shrank from %d to %d bytes", size, got)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("leftovers %q", l)
	}
}

func fileSize(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestHostileManyLinks: one note with 100,000 links (half to one note,
// half broken) is indexed in bounded time and memory, answers stay small,
// and renaming the target rewrites all 50,000 links in that note.
func TestHostileManyLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes and rewrites 100,000 links")
	}
	var b strings.Builder
	b.WriteString("# Many\n")
	for i := range 50_000 {
		fmt.Fprintf(&b, "[[Target]] [[Missing %d]]\n", i)
	}
	dir := makeVault(t, map[string]string{"Many.md": b.String(), "Target.md": "# Target\n", "Other.md": "[[Many]]\n"})
	var e *vaultgraph.Engine
	start := time.Now()
	growth := heapWatch(func() {
		e = vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	defer e.Close()
	t.Logf("Open with 100,000 links in one note: %v, heap growth %d MB", time.Since(start).Round(time.Millisecond), growth>>20)
	if growth > hostileMemLimit {
		t.Errorf("heap growth %d MB, want under %d MB", growth>>20, hostileMemLimit>>20)
	}
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Links < 100_001 || st.BrokenLinks < 50_000 {
		t.Errorf("vault_status links %d, broken %d; want at least 100,001 and 50,000", st.Links, st.BrokenLinks)
	}
	h := newHostileTools(e)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": "Many", "format": "json", "detail": "full"}},
		{"get_node", map[string]any{"id": "Many", "depth": 1}},
		{"get_node", map[string]any{"id": "Target", "depth": 1, "format": "json"}},
		{"get_neighbors", map[string]any{"id": "Many", "format": "json"}},
		{"list_nodes", map[string]any{"brokenLinks": true}},
		{"get_hubs", map[string]any{"metric": "pagerank"}},
		{"vault_status", map[string]any{"format": "json"}},
		{"get_node", map[string]any{"id": "Many", "format": "json", "detail": "full", "maxTokens": 200}},
	} {
		start := time.Now()
		text, isErr := h.call(t, c.tool, c.args)
		took := time.Since(start)
		t.Logf("%s(%v): %d bytes in %v", c.tool, c.args, len(text), took.Round(time.Millisecond))
		if isErr {
			t.Errorf("%s(%v) = %.300q", c.tool, c.args, text)
		}
		if len(text) > 256<<10 {
			t.Errorf("%s(%v) answers %d bytes, want long lists capped (mcp.MaxListedItems)", c.tool, c.args, len(text))
		}
	}
	if hostileRace() {
		// The rename below takes seconds, minutes under the race
		// detector.
		t.Log("race detector on: the rename of 50,000 links is not run")
	} else {
		start = time.Now()
		text, isErr := h.call(t, "update_node", map[string]any{"id": "Target", "title": "Target Two", "format": "json"})
		took := time.Since(start)
		t.Logf("rename rewriting 50,000 links in one note: %v, answer %d bytes", took.Round(time.Millisecond), len(text))
		if isErr {
			t.Fatalf("rename Target = %.300q", text)
		}
		data, err := os.ReadFile(filepath.Join(dir, "Many.md"))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(data), "[[Target Two]]"); got != 50_000 || strings.Contains(string(data), "[[Target]]") {
			t.Errorf("Many.md holds %d [[Target Two]] links, want 50,000 and no [[Target]]", got)
		}
		if len(text) > 256<<10 {
			t.Errorf("the rename answer is %d bytes, want the link changes capped (mcp.MaxListedItems)", len(text))
		}
	}
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

// yamlBombs are notes whose frontmatter is built to expand exponentially
// through anchors and aliases (billion laughs) or to trap a YAML reader
// otherwise, by name.
func yamlBombs() map[string]string {
	laughs := func(key string) string {
		var b strings.Builder
		b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
		for c := 'b'; c <= 'j'; c++ {
			p := string(c - 1)
			fmt.Fprintf(&b, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
		}
		fmt.Fprintf(&b, "%s: *j\n", key)
		return b.String()
	}
	mapBomb := func() string { // the same with mappings and a merge key
		var b strings.Builder
		b.WriteString("a: &a {x1: lol, x2: lol, x3: lol, x4: lol, x5: lol, x6: lol, x7: lol, x8: lol, x9: lol}\n")
		for c := 'b'; c <= 'j'; c++ {
			p := string(c - 1)
			fmt.Fprintf(&b, "%c: &%c {y1: *%s, y2: *%s, y3: *%s, y4: *%s, y5: *%s, y6: *%s, y7: *%s, y8: *%s, y9: *%s}\n", c, c, p, p, p, p, p, p, p, p, p)
		}
		b.WriteString("k: {<<: *j}\n")
		return b.String()
	}
	// Few aliases of a big anchor: under yaml.v3's excessive-aliasing
	// check (which counts nodes, not bytes), 1 MB x 5,000 = 5 GB.
	bigAnchor := func(key string, size, refs int) string {
		return "a: &a \"" + strings.Repeat("x", size) + "\"\n" + key + ": [" + strings.TrimSuffix(strings.Repeat("*a,", refs), ",") + "]\n"
	}
	// The same in two levels: 64 KB x 100 x 100 = 640 MB.
	twoLevel := "a: &a \"" + strings.Repeat("y", 64<<10) + "\"\nb: &b [" + strings.TrimSuffix(strings.Repeat("*a,", 100), ",") + "]\nc: [" + strings.TrimSuffix(strings.Repeat("*b,", 100), ",") + "]\n"
	return map[string]string{
		"Laughs":       laughs("status"),
		"LaughTags":    laughs("tags"),
		"LaughAliases": laughs("aliases"),
		"LaughLinks":   strings.ReplaceAll(laughs("related"), `"lol"`, `"[[Target]]"`),
		"MergeBomb":    mapBomb(),
		"Recursive":    "a: &a [*a]\nb: &b {x: *b}\n",
		"SelfMerge":    "a: &a\n  <<: *a\n  x: 1\n",
		"BigAnchor":    bigAnchor("b", 1<<20, 5000),
		"BigAnchorTag": bigAnchor("tags", 1<<20, 5000),
		"TwoLevel":     twoLevel,
		"Tagged": "x: !!binary \"" + strings.Repeat("QUFB", 1<<16) + "\"\ny: !!python/object:os.system [\"rm -rf /\"]\nz: !custom {a: 1}\n" +
			"d: 2001-02-30\nn: 1e999999\nh: 0x" + strings.Repeat("f", 10000) + "\n",
		"ManyKeys":  manyKeys(100_000),
		"LongKey":   strings.Repeat("k", 1<<20) + ": v\n",
		"DeepFlow":  "x: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"DeepFlow2": "x: " + strings.Repeat("[", 900) + strings.Repeat("]", 900) + "\n",
		"Documents": "a: 1\n---\nb: 2\n...\n" + strings.Repeat("---\n", 10000),
	}
}

// hostileChildEnv names the case a child test process runs.
const hostileChildEnv = "VAULTGRAPH_HOSTILE_CHILD"

// TestHostileYAMLBombs indexes and reads each YAML bomb in a child
// process whose peak memory is measured (and which is killed past
// hostileKillRSS): each is indexed in bounded time and memory, without
// the bad property or with it unexpanded, and every read answers.
func TestHostileYAMLBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per bomb")
	}
	bombs := yamlBombs()
	for _, name := range slices.Sorted(maps.Keys(bombs)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, peak, took, killed, err := runHostileChild(t, "yaml:"+name, 2*time.Minute)
			t.Logf("%s: peak RSS %d MB, %v", name, peak>>20, took.Round(time.Millisecond))
			if killed != "" {
				t.Fatalf("%s: child killed: %s\n%s", name, killed, hostileClip(out))
			}
			if err != nil {
				t.Fatalf("%s: child failed: %v\n%s", name, err, out)
			}
			if peak > hostileRSSLimit {
				t.Errorf("%s: peak RSS %d MB, want under %d MB", name, peak>>20, hostileRSSLimit>>20)
			}
		})
	}
}

// Memory bounds of a child process: the peak resident size it may reach,
// and the size at which it is killed.
const (
	hostileRSSLimit = 700 << 20
	hostileKillRSS  = 1536 << 20
)

// runHostileChild runs TestHostileChild for the case in a child process,
// killing it past hostileKillRSS or the timeout, and returns its output,
// its peak resident size, how long it ran, why it was killed ("" if not)
// and its exit error.
func runHostileChild(t *testing.T, name string, timeout time.Duration) (out string, peak uint64, took time.Duration, killed string, err error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHostileChild$", "-test.v", "-test.count=1")
	// The child's temporary folders go under this test's, so that a child
	// killed past its memory bound leaves nothing in the system's.
	cmd.Env = append(os.Environ(), hostileChildEnv+"="+name, "TMPDIR="+t.TempDir())
	var buf lockedBytes
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(timeout)
	for {
		select {
		case err = <-done:
			// (Not the rusage of the child: on Linux its maxrss can hold the
			// parent's size from before the exec.)
			return buf.String(), peak, time.Since(start), killed, err
		case <-deadline:
			killed = fmt.Sprintf("still running after %v", timeout)
			_ = cmd.Process.Kill()
		case <-tick.C:
			if rss := processRSS(cmd.Process.Pid); rss > peak { // VmHWM: the peak so far
				peak = rss
				if rss > hostileKillRSS && killed == "" {
					killed = fmt.Sprintf("resident size %d MB, over %d MB", rss>>20, hostileKillRSS>>20)
					_ = cmd.Process.Kill()
				}
			}
		}
	}
}

// processRSS reads the peak resident size of a process so far from /proc
// (0 elsewhere).
func processRSS(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb uint64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb * 1024
		}
	}
	return 0
}

type lockedBytes struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBytes) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBytes) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHostileChild is the child process of runHostileChild; without
// hostileChildEnv it does nothing.
func TestHostileChild(t *testing.T) {
	name := os.Getenv(hostileChildEnv)
	if name == "" {
		t.Skip("only run as a child process of the hostile tests")
	}
	if bomb, ok := strings.CutPrefix(name, "yaml:"); ok {
		yamlBombChild(t, bomb)
		return
	}
	t.Fatalf("unknown child case %q", name)
}

// yamlBombChild indexes one YAML bomb and reads it every way.
func yamlBombChild(t *testing.T, name string) {
	fm, ok := yamlBombs()[name]
	if !ok {
		t.Fatalf("no bomb %q", name)
	}
	id := name + ".md"
	dir := makeVault(t, map[string]string{"Target.md": "# Target\n", id: "---\n" + fm + "---\n[[Target]]\n"})
	start := time.Now()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	t.Logf("Open: %v", time.Since(start).Round(time.Millisecond))
	n, err := e.GetNode(context.Background(), id, false)
	if err != nil || n == nil {
		t.Fatalf("GetNode(%s) = %v, %v; want the note indexed", id, n, err)
	}
	t.Logf("warnings %.300q, %d properties, %d tags, %d aliases", n.Warnings, len(n.Properties), len(n.Tags), len(n.Aliases))
	if !slices.Contains(linkIDs(n.Links), "Target.md") {
		t.Errorf("%s links %v, want the body's link to Target", id, linkIDs(n.Links))
	}
	h := newHostileTools(e)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": id, "format": "json", "detail": "full"}},
		{"get_node", map[string]any{"id": id, "format": "toon", "detail": "full"}},
		{"get_node", map[string]any{"id": id, "format": "markdown", "detail": "full"}},
		{"get_node", map[string]any{"id": id, "detail": "full", "maxTokens": 500}},
		{"list_nodes", map[string]any{"properties": map[string]any{"status": "lol"}, "detail": "full", "format": "json"}},
		{"list_nodes", map[string]any{"detail": "full", "format": "json"}},
		{"list_nodes", map[string]any{"detail": "full"}},
		{"list_tags", map[string]any{"format": "json"}},
		{"search_by_tags", map[string]any{"tags": []string{"lol"}, "detail": "full"}},
		{"search", map[string]any{"query": "lol", "mode": "keyword", "detail": "full"}},
		{"vault_status", map[string]any{"format": "json"}},
		{"get_neighbors", map[string]any{"id": "Target", "detail": "full", "format": "json"}},
		{"get_node", map[string]any{"id": "Target", "depth": 1, "detail": "full"}},
	} {
		if _, ok := c.args["maxTokens"]; ok && hostileRace() {
			continue // slow to trim (a known bug): minutes under the race detector
		}
		start := time.Now()
		text, isErr := h.call(t, c.tool, c.args)
		t.Logf("%s(%.100v): %d bytes in %v", c.tool, c.args, len(text), time.Since(start).Round(time.Millisecond))
		if isErr || len(text) > 4<<20 {
			t.Errorf("%s(%.100v) = %d bytes %q (isError %v)", c.tool, c.args, len(text), hostileClip(text), isErr)
		}
	}
	// Editing the frontmatter never writes the bomb out expanded.
	size := fileSize(t, filepath.Join(dir, id))
	text, isErr := h.call(t, "update_node", map[string]any{"id": id, "tags": []string{"x"}, "properties": map[string]any{"new": 1}})
	if isErr && errorCode(text) != "INVALID_PARAMS" {
		t.Errorf("update_node(%s) = %q, want success or INVALID_PARAMS", id, hostileClip(text))
	}
	if got := fileSize(t, filepath.Join(dir, id)); got > 2*size+1000 {
		t.Errorf("update_node(%s) grew the file from %d to %d bytes: aliases expanded", id, size, got)
	}
	// A rename of the note it links to rewrites only that link.
	if text, isErr := h.call(t, "update_node", map[string]any{"id": "Target", "title": "Target Two"}); isErr {
		t.Errorf("rename Target = %q", hostileClip(text))
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
