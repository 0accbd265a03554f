package main

// Tests of the write commands (create-node, update-node, delete-node) on
// a copy of testvault, and of the write tools through `vaultgraph serve`
// (helpers called from serve_test.go).

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// writeEnv is a copy of testvault with its own index, for commands that
// write.
type writeEnv struct {
	dir   string
	index string
	stdin io.Reader // what the commands read as standard input
}

func newWriteEnv(t *testing.T) *writeEnv {
	t.Helper()
	return &writeEnv{dir: copyVault(t), index: filepath.Join(t.TempDir(), "index.db")}
}

// run runs a command line on the copy.
func (w *writeEnv) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runWith(context.Background(), append([]string{"--vault", w.dir, "--index", w.index}, args...), runOptions{stdin: w.stdin}, &out, &errOut)
	return out.String(), errOut.String(), code
}

// ok runs a command line that must succeed quietly and returns stdout.
func (w *writeEnv) ok(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := w.run(t, args...)
	if code != 0 || errOut != "" {
		t.Fatalf("vaultgraph %q = exit %d, stderr %q, want 0 and nothing", args, code, errOut)
	}
	return out
}

// fail runs a command line that must fail with code on stderr, nothing on
// stdout and exit status 1; it returns stderr.
func (w *writeEnv) fail(t *testing.T, code string, args ...string) string {
	t.Helper()
	out, errOut, status := w.run(t, args...)
	if status != 1 || out != "" || !strings.HasPrefix(errOut, "vaultgraph: "+code+": ") {
		t.Errorf("vaultgraph %q = exit %d, stdout %q, stderr %q, want 1, nothing, \"vaultgraph: %s: ...\"", args, status, out, errOut, code)
	}
	return errOut
}

// file reads a file of the copy, "" when it is missing.
func (w *writeEnv) file(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(rel)))
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// snapshot is testutil.Files: every file under dir (slash path ->
// content); symlinks are not followed.
func snapshot(t testing.TB, dir string) map[string]string { return testutil.Files(t, dir) }

// changed is testutil.Changed: the files added (+), removed (-) or
// changed (~) from a to b, sorted.
func changed(a, b map[string]string) []string { return testutil.Changed(a, b) }

// withStdin makes w's commands read s as standard input.
func (w *writeEnv) withStdin(s string) {
	w.stdin = strings.NewReader(s)
}

// written is a write command's answer (format json).
type written struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Hash    string `json:"hash"`
	Deleted *bool  `json:"deleted"`
	DryRun  bool   `json:"dryRun"`
	Files   []struct {
		Path   string `json:"path"`
		Action string `json:"action"`
		From   string `json:"from"`
		Links  int    `json:"links"`
	} `json:"files"`
	Links []struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Old  string `json:"old"`
		New  string `json:"new"`
	} `json:"links"`
	Warnings []string `json:"warnings"`
}

// hashOf returns a note's hash as get-node reports it.
func (w *writeEnv) hashOf(t *testing.T, id string) string {
	t.Helper()
	var n struct {
		Hash string `json:"hash"`
	}
	if err := json.Unmarshal([]byte(w.ok(t, "get-node", id, "--detail", "full", "--format", "json")), &n); err != nil || n.Hash == "" {
		t.Fatalf("get-node %s has no hash: %v", id, err)
	}
	return n.Hash
}

