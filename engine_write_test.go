package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// Helpers shared by the write tests (this file, engine_rename_test.go).

// openWriter opens a writable engine on dir (index in a temporary folder)
// with extra options, and closes it when the test ends.
func openWriter(t testing.TB, dir string, readOnly bool) *vaultgraph.Engine {
	t.Helper()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db"), ReadOnly: readOnly})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// openMemWriter opens a writable engine on dir with no index file (all
// in memory): for the tests that make many writes, where the SQLite index
// (pure Go, slow under the race detector) is not what they check.
func openMemWriter(t testing.TB, dir string) *vaultgraph.Engine {
	t.Helper()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// noteFiles is fileTree without folders, modes and what vaultgraph keeps
// for itself (.vaultgraph/): the files of the vault as a user sees them.
func noteFiles(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, v := range fileTree(t, root) {
		if v == "<dir>" || strings.HasPrefix(k, "<mode> ") || strings.HasPrefix(k, vaultgraph.IndexDir+"/") {
			continue
		}
		out[k] = v
	}
	return out
}

// clip is testutil.Clip.
func clip(s string) string { return testutil.Clip(s) }

// leftovers lists the temporary and backup files of the writer under root.
func leftovers(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	for k := range fileTree(t, root) {
		base := filepath.Base(k)
		if strings.HasPrefix(base, commit.TempPrefix) || strings.HasPrefix(base, commit.BackupPrefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func strp(s string) *string { return &s }

// The tests of CreateNode.

func TestCreateNode(t *testing.T) {
	tests := []struct {
		desc      string
		give      vaultgraph.NewNote
		wantID    string
		wantTitle string
		wantFile  string
		wantTags  []string
	}{
		{
			desc:      "plain title and content",
			give:      vaultgraph.NewNote{Title: "Plain Note", Content: "# Plain Note\n\nBody text.\n"},
			wantID:    "Plain Note.md",
			wantTitle: "Plain Note",
			wantFile:  "# Plain Note\n\nBody text.\n",
			wantTags:  []string{},
		},
		{
			desc: "tags and properties go into the frontmatter",
			give: vaultgraph.NewNote{
				Title: "Plan", Content: "# Plan\n\nBody.\n", Tags: []string{"project", "#alpha", " ", "nested/tag"},
				Properties: []vault.Property{{Key: "status", Value: "active"}, {Key: "priority", Value: 2}},
			},
			wantID:    "Plan.md",
			wantTitle: "Plan",
			wantFile:  "---\nstatus: active\npriority: 2\ntags:\n  - project\n  - alpha\n  - nested/tag\n---\n# Plan\n\nBody.\n",
			wantTags:  []string{"project", "alpha", "nested/tag"},
		},
		{
			desc:      "forbidden characters are removed; the title is kept in the frontmatter",
			give:      vaultgraph.NewNote{Title: `What: a "plan"? #1 [draft] a|b <c> d*e ^f \g`, Content: "x\n"},
			wantID:    "What a plan 1 draft ab c de f g.md",
			wantTitle: `What: a "plan"? #1 [draft] a|b <c> d*e ^f \g`,
			wantFile:  "---\ntitle: \"What: a \\\"plan\\\"? #1 [draft] a|b <c> d*e ^f \\\\g\"\n---\nx\n",
			wantTags:  []string{},
		},
		{
			desc:      "a slash in the title does not make a folder",
			give:      vaultgraph.NewNote{Title: "Either/Or", Content: "x\n"},
			wantID:    "EitherOr.md",
			wantTitle: "Either/Or",
			wantFile:  "---\ntitle: Either/Or\n---\nx\n",
			wantTags:  []string{},
		},
		{
			desc:      "words, case and unicode are kept",
			give:      vaultgraph.NewNote{Title: "  東京 Café  ideas ", Content: "x"},
			wantID:    "東京 Café ideas.md",
			wantTitle: "東京 Café  ideas",
			wantFile:  "---\ntitle: 東京 Café  ideas\n---\nx\n", // a final newline added
			wantTags:  []string{},
		},
		{
			desc:      "an emoji title that is its own file name",
			give:      vaultgraph.NewNote{Title: "Ideas 🚀", Content: "x\n"},
			wantID:    "Ideas 🚀.md",
			wantTitle: "Ideas 🚀",
			wantFile:  "x\n",
			wantTags:  []string{},
		},
		{
			desc:      "missing folders are created",
			give:      vaultgraph.NewNote{Title: "Deep", Content: "x\n", Directory: "New/Deeper/Deepest"},
			wantID:    "New/Deeper/Deepest/Deep.md",
			wantTitle: "Deep",
			wantFile:  "x\n",
			wantTags:  []string{},
		},
		{
			desc:      "an existing folder, with a trailing slash",
			give:      vaultgraph.NewNote{Title: "In Projects", Content: "x\n", Directory: "Projects/"},
			wantID:    "Projects/In Projects.md",
			wantTitle: "In Projects",
			wantFile:  "x\n",
			wantTags:  []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := copyTestVault(t)
			before := fileTree(t, dir)
			e := openWriter(t, dir, false)
			ctx := context.Background()
			res, err := e.CreateNode(ctx, tt.give)
			if err != nil {
				t.Fatalf("CreateNode(%+v) = %v", tt.give, err)
			}
			if res.Node == nil || res.Node.ID != tt.wantID {
				t.Fatalf("CreateNode(%+v).Node = %+v, want ID %q", tt.give, res.Node, tt.wantID)
			}
			if want := []vaultgraph.FileChange{{Path: tt.wantID, Action: vaultgraph.ActionCreate}}; !slices.EqualFunc(res.Files, want, fileChangeEqual) {
				t.Errorf("CreateNode().Files = %+v, want %+v", res.Files, want)
			}
			if res.Node.Title != tt.wantTitle || !slices.Equal(res.Node.Tags, tt.wantTags) {
				t.Errorf("CreateNode().Node title %q tags %q, want %q %q", res.Node.Title, res.Node.Tags, tt.wantTitle, tt.wantTags)
			}
			after := fileTree(t, dir)
			if got := after[tt.wantID]; got != tt.wantFile {
				t.Errorf("%s = %q, want %q", tt.wantID, got, tt.wantFile)
			}
			if got := after["<mode> "+tt.wantID]; got != "-rw-r--r--" {
				t.Errorf("%s mode = %s, want -rw-r--r--", tt.wantID, got)
			}
			// Nothing else changed but the new file and its new folders.
			for k, v := range after {
				if _, ok := before[k]; ok || v == "<dir>" || k == tt.wantID || k == "<mode> "+tt.wantID || strings.HasPrefix(k, ".vaultgraph/") {
					continue
				}
				t.Errorf("unexpected new file %s", k)
			}
			got := mustNode(t, e, tt.wantID)
			if got.Title != tt.wantTitle {
				t.Errorf("GetNode(%q).Title = %q, want %q", tt.wantID, got.Title, tt.wantTitle)
			}
			if name := strings.TrimSuffix(filepath.Base(tt.wantID), ".md"); mustNode(t, e, name).ID != tt.wantID {
				t.Errorf("GetNode(%q) = %s, want %s", name, mustNode(t, e, name).ID, tt.wantID)
			}
			checkLikeReload(t, e)
		})
	}
}

func fileChangeEqual(a, b vaultgraph.FileChange) bool {
	return a.Path == b.Path && a.From == b.From && a.Action == b.Action && slices.Equal(a.Links, b.Links)
}

// TestCreateNodeLinks checks that a new note's links count at once, and
// that broken links to its name resolve as soon as it exists.
func TestCreateNodeLinks(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	res, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "Missing Note", Content: "Back to [[Home]] and [[Orphan]].\n"})
	if err != nil {
		t.Fatal(err)
	}
	n := res.Node
	if n.InDegree != 1 || n.OutDegree != 2 {
		t.Errorf("new note in/out = %d/%d, want 1/2 (Home's broken [[Missing Note]] now resolves)", n.InDegree, n.OutDegree)
	}
	nbs, _, _, err := e.Neighbors(ctx, "Orphan.md", graph.In, 10)
	if err != nil || !slices.Equal(nbIDs(nbs), []string{"Missing Note.md"}) {
		t.Errorf("Neighbors(Orphan, in) = %q, %v, want [Missing Note.md]", nbIDs(nbs), err)
	}
	if home := mustNode(t, e, home); slices.Contains(home.Broken, "Missing Note") {
		t.Errorf("Home still lists [[Missing Note]] as broken: %q", home.Broken)
	}
	checkLikeReload(t, e)
}

func TestCreateNodeExists(t *testing.T) {
	dir := copyTestVault(t)
	write(t, dir, "Projects/On Disk.md", "written after Open\n")
	e := openWriter(t, dir, false)
	write(t, dir, "Late.md", "written after Open, not yet indexed\n")
	before := fileTree(t, dir)
	ctx := context.Background()
	for _, n := range []vaultgraph.NewNote{
		{Title: "Home", Content: "x"},
		{Title: "home", Content: "x"},
		{Title: "HOME", Content: "x", Directory: ""},
		{Title: "Alpha Plan", Content: "x", Directory: "projects"},
		{Title: "Beta", Content: "x", Directory: "PROJECTS"},
		{Title: "Home?", Content: "x"}, // the file name is Home.md all the same
		{Title: "東京 Trip", Content: "x", Directory: "Notes"},
		{Title: "Café Menu", Content: "x", Directory: "Notes"}, // NFC title, NFD file name on disk
		{Title: "Late", Content: "x"},
		{Title: "on disk", Content: "x", Directory: "Projects"},
	} {
		_, err := e.CreateNode(ctx, n)
		if !errors.Is(err, vaultgraph.ErrExists) {
			t.Errorf("CreateNode(%q in %q) = %v, want ErrExists", n.Title, n.Directory, err)
		}
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a refused create changed the vault:\n%s", d)
	}
}

func TestCreateNodeInvalid(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	before := fileTree(t, dir)
	for _, n := range []vaultgraph.NewNote{
		{Title: "", Content: "x"},
		{Title: "   ", Content: "x"},
		{Title: "..", Content: "x"},
		{Title: "#?*", Content: "x"},
		{Title: "CON", Content: "x"},
		{Title: "nul", Content: "x"},
		{Title: "com1.txt", Content: "x"},
		{Title: "x", Content: "x", Directory: ".obsidian"},
		{Title: "x", Content: "x", Directory: ".hidden/sub"},
		{Title: "x", Content: "x", Directory: "Ignored"}, // userIgnoreFilters
		{Title: "x", Content: "x", Directory: "a//b"},
		{Title: "x", Content: "x", Directory: "./a"},
		{Title: "x", Content: "x", Directory: "trailing. "},
		{Title: "x", Content: "x", Directory: "dot."},
		{Title: "x", Content: "x\n", Properties: []vault.Property{{Key: "", Value: "v"}}},
	} {
		_, err := e.CreateNode(context.Background(), n)
		if !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("CreateNode(%q in %q) = %v, want ErrInvalid", n.Title, n.Directory, err)
		}
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a refused create changed the vault:\n%s", d)
	}

	t.Run("folder that is a file", func(t *testing.T) {
		_, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "x", Content: "x", Directory: "Home.md/sub"})
		if d := treeDiff(fileTree(t, dir), before); d != "" {
			t.Errorf("a refused create changed the vault:\n%s", d)
		}
		if !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("CreateNode(directory Home.md/sub) = %v, want ErrInvalid", err)
		}
	})
}

