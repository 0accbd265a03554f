package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestBenchCold checks the bench-cold line of `bench --cold`: after the
// bench and bench-graph lines, the cold index with the builtin embedder, its sizes, ratio,
// rate, peak RSS and the bytes of each part of the index.
func TestBenchCold(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it")
	}
	bin := testBinary(t)
	out, errOut, code := runCLI(t, "bench", "--notes", "200", "--edits", "4", "--cold", "--dir", t.TempDir(), "--exe", bin)
	if code != 0 {
		t.Fatalf("bench --cold = exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 || !benchLine("200", "2", "4", rssPattern()).MatchString(lines[0]) || !graphLine("200").MatchString(lines[1]) {
		t.Fatalf("bench --cold stdout = %q, want the bench line, the bench-graph line and a bench-cold line", out)
	}
	lines = append(lines[:1], lines[2:]...)
	mib := `\d+\.\dMiB`
	re := regexp.MustCompile(`^bench-cold notes=200 parsed=\d+ embed=builtin markdown=` + mib + ` index_size=` + mib +
		` index_ratio=\d+\.\d\d cold_index=\d+\.\d\ds md_mb_per_s=\d+\.\d\d peak_rss=` + rssPattern() +
		` vectors=` + mib + ` fts=` + mib + ` text=` + mib + ` links=` + mib + ` notes=` + mib + ` other=` + mib + ` idle_rss_serve=` + rssPattern() + ` idle_rss_searched=` + rssPattern() + `$`)
	if !re.MatchString(lines[1]) {
		t.Errorf("bench-cold line = %q, want it to match %s", lines[1], re)
	}
	if strings.Contains(lines[1], "vectors=0.0MiB") {
		t.Errorf("bench-cold line = %q: the builtin embedder stored no vectors", lines[1])
	}
}
