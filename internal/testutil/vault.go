package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// TestVault returns the absolute path of the repository's testvault/,
// whichever package's tests ask: it sits beside go.mod, in the nearest
// folder above the working directory (a package's folder under go test)
// that has one.
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

// CopyTestVault copies testvault/ into a new temporary folder and returns
// the copy.
func CopyTestVault(t testing.TB) string {
	t.Helper()
	return CopyDir(t, TestVault(t))
}

// CopyDir copies the folder src into a new temporary folder named "vault"
// and returns the copy.
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
	return dir
}

// WriteFiles writes files (slash path -> content) under root, making
// their folders.
func WriteFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		WriteFile(t, root, rel, content)
	}
}

// WriteFile writes content to the slash path rel under dir, making its
// folders.
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
