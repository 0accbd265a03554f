package vaultgraph_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// Tests of what a rename or move rewrites beyond the graph's notes: links
// in notes excluded by userIgnoreFilters, and file and text nodes of
// .canvas files (JSON Canvas), as Obsidian does.

// Canvas files of canvasVault. The escapes (\u00e9, \/) and the layout
// must survive a rewrite byte for byte.
const (
	boardCanvas = "{\n\t\"nodes\":[\n" +
		"\t\t{\"id\":\"a1\",\"type\":\"file\",\"file\":\"Alpha.md\",\"x\":0,\"y\":0,\"width\":400,\"height\":400},\n" +
		"\t\t{\"id\":\"a2\",\"type\":\"file\",\"file\" : \"Alpha.md\",\"subpath\":\"#Intro\",\"x\":500,\"y\":0,\"width\":400,\"height\":400},\n" +
		"\t\t{\"id\":\"t1\",\"type\":\"text\",\"text\":\"See [[Alpha]] and [[Gamma|g]] \\u00e9t\\u00e9.\\nAlso [x](Alpha.md)\",\"x\":0,\"y\":500,\"width\":250,\"height\":60},\n" +
		"\t\t{\"id\":\"g1\",\"type\":\"file\",\"file\":\"Gamma.md\",\"x\":0,\"y\":900,\"width\":400,\"height\":400}\n" +
		"\t],\n\t\"edges\":[\n" +
		"\t\t{\"id\":\"e1\",\"fromNode\":\"a1\",\"fromSide\":\"right\",\"toNode\":\"g1\",\"toSide\":\"left\"}\n" +
		"\t]\n}"
	subCanvas  = `{"nodes":[{"id":"c","type":"file","file":"Caf\u00e9.md"},{"id":"u","type":"file","file":"Notes\/Uses.md","subpath":"#^blk"},{"id":"l","type":"link","url":"https://example.com/Alpha.md"}],"edges":[]}`
	planCanvas = `{"nodes":[{"id":"p","type":"file","file":"Alpha.md"}],"edges":[]}`
	badCanvas  = `{"nodes":[{"type":"file","file":"Alpha.md"`
)

// canvasVault is a vault with excluded notes (a folder filter and a
// pattern), a trashed note, and canvases that show its notes.
func canvasVault(t *testing.T) string {
	t.Helper()
	return makeVault(t, map[string]string{
		".obsidian/app.json":    `{"userIgnoreFilters":["Templates/","/\\.draft\\.md$/"]}`,
		"Alpha.md":              "# Alpha\n\n## Intro\n",
		"Gamma.md":              "Gamma\n",
		"Café.md":               "Café\n",
		"Notes/Uses.md":         "See [[Alpha]].\n^blk\n",
		"Templates/Daily.md":    "Daily [[Alpha]], [[Gamma|G]] and [a](../Alpha.md).\n",
		"Ideas.draft.md":        "Draft on [[Alpha]].\n",
		".trash/Old.md":         "[[Alpha]]\n",
		"Board.canvas":          boardCanvas,
		"Maps/Sub.canvas":       subCanvas,
		"Templates/Plan.canvas": planCanvas,
		"Bad.canvas":            badCanvas,
	})
}

// wantFiles is before with each file's replacements (old, new, ...) made.
func wantFiles(before map[string]string, edits map[string][]string) map[string]string {
	want := maps.Clone(before)
	for p, rs := range edits {
		want[p] = strings.NewReplacer(rs...).Replace(want[p])
	}
	return want
}

// changedPaths lists the paths of a write's files, sorted.
func changedPaths(res *vaultgraph.WriteResult) []string {
	var out []string
	for _, f := range res.Files {
		out = append(out, f.Action+" "+f.Path)
	}
	slices.Sort(out)
	return out
}