// TestCreateNodeEmojiTitle: a title kept in the frontmatter is written
// as the user would write it.
func TestCreateNodeEmojiTitle(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	res, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "Ideas 🚀?", Content: "x\n"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Node.ID != "Ideas 🚀.md" || res.Node.Title != "Ideas 🚀?" {
		t.Errorf("CreateNode(Ideas 🚀?) = %s titled %q, want Ideas 🚀.md titled %q", res.Node.ID, res.Node.Title, "Ideas 🚀?")
	}
	got := noteFiles(t, dir)["Ideas 🚀.md"]
	if want := "---\ntitle: Ideas 🚀?\n---\nx\n"; got != want {
		// yaml.v3's emitter escapes characters outside the BMP
		// ("Ideas \U0001F680?"); vault/yamlemit.go writes them as is.
		t.Errorf("Ideas 🚀.md = %q, want %q", got, want)
	}
}

// The tests of UpdateNode without a rename.

func TestUpdateNodeContent(t *testing.T) {
	tests := []struct {
		desc string
		file string
		give vaultgraph.NoteUpdate
		want string
	}{
		{
			desc: "content replaced, frontmatter kept byte for byte",
			file: "---\ntags: [a,  b]   # my tags\nodd:    'spacing'\n---\n# Old body\n\n[[Home]]\n",
			give: vaultgraph.NoteUpdate{Content: strp("# New body\n\nNo links.\n")},
			want: "---\ntags: [a,  b]   # my tags\nodd:    'spacing'\n---\n# New body\n\nNo links.\n",
		},
		{
			desc: "content of a note without frontmatter",
			file: "old\n",
			give: vaultgraph.NoteUpdate{Content: strp("new\n")},
			want: "new\n",
		},
		{
			desc: "CRLF stays CRLF",
			file: "---\r\ntags: [a]\r\n---\r\nold\r\nbody\r\n",
			give: vaultgraph.NoteUpdate{Content: strp("new\nbody\n")},
			want: "---\r\ntags: [a]\r\n---\r\nnew\r\nbody\r\n",
		},
		{
			desc: "CRLF kept when tags change",
			file: "---\r\ntags: [a]\r\nkeep: 1\r\n---\r\nbody\r\n",
			give: vaultgraph.NoteUpdate{Tags: &[]string{"x", "y"}},
			want: "---\r\ntags:\r\n  - x\r\n  - y\r\nkeep: 1\r\n---\r\nbody\r\n",
		},
		{
			desc: "missing final newline kept when properties change",
			file: "---\nkeep: 1\n---\nbody without newline",
			give: vaultgraph.NoteUpdate{Properties: []vault.Property{{Key: "status", Value: "done"}}},
			want: "---\nkeep: 1\nstatus: done\n---\nbody without newline",
		},
		{
			desc: "missing final newline: frontmatter added to a note without one",
			file: "just a line",
			give: vaultgraph.NoteUpdate{Tags: &[]string{"t"}},
			want: "---\ntags:\n  - t\n---\njust a line",
		},
		{
			desc: "tags replaced, other keys keep their bytes",
			file: "---\ntitle:   Spaced   # c\ntags:\n  - old\n  - older\nlist: [1,2,  3]\n---\nbody\n",
			give: vaultgraph.NoteUpdate{Tags: &[]string{"#new", "nested/tag"}},
			want: "---\ntitle:   Spaced   # c\ntags:\n  - new\n  - nested/tag\nlist: [1,2,  3]\n---\nbody\n",
		},
		{
			desc: "tags removed with an empty list",
			file: "---\nfirst: 1\ntags: [a, b]\nlast: 2\n---\nbody\n",
			give: vaultgraph.NoteUpdate{Tags: &[]string{}},
			want: "---\nfirst: 1\nlast: 2\n---\nbody\n",
		},
		{
			desc: "properties merged: changed in place, new appended, nil removes, others untouched",
			file: "---\nstatus:   draft  # keep me\nweird:  {a: 1,   b: 2}\npriority: 1\ndrop: me\ncreated: 2024-01-02\n---\nbody\n",
			give: vaultgraph.NoteUpdate{Properties: []vault.Property{
				{Key: "priority", Value: 5}, {Key: "drop", Value: nil}, {Key: "new", Value: "[[Home]]"}, {Key: "flag", Value: true},
			}},
			want: "---\nstatus:   draft  # keep me\nweird:  {a: 1,   b: 2}\npriority: 5\ncreated: 2024-01-02\nnew: \"[[Home]]\"\nflag: true\n---\nbody\n",
		},
		{
			desc: "content, tags and properties together",
			file: "---\ntags: [a]\n---\nold\n",
			give: vaultgraph.NoteUpdate{Content: strp("new\n"), Tags: &[]string{"b"}, Properties: []vault.Property{{Key: "k", Value: "v"}}},
			want: "---\ntags:\n  - b\nk: v\n---\nnew\n",
		},
		{
			desc: "a property equal to the one there is left as written",
			file: "---\nstatus: 'same'\n---\nbody\n",
			give: vaultgraph.NoteUpdate{Properties: []vault.Property{{Key: "status", Value: "same"}}},
			want: "---\nstatus: 'same'\n---\nbody\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := makeVault(t, map[string]string{"Note.md": tt.file, "Home.md": "# Home\n[[Note]]\n"})
			e := openWriter(t, dir, false)
			tt.give.ID = "Note"
			tt.give.DryRun = true
			dry, err := e.UpdateNode(context.Background(), tt.give)
			if err != nil {
				t.Fatalf("UpdateNode(%+v) = %v", tt.give, err)
			}
			if got := noteFiles(t, dir)["Note.md"]; got != tt.file || !dry.DryRun || dry.Node != nil {
				t.Errorf("dry run: Note.md = %q, DryRun %v, Node %v; want the file unchanged, true, nil", got, dry.DryRun, dry.Node)
			}
			tt.give.DryRun = false
			res, err := e.UpdateNode(context.Background(), tt.give)
			if err != nil {
				t.Fatalf("UpdateNode(%+v) = %v", tt.give, err)
			}
			got := noteFiles(t, dir)
			if got["Note.md"] != tt.want {
				t.Errorf("Note.md after UpdateNode = %q\nwant %q", got["Note.md"], tt.want)
			}
			if got["Home.md"] != "# Home\n[[Note]]\n" {
				t.Errorf("Home.md changed: %q", got["Home.md"])
			}
			var want []vaultgraph.FileChange
			if tt.want != tt.file {
				want = []vaultgraph.FileChange{{Path: "Note.md", Action: vaultgraph.ActionUpdate}}
			}
			if !slices.EqualFunc(res.Files, want, fileChangeEqual) || !slices.EqualFunc(dry.Files, want, fileChangeEqual) {
				t.Errorf("UpdateNode().Files = %+v (dry run %+v), want %+v", res.Files, dry.Files, want)
			}
			if res.Node == nil || res.Node.Hash != vault.Hash([]byte(tt.want)) {
				t.Errorf("UpdateNode().Node = %+v, want the hash of the new file", res.Node)
			}
			if tt.give.Tags != nil && !slices.Equal(res.Node.Tags, cleanTagList(*tt.give.Tags)) {
				t.Errorf("UpdateNode().Node.Tags = %q, want %q", res.Node.Tags, *tt.give.Tags)
			}
			checkLikeReload(t, e)
		})
	}
}

