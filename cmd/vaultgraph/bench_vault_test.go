package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestBenchVault(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it")
	}
	bin := testBinary(t)
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

// TestBenchSearchOnly runs `bench --vault DIR --index FILE --search -v`
// twice on a copy of testvault: one bench-search line each time, the
// slowest queries of each mode on stderr, the index kept and reused.
func TestBenchSearchOnly(t *testing.T) {
	vault := filepath.Join(t.TempDir(), "tv")
	if err := os.CopyFS(vault, os.DirFS("../../testvault")); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "search.db")
	re := regexp.MustCompile(`^bench-search notes=[1-9]\d* embedded=[1-9]\d* chunks=\d+ .*queries=[1-9]\d* keyword_p50=\d+\.\d\dms keyword_p99=\d+\.\d\dms semantic_p50=\S+ semantic_p99=\S+ hybrid_p50=\S+ hybrid_p99=\S+$`)
	for run := range 2 {
		out, errOut, code := runCLI(t, "bench", "--vault", vault, "--index", index, "--search", "-v")
		if code != 0 {
			t.Fatalf("run %d: bench --vault --index --search = exit %d, stderr %q", run, code, errOut)
		}
		if !re.MatchString(strings.TrimSuffix(out, "\n")) || strings.Count(out, "\n") != 1 {
			t.Errorf("run %d: stdout = %q, want one line matching %s", run, out, re)
		}
		for _, mode := range []string{"keyword", "semantic", "hybrid"} {
			if !strings.Contains(errOut, "bench: slow "+mode+" ") {
				t.Errorf("run %d: stderr lists no slow %s query: %q", run, mode, errOut)
			}
		}
		if _, err := os.Stat(index); err != nil {
			t.Errorf("run %d: the index is not kept: %v", run, err)
		}
	}
}