func TestRenameCanvasExcluded(t *testing.T) {
	ctx := context.Background()
	dir := canvasVault(t)
	e := openWriter(t, dir, false)
	// A note added to an excluded folder after Open is found too.
	write(t, dir, "Templates/Later.md", "Later [[Alpha]]\n")
	before := noteFiles(t, dir)
	edits := map[string][]string{
		"Notes/Uses.md":         {"[[Alpha]]", "[[Omega]]"},
		"Templates/Daily.md":    {"[[Alpha]]", "[[Omega]]", "../Alpha.md", "../Omega.md"},
		"Templates/Later.md":    {"[[Alpha]]", "[[Omega]]"},
		"Ideas.draft.md":        {"[[Alpha]]", "[[Omega]]"},
		"Board.canvas":          {`"Alpha.md"`, `"Omega.md"`, "[[Alpha]]", "[[Omega]]", "(Alpha.md)", "(Omega.md)"},
		"Templates/Plan.canvas": {`"Alpha.md"`, `"Omega.md"`},
	}
	want := wantFiles(before, edits)
	want["Omega.md"] = want["Alpha.md"]
	delete(want, "Alpha.md")

	dry, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Alpha", Title: strp("Omega"), DryRun: true})
	if err != nil {
		t.Fatalf("dry run = %v", err)
	}
	if d := treeDiff(noteFiles(t, dir), before); d != "" {
		t.Errorf("the dry run changed files:\n%s", d)
	}
	wantPaths := []string{"move Omega.md", "update Board.canvas", "update Ideas.draft.md", "update Notes/Uses.md",
		"update Templates/Daily.md", "update Templates/Later.md", "update Templates/Plan.canvas"}
	if got := changedPaths(dry); !slices.Equal(got, wantPaths) {
		t.Errorf("dry run files = %q, want %q", got, wantPaths)
	}
	for _, f := range dry.Files {
		if f.Path == "Board.canvas" {
			wantLinks := []vaultgraph.LinkChange{
				{Line: 3, Old: `"Alpha.md"`, New: `"Omega.md"`},
				{Line: 4, Old: `"Alpha.md"`, New: `"Omega.md"`},
				{Line: 5, Old: "[[Alpha]]", New: "[[Omega]]"},
				{Line: 5, Old: "[x](Alpha.md)", New: "[x](Omega.md)"},
			}
			if !slices.Equal(f.Links, wantLinks) {
				t.Errorf("dry run Board.canvas links = %+v, want %+v", f.Links, wantLinks)
			}
		}
	}
	if !slices.ContainsFunc(dry.Warnings, func(w string) bool { return strings.Contains(w, "Bad.canvas") }) {
		t.Errorf("dry run warnings = %q, want one about Bad.canvas (not valid JSON)", dry.Warnings)
	}

	res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Alpha", Title: strp("Omega")})
	if err != nil {
		t.Fatalf("rename = %v", err)
	}
	if d := treeDiff(noteFiles(t, dir), want); d != "" {
		t.Errorf("after the rename:\n%s", d)
	}
	if got := changedPaths(res); !slices.Equal(got, wantPaths) {
		t.Errorf("rename files = %q, want %q", got, wantPaths)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "Bad.canvas") }) {
		t.Errorf("warnings = %q, want one about Bad.canvas", res.Warnings)
	}
	// Excluded notes stay out of the graph.
	for _, id := range []string{"Templates/Daily.md", "Ideas.draft.md", "Templates/Later.md"} {
		if n, err := e.GetNode(ctx, id, false); err != nil || n != nil {
			t.Errorf("GetNode(%s) = %v, %v; want nil (excluded)", id, n, err)
		}
	}
	if n, err := e.GetNode(ctx, "Omega", false); err != nil || n == nil || n.ID != "Omega.md" {
		t.Errorf("GetNode(Omega) = %v, %v", n, err)
	}
}

