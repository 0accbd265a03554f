package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

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

// Clip shortens s to 600 bytes for a failure message.
func Clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