func cleanTagList(tags []string) []string {
	out := []string{}
	for _, t := range tags {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "#"); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// TestUpdateNodeContentLinks checks that new content's links are in the
// graph at once.
func TestUpdateNodeContentLinks(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Orphan", Content: strp("# Orphan\n\nNow [[Beta]] and [[Tagged]].\n")}); err != nil {
		t.Fatal(err)
	}
	n := mustNode(t, e, orphan)
	if got := linkIDs(n.Links); !slices.Equal(got, []string{beta, tagged}) || n.OutDegree != 2 {
		t.Errorf("Orphan links = %q (out %d), want [%s %s]", got, n.OutDegree, beta, tagged)
	}
	nbs, _, _, _ := e.Neighbors(ctx, beta, graph.In, 20)
	if !slices.Contains(nbIDs(nbs), orphan) {
		t.Errorf("Neighbors(Beta, in) = %q, want Orphan among them", nbIDs(nbs))
	}
	checkLikeReload(t, e)
}

func TestUpdateNodeKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits on Windows")
	}
	dir := makeVault(t, map[string]string{"Secret.md": "---\ntags: [a]\n---\nold\n", "Home.md": "[[Secret]]\n"})
	p := filepath.Join(dir, "Secret.md")
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	e := openWriter(t, dir, false)
	ctx := context.Background()
	for _, u := range []vaultgraph.NoteUpdate{
		{ID: "Secret.md", Content: strp("new\n")},
		{ID: "Secret.md", Tags: &[]string{"b"}},
		{ID: "Secret.md", Title: strp("Still Secret")},
		{ID: "Still Secret.md", Directory: strp("Vault/Inner")},
	} {
		res, err := e.UpdateNode(ctx, u)
		if err != nil {
			t.Fatalf("UpdateNode(%+v) = %v", u, err)
		}
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(res.Node.ID)))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("after UpdateNode(%+v) the mode is %v, want 0600", u, fi.Mode().Perm())
		}
	}
	if got := noteFiles(t, dir)["Home.md"]; got != "[[Still Secret]]\n" {
		t.Errorf("Home.md = %q, want the link renamed", got)
	}
}