func TestMoveCanvasExcluded(t *testing.T) {
	ctx := context.Background()
	dir := canvasVault(t)
	e := openWriter(t, dir, false)
	for _, tt := range []struct {
		desc, id, dir string
		edits         map[string][]string
		from, to      string
	}{
		{
			desc: "escaped é", id: "Café", dir: "Archive", from: "Café.md", to: "Archive/Café.md",
			edits: map[string][]string{"Maps/Sub.canvas": {`"Caf\u00e9.md"`, `"Archive/Café.md"`}},
		},
		{
			desc: `escaped \/`, id: "Notes/Uses", dir: "Done", from: "Notes/Uses.md", to: "Done/Uses.md",
			edits: map[string][]string{"Maps/Sub.canvas": {`"Notes\/Uses.md"`, `"Done/Uses.md"`}},
		},
		{
			desc: "excluded relative link", id: "Alpha", dir: "Sub", from: "Alpha.md", to: "Sub/Alpha.md",
			edits: map[string][]string{
				"Templates/Daily.md":    {"../Alpha.md", "../Sub/Alpha.md"},
				"Board.canvas":          {`"Alpha.md"`, `"Sub/Alpha.md"`, "(Alpha.md)", "(Sub/Alpha.md)"},
				"Templates/Plan.canvas": {`"Alpha.md"`, `"Sub/Alpha.md"`},
			},
		},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			before := noteFiles(t, dir)
			want := wantFiles(before, tt.edits)
			want[tt.to] = want[tt.from]
			delete(want, tt.from)
			if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: tt.id, Directory: strp(tt.dir)}); err != nil {
				t.Fatalf("move %s = %v", tt.id, err)
			}
			if d := treeDiff(noteFiles(t, dir), want); d != "" {
				t.Errorf("after the move:\n%s", d)
			}
		})
	}
}

func TestDeleteCanvasWarnings(t *testing.T) {
	ctx := context.Background()
	dir := canvasVault(t)
	e := openWriter(t, dir, false)
	res, err := e.DeleteNode(ctx, "Alpha", "")
	if err != nil {
		t.Fatalf("delete = %v", err)
	}
	for _, want := range []string{
		"Board.canvas shows this note",
		"Templates/Plan.canvas shows this note",
		"now a broken link: [[Alpha]] in Templates/Daily.md (line 1)",
		"now a broken link: (../Alpha.md) in Templates/Daily.md (line 1)",
		"now a broken link: [[Alpha]] in Ideas.draft.md (line 1)",
	} {
		if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
			t.Errorf("delete warnings = %q, want one with %q", res.Warnings, want)
		}
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, ".trash") || strings.Contains(w, "Maps/Sub.canvas") {
			t.Errorf("delete warning %q names a file that does not show Alpha", w)
		}
	}
}

func TestRenameCanvasConflict(t *testing.T) {
	ctx := context.Background()
	dir := canvasVault(t)
	e := openWriter(t, dir, false)
	before := noteFiles(t, dir)
	edited := strings.Replace(planCanvas, `"p"`, `"q"`, 1)
	e.SetCommitFailAt(func(step string, n int) error {
		if step == "create" && n == 1 { // the new versions are being written
			write(t, dir, "Templates/Plan.canvas", edited)
		}
		return nil
	})
	_, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Alpha", Title: strp("Omega")})
	e.SetCommitFailAt(nil)
	if !errors.Is(err, vaultgraph.ErrConflict) || !strings.Contains(err.Error(), "Templates/Plan.canvas") {
		t.Fatalf("rename while a canvas is edited = %v, want ErrConflict naming Templates/Plan.canvas", err)
	}
	want := maps.Clone(before)
	want["Templates/Plan.canvas"] = edited
	if d := treeDiff(noteFiles(t, dir), want); d != "" {
		t.Errorf("after the refused rename:\n%s", d)
	}
	if got := leftovers(t, dir); len(got) > 0 {
		t.Errorf("leftovers = %q", got)
	}
}

