package vaultgraph_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// TestCleanIDAbsolute: an absolute or drive path, in either slash and
// after spaces, is ErrOutsideVault under the absolute-path wording; a
// relative ID is cleaned.
func TestCleanIDAbsolute(t *testing.T) {
	for _, give := range []string{"/etc/passwd", `\etc\passwd`, `\\server\share\x.md`, "C:/x.md", `C:\x.md`, "c:x.md", "  /x.md"} {
		got, err := vaultgraph.CleanID(give)
		if !errors.Is(err, vaultgraph.ErrOutsideVault) || !strings.Contains(err.Error(), "is an absolute path") {
			t.Errorf("CleanID(%q) = %q, %v, want ErrOutsideVault: is an absolute path", give, got, err)
		}
	}
	for give, want := range map[string]string{`a\b.md`: "a/b.md", " ./a/b.md ": "a/b.md", "a//b.md": "a/b.md"} {
		if got, err := vaultgraph.CleanID(give); got != want || err != nil {
			t.Errorf("CleanID(%q) = %q, %v, want %q", give, got, err, want)
		}
	}
}

// TestCreateNodeAbsoluteDirectory: a create into an absolute or drive
// folder is refused as such and writes nothing.
func TestCreateNodeAbsoluteDirectory(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	before := fileTree(t, filepath.Dir(dir))
	for _, give := range []string{filepath.Dir(dir), "/x", `\x`, "C:/x", `C:\x`, "c:x"} {
		_, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "Abs", Content: "x", Directory: give})
		if !errors.Is(err, vaultgraph.ErrInvalid) || !strings.Contains(err.Error(), "is an absolute path") {
			t.Errorf("CreateNode(directory %q) = %v, want ErrInvalid: is an absolute path", give, err)
		}
	}
	if d := treeDiff(fileTree(t, filepath.Dir(dir)), before); d != "" {
		t.Errorf("a refused create changed the files:\n%s", d)
	}
}

// TestSyncOutsidePaths: paths that leave the vault, given to Sync, change
// nothing, even when a note exists there; an absolute path is not read as
// one inside the vault ("/Home.md" is not Home.md).
func TestSyncOutsidePaths(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	before := stateOf(t, e)
	write(t, filepath.Dir(dir), "Outside.md", "# Outside\n\n[[Home]]\n")
	syncPaths(t, e, "../Outside.md", "..", "/Outside.md", "/Home.md", filepath.Join(filepath.Dir(dir), "Outside.md"))
	if after := stateOf(t, e); !reflect.DeepEqual(before, after) {
		t.Errorf("Sync of paths outside the vault changed the state:\n%+v\nto\n%+v", before, after)
	}
}