func TestUpdateNodeIfMatch(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	hash := mustNode(t, e, beta).Hash

	// A stale hash: nothing is written, whatever the update.
	before := fileTree(t, dir)
	for _, u := range []vaultgraph.NoteUpdate{
		{Content: strp("new\n")},
		{Tags: &[]string{"x"}},
		{Title: strp("Gamma")},
		{Directory: strp("Elsewhere")},
		{Title: strp("Gamma"), DryRun: true},
	} {
		u.ID, u.IfMatch = beta, "sha256:0000"
		if _, err := e.UpdateNode(ctx, u); !errors.Is(err, vaultgraph.ErrConflict) {
			t.Errorf("UpdateNode(%+v) = %v, want ErrConflict", u, err)
		}
	}
	if _, err := e.DeleteNode(ctx, beta, "sha256:0000"); !errors.Is(err, vaultgraph.ErrConflict) {
		t.Errorf("DeleteNode(stale hash) = %v, want ErrConflict", err)
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a refused update changed the vault:\n%s", d)
	}

	// The file changed underneath since the read: conflict.
	p := filepath.Join(dir, "Projects", "Beta.md")
	orig, _ := os.ReadFile(p)
	changed := append(append([]byte(nil), orig...), "edited in Obsidian\n"...)
	if err := os.WriteFile(p, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: beta, Content: strp("mine\n"), IfMatch: hash}); !errors.Is(err, vaultgraph.ErrConflict) {
		t.Errorf("UpdateNode(ifMatch before an outside edit) = %v, want ErrConflict", err)
	}
	if got, _ := os.ReadFile(p); string(got) != string(changed) {
		t.Errorf("Beta.md = %q after a conflict, want the outside edit kept", got)
	}

	// The current hash works, and the answer's hash is the next ifMatch.
	hash = vault.Hash(changed)
	res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: beta, Content: strp("mine\n"), IfMatch: hash})
	if err != nil {
		t.Fatalf("UpdateNode(current hash) = %v", err)
	}
	res, err = e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: beta, Tags: &[]string{"t"}, IfMatch: res.Node.Hash})
	if err != nil {
		t.Fatalf("UpdateNode(hash of the last answer) = %v", err)
	}
	if got, _ := os.ReadFile(p); vault.Hash(got) != res.Node.Hash {
		t.Errorf("answer hash %s, file hash %s", res.Node.Hash, vault.Hash(got))
	}
}