// TestRenameCanvasTextEscapes checks that a link in a text node written
// with JSON escapes is rewritten, and the escapes around it are kept.
func TestRenameCanvasTextEscapes(t *testing.T) {
	ctx := context.Background()
	canvas := `{"nodes":[{"type":"file","file":"Alpha.md"},{"type":"text","text":"\u00e9 [[Alph\u0061|\u00e9]] \ud83d\ude00 [[Alpha]]\t"}]}`
	dir := makeVault(t, map[string]string{"Alpha.md": "A\n", "Board.canvas": canvas})
	e := openWriter(t, dir, false)
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Alpha", Title: strp("Omega")}); err != nil {
		t.Fatalf("rename = %v", err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "Board.canvas"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"nodes":[{"type":"file","file":"Omega.md"},{"type":"text","text":"\u00e9 [[Omega|\u00e9]] \ud83d\ude00 [[Omega]]\t"}]}`
	if string(got) != want {
		t.Errorf("Board.canvas = %s, want %s", got, want)
	}
}

// TestRenameExcludedLater checks that excluded notes the engine's last
// scan did not see are found too: in an excluded folder made since, one
// reported to Sync, and with an engine that trusted its index on Open.
func TestRenameExcludedLater(t *testing.T) {
	ctx := context.Background()
	dir := makeVault(t, map[string]string{
		".obsidian/app.json": `{"userIgnoreFilters":["Later/","/\\.draft\\.md$/"]}`,
		"Alpha.md":           "A\n",
		"Beta.md":            "B\n",
	})
	index := filepath.Join(t.TempDir(), "index.db")
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	write(t, dir, "Later/Sub/New.md", "[[Alpha]] [[Beta]]\n")
	write(t, dir, "Notes/Idea.draft.md", "[[Alpha]] [[Beta]]\n")
	if err := e.Sync(ctx, "Notes/Idea.draft.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Alpha", Title: strp("Omega")}); err != nil {
		t.Fatalf("rename = %v", err)
	}
	want := "[[Omega]] [[Beta]]\n"
	files := noteFiles(t, dir)
	for _, p := range []string{"Later/Sub/New.md", "Notes/Idea.draft.md"} {
		if files[p] != want {
			t.Errorf("%s = %q, want %q", p, files[p], want)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	// A reader that trusts the index (a CLI command while a server runs)
	// scans for excluded notes when it renames.
	e2 := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index, TrustIndex: true})
	if err := e2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e2.Close() })
	if _, err := e2.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Beta", Title: strp("Gamma")}); err != nil {
		t.Fatalf("rename = %v", err)
	}
	want = "[[Omega]] [[Gamma]]\n"
	files = noteFiles(t, dir)
	for _, p := range []string{"Later/Sub/New.md", "Notes/Idea.draft.md"} {
		if files[p] != want {
			t.Errorf("after the trusting rename, %s = %q, want %q", p, files[p], want)
		}
	}
}

// TestRenameExcludedCache checks that a rename parses only the excluded
// notes that changed since the last rename, and still finds a link added
// to one of them.
func TestRenameExcludedCache(t *testing.T) {
	ctx := context.Background()
	dir := makeVault(t, map[string]string{
		".obsidian/app.json": `{"userIgnoreFilters":["Templates/"]}`,
		"Alpha.md":           "A\n",
		"Other.md":           "O\n",
		"Gamma.md":           "G\n",
		"Templates/A.md":     "[[Alpha]]\n",
		"Templates/B.md":     "[[Other]]\n",
		"Templates/C.md":     "no links\n",
	})
	e := openWriter(t, dir, false)
	for _, tt := range []struct {
		id, title  string
		wantParses int // excluded notes parsed by this rename
		path, want string
	}{
		{"Alpha", "Omega", 3, "Templates/A.md", "[[Omega]]\n"},
		{"Other", "Other2", 1, "Templates/B.md", "[[Other2]]\n"}, // A changed
		{"Gamma", "Gamma2", 1, "Templates/C.md", "no links\n"},   // B changed
		{"Gamma2", "Gamma3", 0, "Templates/C.md", "no links\n"},
	} {
		before := e.ExcludedParses()
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: tt.id, Title: strp(tt.title)}); err != nil {
			t.Fatalf("rename %s = %v", tt.id, err)
		}
		if got := e.ExcludedParses() - before; got != tt.wantParses {
			t.Errorf("rename %s parsed %d excluded notes, want %d", tt.id, got, tt.wantParses)
		}
		if got := noteFiles(t, dir)[tt.path]; got != tt.want {
			t.Errorf("after renaming %s, %s = %q, want %q", tt.id, tt.path, got, tt.want)
		}
	}
	// A link added to an excluded note is seen (its size and time changed).
	write(t, dir, "Templates/C.md", "now [[Gamma3]]\n")
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Gamma3", Title: strp("Gamma4")}); err != nil {
		t.Fatal(err)
	}
	if got := noteFiles(t, dir)["Templates/C.md"]; got != "now [[Gamma4]]\n" {
		t.Errorf("Templates/C.md = %q, want the new link rewritten", got)
	}
}
