package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sync"
	"testing"
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
	removeBinaries()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build is the one build of the binary of a test binary.
var build struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// testBinary builds this command once per test binary, with -race when the
// tests run with it (so the build reuses the packages go test compiled),
// and returns the executable. removeBinaries, called from
// TestMain, deletes it.
func testBinary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "vaultgraph-bin-")
		if build.err != nil {
			return
		}
		build.bin = filepath.Join(build.dir, "vaultgraph")
		args := []string{"build", "-o", build.bin}
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "-race" && s.Value == "true" {
					args = append(args, "-race")
				}
			}
		}
		build.out, build.err = exec.Command("go", append(args, ".")...).CombinedOutput()
	})
	if build.err != nil {
		t.Fatalf("go build: %v\n%s", build.err, build.out)
	}
	return build.bin
}

// removeBinaries deletes what testBinary built; TestMain calls it after the
// tests ran.
func removeBinaries() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}