func TestUpdateNodeErrors(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	before := fileTree(t, dir)
	ctx := context.Background()
	tests := []struct {
		desc string
		give vaultgraph.NoteUpdate
		want error
	}{
		{"missing note", vaultgraph.NoteUpdate{ID: "No Such Note", Content: strp("x")}, vaultgraph.ErrNotFound},
		{"missing path", vaultgraph.NoteUpdate{ID: "Projects/Gamma.md", Title: strp("x")}, vaultgraph.ErrNotFound},
		{"ignored note", vaultgraph.NoteUpdate{ID: "Ignored/Hidden.md", Content: strp("x")}, vaultgraph.ErrNotFound},
		{"nothing to change", vaultgraph.NoteUpdate{ID: home}, vaultgraph.ErrInvalid},
		{"empty title", vaultgraph.NoteUpdate{ID: home, Title: strp("  ")}, vaultgraph.ErrInvalid},
		{"title with nothing usable", vaultgraph.NoteUpdate{ID: home, Title: strp("[[]]")}, vaultgraph.ErrInvalid},
		{"reserved title", vaultgraph.NoteUpdate{ID: home, Title: strp("aux")}, vaultgraph.ErrInvalid},
		{"rename onto another note", vaultgraph.NoteUpdate{ID: orphan, Title: strp("Home")}, vaultgraph.ErrExists},
		{"rename onto another note, other case", vaultgraph.NoteUpdate{ID: orphan, Title: strp("tagged")}, vaultgraph.ErrExists},
		{"move onto another note", vaultgraph.NoteUpdate{ID: archAlpha, Directory: strp("Projects")}, vaultgraph.ErrExists},
		{"move onto another note, other case", vaultgraph.NoteUpdate{ID: archAlpha, Directory: strp("projects")}, vaultgraph.ErrExists},
		{"move into an ignored folder", vaultgraph.NoteUpdate{ID: orphan, Directory: strp("Ignored")}, vaultgraph.ErrInvalid},
		{"bad frontmatter", vaultgraph.NoteUpdate{ID: brokenYML, Tags: &[]string{"x"}}, vaultgraph.ErrInvalid},
		{"bad property key", vaultgraph.NoteUpdate{ID: home, Properties: []vault.Property{{Key: " ", Value: 1}}}, vaultgraph.ErrInvalid},
		{"bad property value", vaultgraph.NoteUpdate{ID: home, Properties: []vault.Property{{Key: "k", Value: struct{}{}}}}, vaultgraph.ErrInvalid},
	}
	for _, tt := range tests {
		_, err := e.UpdateNode(ctx, tt.give)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: UpdateNode(%+v) = %v, want %v", tt.desc, tt.give, err, tt.want)
		}
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a refused update changed the vault:\n%s", d)
	}
}

