package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// TestRepairLinks is README's example: a note renamed with mv between two
// commands breaks five links; repair-links lists them, then rewrites them.
func TestRepairLinks(t *testing.T) {
	w := newWriteEnv(t)
	w.ok(t, "vault-status")
	if err := os.Rename(filepath.Join(w.dir, "Projects/Beta.md"), filepath.Join(w.dir, "Projects/Beta Renamed.md")); err != nil {
		t.Fatal(err)
	}
	if out := w.ok(t, "vault-status"); !strings.Contains(out, "brokenLinks: 7\n") || !strings.Contains(out, "renameRepairs: 1\n") {
		t.Errorf("vault-status after mv:\n%s\nwant brokenLinks: 7, renameRepairs: 1", out)
	}
	before := snapshot(t, w.dir)
	dry := w.ok(t, "repair-links")
	for _, want := range []string{
		"repairs[1]{from,to,links,state}:\n  Projects/Beta.md,Projects/Beta Renamed.md,5,ready\n",
		"dryRun: true\n",
		`Notes/Meeting Notes.md,6,"[[Beta]]","[[Beta Renamed]]"`,
	} {
		if !strings.Contains(dry, want) {
			t.Errorf("repair-links (dry run):\n%s\nwant it to hold %q", dry, want)
		}
	}
	if c := changed(before, snapshot(t, w.dir)); len(c) > 0 {
		t.Fatalf("a dry run changed %q", c)
	}
	w.fail(t, "NODE_NOT_FOUND", "repair-links", "Nope", "--apply")
	w.ok(t, "repair-links", "--apply")
	if c := changed(before, snapshot(t, w.dir)); strings.Join(c, ",") != "~Home.md,~Notes/Meeting Notes.md,~Projects/Alpha Plan.md" {
		t.Errorf("repair-links --apply changed %q", c)
	}
	if out := w.ok(t, "vault-status"); !strings.Contains(out, "brokenLinks: 2\n") || !strings.Contains(out, "renameRepairs: 0\n") {
		t.Errorf("vault-status after repair-links --apply:\n%s\nwant brokenLinks: 2, renameRepairs: 0", out)
	}
	if out := w.ok(t, "repair-links"); !strings.HasPrefix(out, "repairs: []\n") {
		t.Errorf("repair-links after the repair = %q, want no repairs", out)
	}
}

// TestServeFollowRenames runs `serve --follow-renames`: a note renamed
// with mv while it serves has its links rewritten by the server itself.
func TestServeFollowRenames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	vaultDir := copyVault(t)
	var stderr lockedBuffer
	env, _ := serveEnv(t)
	c, err := client.NewStdioMCPClientWithOptions(bin, env, []string{"serve", "--follow-renames", vaultDir},
		transport.WithCommandStderrWriter(&stderr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	initialize(t, c)
	waitText := func(what string, ok func() bool) {
		t.Helper()
		for start := time.Now(); !ok(); time.Sleep(50 * time.Millisecond) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s: not within 10s\n%s", what, stderr.String())
			}
		}
	}
	waitText("watcher running", func() bool {
		text, _ := call(t, c, "vault_status", map[string]any{"format": "json"})
		return strings.Contains(text, `"watcher":"running"`)
	})
	if err := os.Rename(filepath.Join(vaultDir, "Projects/Beta.md"), filepath.Join(vaultDir, "Projects/Beta Renamed.md")); err != nil {
		t.Fatal(err)
	}
	waitText("links to Beta rewritten", func() bool {
		b, err := os.ReadFile(filepath.Join(vaultDir, "Home.md"))
		return err == nil && strings.Contains(string(b), "[[Beta Renamed#Goals]]")
	})
	waitText("vault_status back to 2 broken links", func() bool {
		text, _ := call(t, c, "vault_status", map[string]any{"fields": []string{"brokenLinks", "renameRepairs"}})
		return text == "brokenLinks: 2\nrenameRepairs: 0"
	})
}