func TestCreateNodeCommand(t *testing.T) {
	w := newWriteEnv(t)
	w.withStdin("Body from stdin, see [[Home]].\n")
	out := w.ok(t, "create-node", "Plan: Q3?", "--content", "-", "--tags", "plan,q3", "--directory", "Inbox",
		"--property", "status=draft", "--property", "priority=2", "--property", `owners=["a","b"]`, "--property", "due=2026-12-01",
		"--format", "json")
	got := decode[written](t, out)
	if got.ID != "Inbox/Plan Q3.md" || got.Title != "Plan: Q3?" || got.Hash == "" || len(got.Files) != 1 || got.Files[0].Action != "create" {
		t.Errorf("create-node = %+v, want Inbox/Plan Q3.md titled \"Plan: Q3?\", one file created", got)
	}
	src := w.file(t, "Inbox/Plan Q3.md")
	for _, want := range []string{`title: "Plan: Q3?"`, "status: draft\n", "priority: 2\n", "owners:\n  - a\n  - b\n", "due: 2026-12-01\n", "  - plan\n  - q3\n", "---\nBody from stdin, see [[Home]].\n"} {
		if !strings.Contains(src, want) {
			t.Errorf("Inbox/Plan Q3.md = %q, want %q in it", src, want)
		}
	}
	n := decode[node](t, w.ok(t, "get-node", "plan q3", "--detail", "full", "--format", "json"))
	if n.ID != "Inbox/Plan Q3.md" || n.Title != "Plan: Q3?" || !slices.Equal(n.Tags, []string{"plan", "q3"}) || len(n.Links) != 1 || n.Links[0].ID != "Home.md" {
		t.Errorf("get-node after create-node = %+v", n)
	}

	// --title instead of the argument; the default format is TOON.
	out = w.ok(t, "create-node", "--title", "Second", "--content", "Plain text.")
	if !strings.HasPrefix(out, "id: Second.md\ntitle: Second\nhash: ") || !strings.Contains(out, "files[1]{path,action,from,links}:\n  Second.md,create,\"\",0\n") {
		t.Errorf("create-node --title Second = %q, want a TOON answer", out)
	}
	if got := w.file(t, "Second.md"); got != "Plain text.\n" {
		t.Errorf("Second.md = %q, want the content and a final newline", got)
	}
	out = w.ok(t, "create-node", "Third", "--format", "markdown")
	if !strings.HasPrefix(out, "id: Third.md\ntitle: Third\n") || !strings.Contains(out, "- path: Third.md; action: create;") {
		t.Errorf("create-node --format markdown = %q", out)
	}

	before := snapshot(t, w.dir)
	w.fail(t, "NODE_EXISTS", "create-node", "Plan: Q3?", "--directory", "Inbox")
	w.fail(t, "NODE_EXISTS", "create-node", "home")
	w.fail(t, "INVALID_PARAMS", "create-node")
	w.fail(t, "INVALID_PARAMS", "create-node", "A", "--title", "B")
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--property", "status")
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--property", "=x")
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--format", "yaml")
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--directory", "../outside")
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--directory", `C:\x`)
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--directory", ".obsidian")
	w.fail(t, "INVALID_PARAMS", "create-node", "Bad", "--detail", "full") // not a flag of a write
	if _, errOut, code := w.run(t, "create-node", "A", "B"); code != 1 || !strings.Contains(errOut, "INVALID_PARAMS") {
		t.Logf("KNOWN BUG (write.go: cobra.MaximumNArgs is not INVALID_PARAMS): create-node A B = exit %d, stderr %q", code, errOut)
	}
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Errorf("refused commands changed %q", got)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(w.dir), "outside")); err == nil {
		t.Errorf("create-node --directory ../outside wrote beside the vault")
	}
}

