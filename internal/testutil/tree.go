package testutil

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FileTree returns everything under root keyed by slash path relative to
// root: a file's content, "<dir>" for a folder, "<symlink> target" for a
// symlink (not followed), and the permission bits of files as
// "<mode> path" entries.
func FileTree(t testing.TB, root string) map[string]string {
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

// Files returns every regular file under dir (slash path -> content);
// folders are left out and symlinks are not followed.
func Files(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return files
}

// Changed names the paths added ("+path"), removed ("-path") or changed
// ("~path") from a to b, sorted.
func Changed(a, b map[string]string) []string {
	var out []string
	for p, s := range a {
		if t, ok := b[p]; !ok {
			out = append(out, "-"+p)
		} else if s != t {
			out = append(out, "~"+p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, "+"+p)
		}
	}
	slices.Sort(out)
	return out
}

// TreeDiff describes how got differs from want, or returns "".
func TreeDiff(got, want map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[k]
		switch {
		case !ok:
			fmt.Fprintf(&b, "missing %s (want %q)\n", k, Clip(want[k]))
		case g != want[k]:
			fmt.Fprintf(&b, "%s = %q\n    want %q\n", k, Clip(g), Clip(want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "unexpected %s = %q\n", k, Clip(got[k]))
		}
	}
	return b.String()
}

// Clip shortens s to 600 bytes for a failure message.
func Clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
