package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// genVault generates a vault of n notes in a temporary folder.
func genVault(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: n, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// indexLine matches the summary line of `vaultgraph index`.
var indexLine = regexp.MustCompile(`^indexed (\d+) notes \((\d+) parsed, (\d+) unchanged, (\d+) removed\), \d+ links, \d+ broken, (\d+) problems in \S+ -> (.+)\n$`)

// runIndex runs `vaultgraph index` in-process with stderr going to a
// file (not a terminal), and returns the summary's counts and stderr.
func runIndex(t *testing.T, args ...string) (counts []string, index, stderr string) {
	t.Helper()
	errFile, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	var out strings.Builder
	code := run(t.Context(), append([]string{"index"}, args...), &out, errFile)
	errOut, err := os.ReadFile(errFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("index %q = exit %d, stderr %q", args, code, errOut)
	}
	m := indexLine.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("index %q printed %q, want one summary line", args, out.String())
	}
	return m[1:6], m[6], string(errOut)
}

func TestIndexCommand(t *testing.T) {
	vault := genVault(t, 60)
	index := filepath.Join(t.TempDir(), "custom", "my index.db")
	envIndex := os.Getenv(EnvIndex) // TestMain's
	envBefore, _ := os.Stat(envIndex)

	steps := []struct {
		desc string
		args []string
		edit func()
		want string // notes, parsed, unchanged, removed, problems
	}{
		{desc: "cold", args: []string{vault}, want: "60 60 0 0 0"},
		{desc: "warm", args: []string{vault}, want: "60 0 60 0 0"},
		{desc: "--vault instead of the argument", args: []string{"--vault", vault}, want: "60 0 60 0 0"},
		{desc: "--full parses everything again", args: []string{vault, "--full"}, want: "60 60 0 0 0"},
		{desc: "after edits", args: []string{vault}, edit: func() {
			notes, err := notePaths(vault)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(notes[0]); err != nil {
				t.Fatal(err)
			}
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(notes[1], later, later); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(vault, "New.md"), []byte("# New\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, want: "60 1 59 1 0"}, // the touched note has the same content: read, not parsed
	}
	for _, s := range steps {
		if s.edit != nil {
			s.edit()
		}
		counts, got, stderr := runIndex(t, append(s.args, "--index", index)...)
		if strings.Join(counts, " ") != s.want {
			t.Errorf("%s: notes, parsed, unchanged, removed, problems = %v, want %s", s.desc, counts, s.want)
		}
		if got != index {
			t.Errorf("%s: the summary names index %q, want %q (--index)", s.desc, got, index)
		}
		// stderr is a file, not a terminal: no progress bar, and nothing
		// to warn about.
		if stderr != "" {
			t.Errorf("%s: stderr = %q, want nothing", s.desc, stderr)
		}
	}
	if _, err := os.Stat(index); err != nil {
		t.Errorf("--index %s: %v", index, err)
	}
	if _, err := os.Stat(filepath.Join(vault, ".vaultgraph")); err == nil {
		t.Errorf("with --index, %s/.vaultgraph was created", vault)
	}
	if envAfter, _ := os.Stat(envIndex); (envBefore == nil) != (envAfter == nil) ||
		envBefore != nil && !envAfter.ModTime().Equal(envBefore.ModTime()) {
		t.Errorf("$%s's index %s was touched though --index was given", EnvIndex, envIndex)
	}

	t.Run("$VAULTGRAPH_INDEX", func(t *testing.T) {
		// Without --index the command uses $VAULTGRAPH_INDEX.
		env := filepath.Join(t.TempDir(), "env.db")
		t.Setenv(EnvIndex, env)
		counts, got, _ := runIndex(t, vault)
		if got != env || counts[1] != "60" {
			t.Errorf("index without --index: index %q, %s parsed; want $%s = %q, 60 parsed", got, counts[1], EnvIndex, env)
		}
	})

	t.Run("corrupt index", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "index.db")
		if err := os.WriteFile(bad, []byte(strings.Repeat("garbage ", 1000)), 0o644); err != nil {
			t.Fatal(err)
		}
		counts, _, stderr := runIndex(t, vault, "--index", bad)
		if counts[1] != "60" {
			t.Errorf("parsed %s notes, want all 60", counts[1])
		}
		if !strings.Contains(stderr, "index rebuilt") || !strings.Contains(stderr, ".broken-") {
			t.Errorf("stderr = %q, want a log line saying the index was set aside and rebuilt", stderr)
		}
	})

	t.Run("no such vault", func(t *testing.T) {
		_, errOut, code := runCLI(t, "index", filepath.Join(t.TempDir(), "nope"), "--index", index)
		if code != 1 || !strings.Contains(errOut, "INVALID_PARAMS") {
			t.Errorf("index of a missing folder = exit %d, stderr %q, want 1, INVALID_PARAMS", code, errOut)
		}
	})
}

// TestLimitIndexMemory: an index run sets a soft limit on the Go heap,
// unless $GOMEMLIMIT sets one.
func TestLimitIndexMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(math.MaxInt64)
	if got := limitIndexMemory(func(string) string { return "" }); got != indexMemoryLimit || debug.SetMemoryLimit(-1) != indexMemoryLimit {
		t.Errorf("without GOMEMLIMIT: limit %d, in force %d; want %d", got, debug.SetMemoryLimit(-1), indexMemoryLimit)
	}
	debug.SetMemoryLimit(1 << 40) // as the runtime sets GOMEMLIMIT=1TiB
	env := func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1TiB"
		}
		return ""
	}
	if got := limitIndexMemory(env); got != 1<<40 || debug.SetMemoryLimit(-1) != 1<<40 {
		t.Errorf("with GOMEMLIMIT: limit %d, in force %d; want GOMEMLIMIT's %d", got, debug.SetMemoryLimit(-1), int64(1<<40))
	}
}

// TestIndexGCPercent: an index run sets indexGCPercent, unless GOGC is
// set.
func TestIndexGCPercent(t *testing.T) {
	oldLimit := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(oldLimit)
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	limitIndexMemory(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != indexGCPercent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, indexGCPercent)
	}
	limitIndexMemory(func(k string) string {
		if k == "GOGC" {
			return "100"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100: GC percent %d, want GOGC's 100", got)
	}
}