// TestUpdateNodeIDForms checks that every ID form reads accept works
// for writes too.
func TestUpdateNodeIDForms(t *testing.T) {
	for _, id := range []string{"Projects/Beta.md", "projects/beta.MD", "Projects/Beta", "Beta", "beta", `Projects\Beta.md`, "./Projects/Beta.md"} {
		dir := copyTestVault(t)
		e := openWriter(t, dir, false)
		res, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: id, Content: strp("new\n")})
		if err != nil || res.Node.ID != beta {
			t.Errorf("UpdateNode(ID %q) = %+v, %v, want %s updated", id, res, err, beta)
		}
	}
}

func TestDeleteNode(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	before := noteFiles(t, dir)

	res, err := e.DeleteNode(ctx, "beta", "")
	if err != nil {
		t.Fatalf("DeleteNode(beta) = %v", err)
	}
	if !res.Deleted || !slices.EqualFunc(res.Files, []vaultgraph.FileChange{{Path: beta, Action: vaultgraph.ActionDelete}}, fileChangeEqual) {
		t.Errorf("DeleteNode(beta) = %+v, want Deleted and one delete", res)
	}
	// Every incoming link is reported, and left as written.
	wantWarn := []string{
		"Home.md (line 12)",                // [[Beta#Goals]]
		"Home.md (line 12)",                // [[Beta#^block1]]
		"Notes/Meeting Notes.md (line 6)",  // frontmatter list
		"Projects/Alpha Plan.md (line 10)", // frontmatter related
		"Projects/Alpha Plan.md (line 18)", // [[Beta#Goals|Beta's goals]]
	}
	var got []string
	for _, w := range res.Warnings {
		if i := strings.Index(w, " in "); i >= 0 && strings.HasPrefix(w, "now a broken link") {
			got = append(got, w[i+4:])
		}
	}
	if !slices.Equal(got, wantWarn) {
		t.Errorf("DeleteNode(beta).Warnings = %q\nwant broken links at %q", res.Warnings, wantWarn)
	}
	after := noteFiles(t, dir)
	delete(before, "Projects/Beta.md")
	if d := treeDiff(after, before); d != "" {
		t.Errorf("DeleteNode changed other files:\n%s", d)
	}
	if n, _ := e.GetNode(ctx, beta, false); n != nil {
		t.Errorf("GetNode(beta) after delete = %s, want nil", n.ID)
	}
	if h := mustNode(t, e, home); !slices.Contains(h.Broken, "Beta") {
		t.Errorf("Home's broken links = %q, want Beta among them", h.Broken)
	}

	// Missing: not an error.
	for _, id := range []string{"beta", "No Such Note", "Projects/Gamma.md"} {
		res, err = e.DeleteNode(ctx, id, "")
		if err != nil || res.Deleted || len(res.Files) != 0 {
			t.Errorf("DeleteNode(%q) = %+v, %v, want Deleted false", id, res, err)
		}
	}
	if _, err := e.DeleteNode(ctx, "../Home", ""); !errors.Is(err, vaultgraph.ErrInvalid) {
		t.Errorf("DeleteNode(../Home) = %v, want ErrInvalid", err)
	}
	// A note with a current ifMatch.
	res, err = e.DeleteNode(ctx, tagged, mustNode(t, e, tagged).Hash)
	if err != nil || !res.Deleted {
		t.Errorf("DeleteNode(Tagged, current hash) = %+v, %v, want deleted", res, err)
	}
	checkLikeReload(t, e)

	// A note deleted behind the engine's back (no watcher): not an error,
	// and the engine learns it is gone.
	t.Run("deleted on disk", func(t *testing.T) {
		remove(t, dir, "Orphan.md")
		res, err = e.DeleteNode(ctx, orphan, "")
		if err != nil || res.Deleted {
			t.Errorf("DeleteNode(orphan deleted on disk) = %+v, %v, want Deleted false", res, err)
		}
		if n, _ := e.GetNode(ctx, orphan, false); n != nil {
			t.Errorf("GetNode(%s) after DeleteNode found it missing on disk = %s, want nil", orphan, n.ID)
		}
		checkLikeReload(t, e)
	})
}