func TestUpdateNodeCommand(t *testing.T) {
	w := newWriteEnv(t)
	before := snapshot(t, w.dir)

	out := w.ok(t, "update-node", "Beta", "--title", "Gamma", "--dry-run")
	if !strings.HasPrefix(out, "dryRun: true\nfiles[4]{path,action,from,links}:\n  Projects/Gamma.md,move,Projects/Beta.md,0\n") ||
		!strings.Contains(out, "links[5]{path,line,old,new}:\n  Home.md,12,\"[[Beta#Goals]]\",\"[[Gamma#Goals]]\"\n") {
		t.Errorf("update-node --dry-run =\n%s\nwant the files and links tables", out)
	}
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Errorf("--dry-run changed %q", got)
	}

	got := decode[written](t, w.ok(t, "update-node", "Beta", "--title", "Gamma", "--format", "json"))
	if got.ID != "Projects/Gamma.md" || len(got.Files) != 4 || len(got.Links) != 5 || got.DryRun {
		t.Errorf("update-node --title = %+v, want Projects/Gamma.md with 4 files and 5 links", got)
	}
	after := snapshot(t, w.dir)
	for _, p := range []string{"Home.md", "Notes/Meeting Notes.md", "Projects/Alpha Plan.md"} {
		if want := strings.ReplaceAll(before[p], "[[Beta", "[[Gamma"); after[p] != want {
			t.Errorf("%s =\n%s\nwant\n%s", p, after[p], want)
		}
	}
	if after["Projects/Gamma.md"] != before["Projects/Beta.md"] || after["Projects/Beta.md"] != "" {
		t.Errorf("Projects/Gamma.md = %q, Beta.md = %q, want Beta's bytes moved", after["Projects/Gamma.md"], after["Projects/Beta.md"])
	}

	// A move: the bare links to Gamma (a unique name) stay as they are; the
	// note's own bare links to Alpha Plan meant the one beside it, which
	// from Archive/ they would no longer reach, so they gain its path.
	out = w.ok(t, "update-node", "Gamma", "--directory", "Archive")
	if want := "files[1]{path,action,from,links}:\n  Archive/Gamma.md,move,Projects/Gamma.md,2\n" +
		"links[2]{path,line,old,new}:\n" +
		"  Archive/Gamma.md,14,\"[[Alpha Plan\\\\|AP]]\",\"[[Projects/Alpha Plan\\\\|AP]]\"\n" +
		"  Archive/Gamma.md,17,\"[[Alpha Plan#Risks#Budget]]\",\"[[Projects/Alpha Plan#Risks#Budget]]\"\n" +
		// Alpha Plan has "## Risks" but no heading "Budget" (a broken anchor).
		"warnings[1]: \"broken anchor [[Projects/Alpha Plan#Risks#Budget]] on line 17: Alpha Plan has no heading \\\"Budget\\\" below \\\"Risks\\\"\"\n"; !strings.HasPrefix(out, "id: Archive/Gamma.md\n") || !strings.HasSuffix(out, want) {
		t.Errorf("update-node --directory Archive =\n%s\nwant it to end\n%s", out, want)
	}
	if now := w.file(t, "Home.md"); now != after["Home.md"] {
		t.Errorf("Home.md changed by a move that needs no rewrite there:\n%s", now)
	}
	if now, want := w.file(t, "Archive/Gamma.md"), strings.NewReplacer("[[Alpha Plan\\|AP]]", "[[Projects/Alpha Plan\\|AP]]", "[[Alpha Plan#Risks", "[[Projects/Alpha Plan#Risks").Replace(after["Projects/Gamma.md"]); now != want {
		t.Errorf("Archive/Gamma.md =\n%s\nwant\n%s", now, want)
	}
	// And back to the root with --directory /.
	w.ok(t, "update-node", "Archive/Gamma", "--directory", "/")
	if w.file(t, "Gamma.md") == "" {
		t.Errorf("update-node --directory / did not move the note to the root")
	}

	// --if-match with the hash a read returned, then with a stale one.
	h := w.hashOf(t, "Orphan")
	w.withStdin("# Orphan\n\nFrom stdin.\n")
	out = w.ok(t, "update-node", "Orphan", "--content", "-", "--if-match", h, "--format", "markdown")
	if !strings.HasPrefix(out, "id: Orphan.md\ntitle: Orphan\n") || strings.Contains(out, "hash: "+h) {
		t.Errorf("update-node --if-match = %q, want the new hash", out)
	}
	if got := w.file(t, "Orphan.md"); got != "# Orphan\n\nFrom stdin.\n" {
		t.Errorf("Orphan.md = %q, want the content from stdin", got)
	}
	errOut := w.fail(t, "CONFLICT", "update-node", "Orphan", "--content", "lost", "--if-match", h)
	if !strings.Contains(errOut, "Orphan.md") || w.file(t, "Orphan.md") != "# Orphan\n\nFrom stdin.\n" {
		t.Errorf("stale --if-match: stderr %q, file %q, want a conflict and the file unchanged", errOut, w.file(t, "Orphan.md"))
	}

	// --property merges (null removes), --tags replaces.
	w.ok(t, "update-node", "Tagged", "--property", "status=done", "--property", "rank=3", "--tags", "a,b")
	w.ok(t, "update-node", "Tagged", "--property", "rank=null")
	src := w.file(t, "Tagged.md")
	if !strings.Contains(src, "status: done\n") || strings.Contains(src, "rank:") || !strings.Contains(src, "  - a\n  - b\n") || !strings.Contains(src, "title: Tag Examples\n") {
		t.Errorf("Tagged.md =\n%s\nwant status done, no rank, tags a and b, its title kept", src)
	}
	n := decode[node](t, w.ok(t, "get-node", "Tagged", "--format", "json"))
	if !slices.Contains(n.Tags, "a") || slices.Contains(n.Tags, "ideas") {
		t.Errorf("tags after --tags a,b = %q", n.Tags)
	}

	before = snapshot(t, w.dir)
	w.fail(t, "NODE_NOT_FOUND", "update-node", "No Such Note", "--title", "X")
	w.fail(t, "NODE_NOT_FOUND", "update-node", "Beta", "--content", "x") // renamed above
	w.fail(t, "NODE_EXISTS", "update-node", "Gamma", "--title", "Home")
	w.fail(t, "INVALID_PARAMS", "update-node", "Home")
	w.fail(t, "INVALID_PARAMS", "update-node")
	w.fail(t, "INVALID_PARAMS", "update-node", "Home", "Gamma", "--content", "x")
	w.fail(t, "INVALID_PARAMS", "update-node", "Home", "--dry-run=maybe")
	w.fail(t, "INVALID_PARAMS", "update-node", "Home", "--title", "")
	w.fail(t, "INVALID_PARAMS", "update-node", "Home", "--directory", "../up")
	w.fail(t, "INVALID_PARAMS", "update-node", "../Home", "--content", "x")
	w.fail(t, "INVALID_PARAMS", "update-node", "Home", "--property", "novalue")
	w.fail(t, "CONFLICT", "update-node", "Home", "--content", "x", "--if-match", "0000000000000000")
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Errorf("refused commands changed %q", got)
	}
}

