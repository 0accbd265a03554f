package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// benchLine matches one result line of `vaultgraph bench`; rss is the
// pattern of a peak RSS figure.
func benchLine(notes, touched, edits, rss string) *regexp.Regexp {
	sec, mib := `\d+\.\d\ds`, `\d+\.\dMiB`
	return regexp.MustCompile(`^bench notes=` + notes + ` cold_index=` + sec + ` warm_index=` + sec +
		` touch1pct_index=` + sec + ` touched=` + touched + ` index_size=` + mib +
		` peak_rss_cold=` + rss + ` peak_rss_warm=` + rss + ` peak_rss_touch=` + rss +
		` watch_p50=\d+ms watch_p99=\d+ms edits=` + edits + ` markdown=` + mib +
		` read_oneshot=` + sec + ` peak_rss_read=` + rss + ` read_served=` + sec + ` serve_init=` + sec +
		` serve_ready=` + sec + ` idle_rss_serve=(\d+\.\dMiB|n/a) idle_rss_watch=(\d+\.\dMiB|n/a)$`)
}

// graphLine matches a bench-graph line of a vault of notes.
func graphLine(notes string) *regexp.Regexp {
	ms := `\d+\.\d\dms`
	return regexp.MustCompile(`^bench-graph notes=` + notes + ` queries=200 related_p50=` + ms + ` related_p99=` + ms +
		` mentions_p50=` + ms + ` mentions_p99=` + ms + ` mentions_found=\d+$`)
}

// rssPattern is what a peak RSS figure looks like on this OS.
func rssPattern() string {
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		return `\d+\.\dMiB`
	}
	return `(\d+\.\dMiB|n/a)`
}

func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it")
	}
	bin := testBinary(t)

	t.Run("in-process", func(t *testing.T) {
		// The command runs here; its index passes run the built binary.
		work := t.TempDir()
		out, errOut, code := runCLI(t, "bench", "--notes", "200", "--edits", "6", "--dir", work, "--exe", bin)
		if code != 0 {
			t.Fatalf("bench = exit %d, stderr %q", code, errOut)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if re := benchLine("200", "2", "6", rssPattern()); len(lines) != 2 || !re.MatchString(lines[0]) || !graphLine("200").MatchString(lines[1]) {
			t.Errorf("bench stdout = %q, want a line matching %s and a bench-graph line", out, re)
		}
		for _, want := range []string{"generating 200 notes", "cold index:", "warm index:", "touching 1%", "external edits"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("bench stderr = %q, want progress with %q", errOut, want)
			}
		}
		if left, _ := os.ReadDir(work); len(left) != 0 {
			t.Errorf("without --keep, bench left %d entries in --dir", len(left))
		}
	})

	work := t.TempDir()
	t.Run("binary", func(t *testing.T) {
		cmd := exec.Command(bin, "bench", "--notes", "150,250", "--edits", "4", "--dir", work, "--keep")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("bench: %v\n%s", err, stderr.String())
		}
		lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("bench stdout = %q, want four lines", stdout.String())
		}
		for i, tt := range []struct{ notes, touched string }{{"150", "2"}, {"250", "3"}} {
			if re := benchLine(tt.notes, tt.touched, "4", rssPattern()); !re.MatchString(lines[2*i]) {
				t.Errorf("bench line %d = %q, want it to match %s", 2*i+1, lines[2*i], re)
			}
			if re := graphLine(tt.notes); !re.MatchString(lines[2*i+1]) {
				t.Errorf("bench line %d = %q, want it to match %s", 2*i+2, lines[2*i+1], re)
			}
		}
		for _, p := range []string{"vault-150", "index-150/index.db", "vault-250", "index-250/index.db"} {
			if _, err := os.Stat(filepath.Join(work, p)); err != nil {
				t.Errorf("with --keep: %v", err)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, args := range [][]string{
			{"--notes", "0"},
			{"--notes", "x"},
			{"--edits", "0"},
			{"--notes", "150", "--dir", work}, // vault-150 is kept from above
			{"extra"},
		} {
			out, errOut, code := runCLI(t, append([]string{"bench", "--exe", bin}, args...)...)
			if code != 1 || out != "" || !strings.Contains(errOut, "INVALID_PARAMS") {
				t.Errorf("bench %q = exit %d, stdout %q, stderr %q; want 1, nothing, INVALID_PARAMS", args, code, out, errOut)
			}
		}
	})

	t.Run("help", func(t *testing.T) {
		out, _, code := runCLI(t, "bench", "--help")
		for _, want := range []string{"Usage:\n  vaultgraph bench", "--notes", "--dir", "--keep", "--edits", "cold_index", "watch_p99", "peak_rss"} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("bench --help = exit %d, %q; want it to explain %q", code, out, want)
			}
		}
		if strings.Contains(out, "--exe") {
			t.Errorf("bench --help shows the hidden --exe flag")
		}
	})
}

func TestMaxRSS(t *testing.T) {
	if got := maxRSS(nil); got != -1 {
		t.Errorf("maxRSS(nil) = %d, want -1", got)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	got := maxRSS(cmd.ProcessState)
	if runtime.GOOS == "linux" && (got < 1024 || got > 4<<20) {
		t.Errorf("maxRSS of a test binary = %d KiB, want between 1 MiB and 4 GiB", got)
	}
}

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	var hundred []int
	for i := 100; i >= 1; i-- {
		hundred = append(hundred, i)
	}
	tests := []struct {
		give []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 0.5, 0},
		{ms(7), 0.99, 7 * time.Millisecond},
		{ms(3, 1, 2), 0.5, 2 * time.Millisecond},
		{ms(hundred...), 0.5, 50 * time.Millisecond},
		{ms(hundred...), 0.99, 99 * time.Millisecond},
		{ms(hundred...), 1, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := percentile(tt.give, tt.p); got != tt.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tt.give, tt.p, got, tt.want)
		}
	}
}

func TestTouchNotes(t *testing.T) {
	vault := genVault(t, 250)
	before, err := notePaths(vault)
	if err != nil {
		t.Fatal(err)
	}
	n, err := touchNotes(vault, 100)
	if err != nil || n != 3 {
		t.Fatalf("touchNotes(250 notes, every 100th) = %d, %v; want 3", n, err)
	}
	for i, p := range before {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if touched := strings.Contains(string(src), "Touched by vaultgraph bench"); touched != (i%100 == 0) {
			t.Errorf("note %d (%s) touched = %v", i, filepath.Base(p), touched)
		}
	}
}
