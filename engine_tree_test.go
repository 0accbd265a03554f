package vaultgraph_test

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// Folder helpers of the write tests (engine_write_test.go,
// engine_renames_test.go).

// makeVault writes files (vault path -> content) into a new temporary
// vault folder and returns it.
func makeVault(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.WriteFiles(t, dir, files)
	return dir
}

// fileTree returns everything under root keyed by slash path relative to
// root: a file's content, "<dir>" for a folder, "<symlink> target" for a
// symlink (not followed), and the permission bits of files as
// "<mode> path" entries.
func fileTree(t testing.TB, root string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			tree[rel] = "<symlink> " + target
		case d.IsDir():
			tree[rel] = "<dir>"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			tree[rel] = string(b)
			fi, err := d.Info()
			if err != nil {
				return err
			}
			tree["<mode> "+rel] = fi.Mode().Perm().String()
		}
		return nil
	})
	if err != nil {
		t.Fatalf("read tree %s: %v", root, err)
	}
	return tree
}

// treeDiff describes how got differs from want, or returns "".
func treeDiff(got, want map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[k]
		switch {
		case !ok:
			fmt.Fprintf(&b, "missing %s (want %q)\n", k, clip(want[k]))
		case g != want[k]:
			fmt.Fprintf(&b, "%s = %q\n    want %q\n", k, clip(g), clip(want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "unexpected %s = %q\n", k, clip(got[k]))
		}
	}
	return b.String()
}