func TestDeleteNodeCommand(t *testing.T) {
	w := newWriteEnv(t)
	before := snapshot(t, w.dir)
	w.fail(t, "CONFLICT", "delete-node", "Beta", "--if-match", "0000000000000000")
	w.fail(t, "INVALID_PARAMS", "delete-node")
	w.fail(t, "INVALID_PARAMS", "delete-node", "../Home")
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Fatalf("refused deletes changed %q", got)
	}

	got := decode[written](t, w.ok(t, "delete-node", "Beta", "--if-match", w.hashOf(t, "Beta"), "--format", "json"))
	if got.Deleted == nil || !*got.Deleted || len(got.Files) != 1 || got.Files[0].Path != "Projects/Beta.md" || got.Files[0].Action != "delete" {
		t.Errorf("delete-node = %+v, want Projects/Beta.md deleted", got)
	}
	if len(got.Warnings) != 5 || !strings.Contains(got.Warnings[0], "broken link") || !strings.Contains(got.Warnings[0], "Home.md") {
		t.Errorf("warnings = %q, want the 5 links to Beta, now broken", got.Warnings)
	}
	if got := changed(before, snapshot(t, w.dir)); !slices.Equal(got, []string{"-Projects/Beta.md"}) {
		t.Errorf("delete-node changed %q, want only -Projects/Beta.md (links are never rewritten)", got)
	}
	if out := w.ok(t, "get-node", "Beta"); out != "warning: no note matches \"Beta\"\n" {
		t.Errorf("get-node Beta after the delete = %q, want a warning that no note matches", out)
	}

	if out := w.ok(t, "delete-node", "Beta"); out != "deleted: false\nfiles: []\nwarnings[1]: \"no note matches \\\"Beta\\\"\"\n" {
		t.Errorf("delete-node of a missing note = %q, want deleted: false", out)
	}
	if out := w.ok(t, "delete-node", "Orphan", "--format", "markdown"); !strings.HasPrefix(out, "deleted: true\nfiles:\n- path: Orphan.md; action: delete;") {
		t.Errorf("delete-node --format markdown = %q", out)
	}
}

