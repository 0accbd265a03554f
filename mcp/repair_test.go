package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepairLinks renames a note on disk, lets the engine see it (Sync,
// as the watcher would), and repairs its links through repair_links: the
// dry run lists them, "" parameters are not given, apply rewrites them.
func TestRepairLinks(t *testing.T) {
	ts := newTestServer(t)
	if err := os.Rename(filepath.Join(ts.dir, "Projects/Beta.md"), filepath.Join(ts.dir, "Projects/Beta Renamed.md")); err != nil {
		t.Fatal(err)
	}
	if err := ts.engine.Sync(context.Background(), "Projects/Beta.md", "Projects/Beta Renamed.md"); err != nil {
		t.Fatal(err)
	}
	if text, _ := ts.call(t, "vault_status", nil); !strings.Contains(text, "renameRepairs: 1") {
		t.Errorf("vault_status = %s, want renameRepairs: 1", text)
	}
	text, isErr := ts.call(t, "repair_links", map[string]any{"from": "", "to": "", "apply": ""})
	want := "repairs[1]{from,to,links,state}:\n  Projects/Beta.md,Projects/Beta Renamed.md,5,ready\ndryRun: true\n"
	if isErr || !strings.HasPrefix(text, want) {
		t.Errorf("repair_links (dry run) = %s, want it to begin with %s", text, want)
	}
	if ts.file(t, "Home.md") == "" || !strings.Contains(ts.file(t, "Home.md"), "[[Beta#Goals]]") {
		t.Fatal("a dry run changed Home.md")
	}
	ts.wantError(t, CodeNodeNotFound, "repair_links", map[string]any{"from": "Nope", "apply": true})
	w := ts.callJSON(t, "repair_links", map[string]any{"from": "Beta", "apply": true})
	if files, links := w["files"].([]any), w["links"].([]any); len(files) != 3 || len(links) != 5 || w["dryRun"] != nil {
		t.Errorf("repair_links (apply) = %v, want 3 files and 5 links", w)
	}
	if !strings.Contains(ts.file(t, "Home.md"), "[[Beta Renamed#Goals]]") {
		t.Errorf("Home.md after repair_links:\n%s", ts.file(t, "Home.md"))
	}
	if text, _ := ts.call(t, "vault_status", nil); !strings.Contains(text, "renameRepairs: 0") || !strings.Contains(text, "brokenLinks: 2") {
		t.Errorf("vault_status after the repair = %s, want renameRepairs: 0, brokenLinks: 2", text)
	}
}