func TestWriteReadOnly(t *testing.T) {
	dir := copyTestVault(t)
	before := fileTree(t, dir)
	e := openWriter(t, dir, true)
	ctx := context.Background()
	if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "New", Content: "x"}); !errors.Is(err, vaultgraph.ErrReadOnly) {
		t.Errorf("CreateNode on a read-only engine = %v, want ErrReadOnly", err)
	}
	for _, u := range []vaultgraph.NoteUpdate{
		{ID: home, Content: strp("x")},
		{ID: home, Title: strp("Start")},
		{ID: home, Title: strp("Start"), DryRun: true},
		{ID: "No Such Note", Content: strp("x")},
	} {
		if _, err := e.UpdateNode(ctx, u); !errors.Is(err, vaultgraph.ErrReadOnly) {
			t.Errorf("UpdateNode(%+v) on a read-only engine = %v, want ErrReadOnly", u, err)
		}
	}
	for _, id := range []string{home, "No Such Note"} {
		if _, err := e.DeleteNode(ctx, id, ""); !errors.Is(err, vaultgraph.ErrReadOnly) {
			t.Errorf("DeleteNode(%q) on a read-only engine = %v, want ErrReadOnly", id, err)
		}
	}
	if d := treeDiff(fileTree(t, dir), before); d != "" {
		t.Errorf("a read-only engine changed the vault:\n%s", d)
	}
}

func TestWriteClosed(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	e.Close()
	ctx := context.Background()
	if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "New", Content: "x"}); !errors.Is(err, vaultgraph.ErrClosed) {
		t.Errorf("CreateNode after Close = %v, want ErrClosed", err)
	}
	if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: home, Content: strp("x")}); !errors.Is(err, vaultgraph.ErrClosed) {
		t.Errorf("UpdateNode after Close = %v, want ErrClosed", err)
	}
	if _, err := e.DeleteNode(ctx, home, ""); !errors.Is(err, vaultgraph.ErrClosed) {
		t.Errorf("DeleteNode after Close = %v, want ErrClosed", err)
	}
}

