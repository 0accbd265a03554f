package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRenameEditDuringCLI is the issue's repro: `vaultgraph update-node
// Target --title Renamed` over a note with 1,000 incoming links, and the
// user appending a line to one linking note while the command runs. The
// line is never lost: the rename is CONFLICT (vault unchanged but for the
// edit), or the edit came before the rename read the note (its link is
// rewritten, the line kept) or after it was rewritten (the line appended
// to the new version).
func TestRenameEditDuringCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and renames over 1,000 notes")
	}
	bin := testBinary(t)
	const n = 1000
	const edited = "Notes/Note 0500.md"
	const line = "USER EDIT\n"
	// when: how the edit is timed. "lock": as soon as the rename's commit
	// holds the vault's write lock (after it read every note), the moment
	// the edit used to be lost; otherwise a fixed delay after the start.
	for _, when := range []string{"lock", "0ms", "150ms", "400ms"} {
		t.Run(when, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "vault")
			files := map[string]string{"Target.md": "# Target\n"}
			for i := range n {
				files[fmt.Sprintf("Notes/Note %04d.md", i)] = fmt.Sprintf("Note %d links to [[Target]].\n", i)
			}
			for rel, content := range files {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, "update-node", "Target", "--title", "Renamed", "--vault", dir, "--index", filepath.Join(t.TempDir(), "index.db"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var runErr error
			finished := false
			if when == "lock" {
				lock := filepath.Join(dir, ".vaultgraph", "write.lock")
			poll:
				for {
					select {
					case runErr = <-done:
						finished = true
						break poll
					default:
					}
					if _, err := os.Stat(lock); err == nil {
						break
					}
					time.Sleep(200 * time.Microsecond)
				}
				if finished {
					t.Fatalf("update-node ended before it took the write lock: %v\n%s", runErr, stderr.String())
				}
			} else {
				d, _ := time.ParseDuration(when)
				time.Sleep(d)
			}
			f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(edited)), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString(line); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			if !finished {
				runErr = <-done
			}
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(edited)))
			if err != nil {
				t.Fatal(err)
			}
			var exit *exec.ExitError
			switch {
			case runErr == nil:
				if !strings.Contains(string(got), line) || !strings.Contains(string(got), "[[Renamed]]") {
					t.Errorf("update-node succeeded and %s = %q, want its link rewritten and the user's line kept", edited, got)
				}
			case errors.As(runErr, &exit) && strings.Contains(stderr.String(), "CONFLICT"):
				want := files[edited] + line
				if string(got) != want {
					t.Errorf("update-node was CONFLICT and %s = %q, want %q", edited, got, want)
				}
				if !strings.Contains(stderr.String(), edited+" changed on disk while the rename was prepared") {
					t.Errorf("update-node said %q, want it to name %s", stderr.String(), edited)
				}
				if _, err := os.Stat(filepath.Join(dir, "Target.md")); err != nil {
					t.Errorf("after CONFLICT Target.md: %v", err)
				}
			default:
				t.Fatalf("update-node = %v\n%s", runErr, stderr.String())
			}
			if when == "lock" && runErr == nil {
				t.Errorf("update-node with %s edited while it held the write lock succeeded, want CONFLICT", edited)
			}
			t.Logf("%s: update-node = %v %s", when, runErr, strings.TrimSpace(stderr.String()))
		})
	}
}
