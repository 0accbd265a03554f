package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// TestMain points every command at an index file in a temporary folder,
// so that tests never write into testvault/.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vaultgraph-cmd-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv(EnvIndex, filepath.Join(dir, "index.db"))
	code := m.Run()
	testutil.RemoveBinaries()
	os.RemoveAll(dir)
	os.Exit(code)
}