// TestOpenOddIndexPath opens a vault whose folder (and so its index
// path) holds characters that mean something in a URI, and writes to it.
// The index must be where it was asked to be.
func TestOpenOddIndexPath(t *testing.T) {
	for i, name := range []string{"100% notes", "a%20b", "C# notes", "what?"} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			inner := filepath.Join(t.TempDir(), "inner")
			dir := filepath.Join(inner, name)
			if err := os.CopyFS(dir, os.DirFS("testvault")); err != nil {
				t.Fatal(err)
			}
			index := filepath.Join(dir, ".vaultgraph", "test.db")
			e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
			err := e.Open(context.Background())
			if err == nil {
				defer e.Close()
				_, err = e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "New", Content: "x"})
			}
			var stray []string
			entries, _ := os.ReadDir(inner)
			for _, d := range entries {
				if d.Name() != name {
					stray = append(stray, d.Name())
				}
			}
			_, statErr := os.Stat(index)
			if err != nil || len(stray) > 0 || statErr != nil {
				t.Errorf("vault %q: Open/CreateNode = %v; index at %s: %v; files made beside the vault: %q", name, err, index, statErr, stray)
			}
		})
	}
}

// TestRootDirectory checks that RootDirectory ("/") names the vault root
// in CreateNode and UpdateNode (the tools read "" as not given), while
// other absolute folders stay refused.
func TestRootDirectory(t *testing.T) {
	dir := makeVault(t, map[string]string{"Sub/Moved.md": "# Moved\n", "Linker.md": "[[Sub/Moved]]\n"})
	e := openWriter(t, dir, false)
	ctx := context.Background()
	if res, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "Top", Content: "x", Directory: vaultgraph.RootDirectory}); err != nil || res.Node.ID != "Top.md" {
		t.Fatalf("CreateNode(directory /) = %+v, %v, want Top.md", res, err)
	}
	res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Sub/Moved.md", Directory: strp(" / ")})
	if err != nil || res.Node.ID != "Moved.md" {
		t.Fatalf("UpdateNode(directory / ) = %+v, %v, want Moved.md", res, err)
	}
	if got, want := noteFiles(t, dir)["Linker.md"], "[[Moved]]\n"; got != want {
		t.Errorf("Linker.md = %q, want %q", got, want)
	}
	for _, d := range []string{"//", "/Sub", "/."} {
		if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "Bad", Content: "x", Directory: d}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("CreateNode(directory %q) = %v, want ErrInvalid", d, err)
		}
	}
}

// TestCreateNodeSmallDefects: a created file ends with a newline, a title
// with no usable file name says so once, and an existing note in another
// letter case is named as its file is.
func TestCreateNodeSmallDefects(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	for _, n := range []vaultgraph.NewNote{
		{Title: "Ends", Content: "No newline at the end"},
		{Title: "Tagged End", Content: "Body", Tags: []string{"x"}},
	} {
		if _, err := e.CreateNode(ctx, n); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, n.Title+".md"))
		if err != nil || !strings.HasSuffix(string(b), n.Content+"\n") {
			t.Errorf("%s.md = %q, %v, want it to end with %q", n.Title, b, err, n.Content+"\n")
		}
	}
	_, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "???"})
	if !errors.Is(err, vaultgraph.ErrInvalid) || strings.Count(err.Error(), `title "???"`) != 1 {
		t.Errorf("CreateNode(???) = %v, want ErrInvalid naming the title once", err)
	}
	_, err = e.CreateNode(ctx, vaultgraph.NewNote{Title: "beta", Directory: "projects"})
	if !errors.Is(err, vaultgraph.ErrExists) || !strings.Contains(err.Error(), "Projects/Beta.md already exists") {
		t.Errorf("CreateNode(projects/beta) = %v, want ErrExists naming Projects/Beta.md", err)
	}
}

// TestWritesTakeOnlyPathsAndNames checks that a write never picks its note
// by a title, an alias or a pasted link, as reads do, and that its error
// names the note a read would find.
func TestWritesTakeOnlyPathsAndNames(t *testing.T) {
	e := openWriter(t, testutil.CopyTestVault(t), false)
	ctx := context.Background()
	res, err := e.DeleteNode(ctx, "AP", "")
	if err != nil || res.Deleted {
		t.Errorf("DeleteNode(AP) = %+v, %v, want nothing deleted", res, err)
	}
	body := "x"
	_, err = e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Tag Examples", Content: &body})
	if !errors.Is(err, vaultgraph.ErrNotFound) || !strings.Contains(err.Error(), "did you mean Tagged.md?") {
		t.Errorf("UpdateNode(Tag Examples) = %v, want ErrNotFound naming Tagged.md", err)
	}
	if n, _ := e.GetNode(ctx, "AP", false); n == nil || n.ID != "Projects/Alpha Plan.md" {
		t.Errorf("GetNode(AP) = %+v, want Projects/Alpha Plan.md, still there", n)
	}
}