// refuseWrites calls every write tool on a `serve --read-only` server:
// each call is an error (unknown tool, or READ_ONLY) and the vault stays
// as it was.
func refuseWrites(t *testing.T, c *client.Client, vaultDir string) {
	t.Helper()
	before := snapshot(t, vaultDir)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"create_node", map[string]any{"title": "Sneaky"}},
		{"update_node", map[string]any{"id": "Home", "content": "gone"}},
		{"update_node", map[string]any{"id": "Beta", "title": "Gamma"}},
		{"delete_node", map[string]any{"id": "Home"}},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		req := mcpgo.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = tc.tool, tc.args
		res, err := c.CallTool(ctx, req)
		cancel()
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), tc.tool) && !strings.Contains(strings.ToLower(err.Error()), "not found") {
				t.Errorf("%s on a read-only server: error %v, want it to say the tool is unknown", tc.tool, err)
			}
		case !res.IsError:
			t.Errorf("%s(%v) on a read-only server succeeded: %+v", tc.tool, tc.args, res.Content)
		default:
			if text, _ := mcpgo.AsTextContent(res.Content[0]); text == nil || !strings.HasPrefix(text.Text, "READ_ONLY: ") {
				t.Errorf("%s on a read-only server = %+v, want READ_ONLY", tc.tool, res.Content)
			}
		}
	}
	if got := changed(before, snapshot(t, vaultDir)); got != nil {
		t.Errorf("a read-only server changed %q", got)
	}
}

