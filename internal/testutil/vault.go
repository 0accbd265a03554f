package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestVault returns the absolute path of the repository's testvault/,
// beside go.mod in the nearest folder above the working directory.
func TestVault(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testvault")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("testutil: no go.mod above the working directory")
		}
		dir = up
	}
}

// CopyTestVault returns a copy of testvault/ in a new temporary folder.
func CopyTestVault(t testing.TB) string {
	t.Helper()
	return CopyDir(t, TestVault(t))
}

// CopyDir returns a copy of src in a new temporary folder named "vault".
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dir
}

// WriteFiles writes files (slash path -> content) under root.
func WriteFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		WriteFile(t, root, rel, content)
	}
}

// WriteFile writes content to the slash path rel under dir, making folders.
func WriteFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
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

// Clip shortens s to 600 bytes for a failure message.
func Clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
