package vaultgraph_test

// Writes that try to leave the vault (ids, folders and titles with ..,
// absolute paths, symlinks) are refused and change nothing outside it.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// TestWriteOutsideVault tries to make every write land outside the vault.
// Folders are paths: each attempt is ErrInvalid and nothing is written
// anywhere (neither in the vault nor beside it). Titles are names: the
// characters Obsidian forbids (among them / \ :) are removed, so a title
// can never name a folder; whatever is written lands in the vault.
func TestWriteOutsideVault(t *testing.T) {
	dirs := []struct {
		desc string
		dir  string
	}{
		{"parent", ".."},
		{"parent then a folder", "../outside"},
		{"parent inside a path", "Projects/../../outside"},
		{"deep parent", "Projects/../.."},
		{"absolute", "/abs"},
		{"absolute to the outside folder", ""}, // filled in below
		// "/" alone is the vault root (TestRootDirectory).
		{"absolute root and dot", "/."},
		{"drive", `C:\x`},
		{"drive with slash", "C:/x"},
		{"drive only", "c:"},
		{"UNC", `\\server\share`},
		{"UNC with slashes", "//server/share"},
		{"backslash parent", `..\outside`},
		{"NUL", "a\x00b"},
		{"NUL alone", "\x00"},
		{"reserved name", "CON"},
		{"reserved name with extension", "Projects/nul.txt"},
		{"reserved name, other case", "Lpt1"},
		{"symlink to the outside", "escape"},
		{"below a symlink to the outside", "escape/sub/deeper"},
		{"symlink to the parent", "up"},
		{"symlink to the outside via a symlink inside", "hop/x"},
		{"broken symlink", "dangling"},
	}
	for _, tt := range dirs {
		t.Run("create in "+tt.desc, func(t *testing.T) {
			top, dir, outside := escapeVault(t)
			if tt.dir == "" {
				tt.dir = outside
			}
			e := openWriter(t, dir, false)
			before := fileTree(t, top)
			_, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "Evil", Content: "pwned\n", Directory: tt.dir})
			after := fileTree(t, top)
			checkRefused(t, fmt.Sprintf("CreateNode(directory %q)", tt.dir), err, after, before)
		})
		t.Run("move to "+tt.desc, func(t *testing.T) {
			top, dir, outside := escapeVault(t)
			if tt.dir == "" {
				tt.dir = outside
			}
			e := openWriter(t, dir, false)
			before := fileTree(t, top)
			_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Inside.md", Directory: &tt.dir})
			after := fileTree(t, top)
			checkRefused(t, fmt.Sprintf("UpdateNode(directory %q)", tt.dir), err, after, before)
		})
	}

	// IDs that leave the vault are refused by every write.
	t.Run("ids", func(t *testing.T) {
		top, dir, outside := escapeVault(t)
		e := openWriter(t, dir, false)
		before := fileTree(t, top)
		ctx := context.Background()
		for _, id := range []string{"../outside/Secret.md", "../outside/Secret", "/" + filepath.ToSlash(outside) + "/Secret.md",
			outside + "/Secret.md", `..\outside\Secret.md`, "Inside.md\x00", "C:/Secret.md", "escape/Secret.md"} {
			_, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: id, Content: strp("pwned\n")})
			if !errors.Is(err, vaultgraph.ErrInvalid) && !errors.Is(err, vaultgraph.ErrNotFound) {
				t.Errorf("UpdateNode(ID %q) = %v, want ErrInvalid or ErrNotFound", id, err)
			}
			res, err := e.DeleteNode(ctx, id, "")
			if err == nil && res.Deleted {
				t.Errorf("DeleteNode(ID %q) deleted something", id)
			}
		}
		if d := treeDiff(fileTree(t, top), before); d != "" {
			t.Errorf("writes by outside IDs changed files:\n%s", d)
		}
	})

	// Titles: the forbidden characters go, so each lands in the vault,
	// at the root, named without them; titles with no usable name left,
	// or with control characters, are ErrInvalid.
	titles := []struct {
		title, wantID string
	}{
		{"../Evil", "Evil.md"},
		{"../../../../../../tmp/Evil", "tmpEvil.md"},
		{"/etc/Evil", "etcEvil.md"},
		{`C:\Evil`, "CEvil.md"},
		{`\\server\share\Evil`, "servershareEvil.md"},
		{"escape/Evil", "escapeEvil.md"},
		{"..", ""},
		{"../..", ""},
		{"/", ""},
		{`\\`, ""},
		{"CON", ""},
		{"con.md", ""},
		{"PRN", ""},
		{"\x00", ""},
		{"Evil\x00.md", ""},
		{"a\tb", ""},
		{"line\nbreak", ""},
	}
	for _, tt := range titles {
		t.Run(fmt.Sprintf("title %q", tt.title), func(t *testing.T) {
			top, dir, _ := escapeVault(t)
			e := openWriter(t, dir, false)
			before := fileTree(t, top)
			res, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: tt.title, Content: "x\n"})
			after := fileTree(t, top)
			if tt.wantID == "" {
				checkRefused(t, fmt.Sprintf("CreateNode(title %q)", tt.title), err, after, before)
				return
			}
			if err != nil {
				t.Fatalf("CreateNode(title %q) = %v, want %s", tt.title, err, tt.wantID)
			}
			if res.Node.ID != tt.wantID {
				t.Errorf("CreateNode(title %q) wrote %s, want %s", tt.title, res.Node.ID, tt.wantID)
			}
			// The only new file is the note, in the vault.
			for k := range after {
				if _, ok := before[k]; !ok && k != "vault/"+tt.wantID && k != "<mode> vault/"+tt.wantID {
					t.Errorf("CreateNode(title %q) wrote %s", tt.title, k)
				}
			}
		})
	}
}

// escapeVault makes top/vault with a note Inside.md and top/outside with
// Secret.md, plus symlinks in the vault: escape -> top/outside, up -> top,
// hop -> escape (a symlink inside pointing at one leading out), dangling
// -> nowhere. It returns top, the vault and the outside folder.
func escapeVault(t *testing.T) (top, dir, outside string) {
	t.Helper()
	top = t.TempDir()
	dir = filepath.Join(top, "vault")
	outside = filepath.Join(top, "outside")
	write(t, dir, "Inside.md", "# Inside\n[[Secret]]\n")
	write(t, outside, "Secret.md", "# Secret\n")
	links := map[string]string{"escape": outside, "up": top, "hop": "escape", "dangling": filepath.Join(top, "nowhere")}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	return top, dir, outside
}

// checkRefused fails unless err is ErrInvalid and the tree is unchanged.
func checkRefused(t *testing.T, what string, err error, after, before map[string]string) {
	t.Helper()
	for k := range after {
		if _, ok := before[k]; !ok && !strings.HasPrefix(k, "vault/") && !strings.HasPrefix(k, "<mode> vault/") {
			t.Errorf("%s wrote %s OUTSIDE the vault", what, k)
		}
	}
	d := treeDiff(after, before)
	if !errors.Is(err, vaultgraph.ErrInvalid) {
		t.Errorf("%s = %v, want ErrInvalid", what, err)
	}
	if d != "" {
		t.Errorf("%s changed files:\n%s", what, d)
	}
}