// writeAll makes the write calls on a served copy of testvault, reading
// the files back, and leaves 13 notes (checkIndex then checks that the
// index saved them).
func writeAll(t *testing.T, c *client.Client, vaultDir string) {
	t.Helper()
	before := snapshot(t, vaultDir)
	want := func(desc, tool string, args map[string]any, wantText string, wantErr bool) string {
		t.Helper()
		text, isErr := call(t, c, tool, args)
		if isErr != wantErr || !strings.Contains(text, wantText) {
			t.Errorf("%s: %s(%v) = %.300q (isError %v), want %q (isError %v)", desc, tool, args, text, isErr, wantText, wantErr)
		}
		return text
	}
	want("create", "create_node", map[string]any{"title": "Served Note", "directory": "Inbox", "content": "Links to [[Home]].\n", "tags": []string{"served"}, "format": "json"},
		`{"id":"Inbox/Served Note.md","title":"Served Note","hash":"`, false)
	want("read at once", "get_node", map[string]any{"id": "served note", "format": "json", "detail": "full"}, `"links":[{"id":"Home.md","title":"Home"}]`, false)
	want("tag at once", "search_by_tags", map[string]any{"tags": []string{"served"}, "format": "json"}, `"total":1`, false)
	want("create twice", "create_node", map[string]any{"title": "Served Note", "directory": "Inbox"}, "NODE_EXISTS: ", true)
	if src := readFile(t, vaultDir, "Inbox/Served Note.md"); !strings.HasSuffix(src, "---\nLinks to [[Home]].\n") || !strings.Contains(src, "- served") {
		t.Errorf("Inbox/Served Note.md = %q", src)
	}

	want("dry run", "update_node", map[string]any{"id": "Beta", "title": "Gamma", "dryRun": true}, "dryRun: true\nfiles[4]", false)
	if got := changed(before, snapshot(t, vaultDir)); !slices.Equal(got, []string{"+Inbox/Served Note.md"}) {
		t.Errorf("after a dry run the vault changed %q", got)
	}
	want("rename", "update_node", map[string]any{"id": "Beta", "title": "Gamma", "format": "json"},
		`{"path":"Projects/Alpha Plan.md","line":18,"old":"[[Beta#Goals|Beta's goals]]","new":"[[Gamma#Goals|Beta's goals]]"}`, false)
	for _, p := range []string{"Home.md", "Notes/Meeting Notes.md", "Projects/Alpha Plan.md"} {
		if got, want := readFile(t, vaultDir, p), strings.ReplaceAll(before[p], "[[Beta", "[[Gamma"); got != want {
			t.Errorf("%s after the rename =\n%s\nwant\n%s", p, got, want)
		}
	}
	want("renamed note linked", "get_node", map[string]any{"id": "Gamma", "depth": 1, "format": "json"}, `"incomingCount":3,`, false)
	want("old name gone", "get_node", map[string]any{"id": "Beta"}, `no note matches "Beta"`, false)
	want("stale ifMatch", "update_node", map[string]any{"id": "Gamma", "content": "x", "ifMatch": "0000000000000000"}, "CONFLICT: ", true)
	want("missing note", "update_node", map[string]any{"id": "Beta", "content": "x"}, "NODE_NOT_FOUND: ", true)
	want("traversal", "create_node", map[string]any{"title": "Out", "directory": "../.."}, "INVALID_PARAMS: ", true)
	want("traversal by move", "update_node", map[string]any{"id": "Gamma", "directory": "../x"}, "INVALID_PARAMS: ", true)
	if _, err := os.Stat(filepath.Join(filepath.Dir(vaultDir), "x")); err == nil {
		t.Errorf("a note was moved out of the vault")
	}

	want("delete", "delete_node", map[string]any{"id": "Inbox/Served Note"}, "deleted: true\n", false)
	want("delete again", "delete_node", map[string]any{"id": "Inbox/Served Note", "format": "json"}, `{"deleted":false,"files":[],"warnings":["no note matches \"Inbox/Served Note\""]}`, false)
	want("deleted at once", "get_node", map[string]any{"id": "Served Note"}, `no note matches "Served Note"`, false)
	want("13 notes", "vault_status", map[string]any{"format": "json"}, `"notes":13,"links":30,"brokenLinks":2,`, false)
}

// createThenDelete writes a note through a server whose watcher runs, and
// deletes it: each is visible at once, and the note count moves by one.
func createThenDelete(t *testing.T, c *client.Client, vaultDir string) {
	t.Helper()
	status := func() int {
		text, _ := call(t, c, "vault_status", map[string]any{"format": "json"})
		var s struct {
			Notes int `json:"notes"`
		}
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			t.Fatalf("vault_status = %s: %v", text, err)
		}
		return s.Notes
	}
	notes := status()
	text, isErr := call(t, c, "create_node", map[string]any{"title": "Over HTTP", "content": "[[Home]]", "format": "json"})
	if isErr || !strings.Contains(text, `"id":"Over HTTP.md"`) {
		t.Fatalf("create_node = %s", text)
	}
	if text, _ := call(t, c, "get_node", map[string]any{"id": "Over HTTP", "format": "json"}); !strings.Contains(text, `"id":"Over HTTP.md"`) {
		t.Errorf("get_node right after create_node = %.200s", text)
	}
	if n := status(); n != notes+1 {
		t.Errorf("notes after create_node = %d, want %d", n, notes+1)
	}
	if readFile(t, vaultDir, "Over HTTP.md") != "[[Home]]\n" {
		t.Errorf("Over HTTP.md = %q", readFile(t, vaultDir, "Over HTTP.md"))
	}
	if text, isErr := call(t, c, "delete_node", map[string]any{"id": "Over HTTP"}); isErr || !strings.HasPrefix(text, "deleted: true") {
		t.Errorf("delete_node = %s", text)
	}
	if n := status(); n != notes {
		t.Errorf("notes after delete_node = %d, want %d", n, notes)
	}
}

// readFile reads a vault file, "" when it is missing.
func readFile(t *testing.T, vaultDir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vaultDir, filepath.FromSlash(rel)))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}
