package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

func TestBenchVault(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it")
	}
	bin := testutil.Binary(t)
	vault := filepath.Join(t.TempDir(), "tv")
	if err := os.CopyFS(vault, os.DirFS("../../testvault")); err != nil {
		t.Fatal(err)
	}
	before := benchVaultTree(t, vault)
	work := t.TempDir()
	out, errOut, code := runCLI(t, "bench", "--vault", vault, "--dir", work, "--exe", bin)
	if code != 0 {
		t.Fatalf("bench --vault = exit %d, stderr %q", code, errOut)
	}
	sec, rss := `\d+\.\d\ds`, rssPattern()
	re := regexp.MustCompile(`^vault name=tv notes=[1-9]\d* links=[1-9]\d* broken=[1-9]\d* problems=\d+ index=` + sec +
		` peak_rss=` + rss + ` index_embed=` + sec + ` peak_rss_embed=` + rss + `$`)
	if !re.MatchString(strings.TrimSuffix(out, "\n")) || strings.Count(out, "\n") != 1 {
		t.Errorf("bench --vault stdout = %q, want one line matching %s", out, re)
	}
	if after := benchVaultTree(t, vault); after != before {
		t.Errorf("bench --vault wrote into the vault:\nbefore %s\nafter  %s", before, after)
	}
	if left, _ := os.ReadDir(work); len(left) != 0 {
		t.Errorf("without --keep, bench --vault left %d entries in --dir", len(left))
	}

	if _, errOut, code := runCLI(t, "bench", "--vault", filepath.Join(vault, "missing")); code == 0 || !strings.Contains(errOut, "INVALID_PARAMS") {
		t.Errorf("bench --vault on a missing folder = exit %d, stderr %q, want INVALID_PARAMS", code, errOut)
	}
}

// benchVaultTree lists the paths under dir, sorted, one a line.
func benchVaultTree(t *testing.T, dir string) string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		paths = append(paths, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(paths, "\n")
}
