package mcp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestUpdateNodeDryRunCanvas checks that a rename's dry run over MCP
// lists the excluded notes and the canvases it would rewrite, with their
// links, and writes nothing.
func TestUpdateNodeDryRunCanvas(t *testing.T) {
	ts := newTestServer(t)
	for rel, data := range map[string]string{
		"Board.canvas":        `{"nodes":[{"id":"h","type":"file","file":"Home.md","subpath":"#Projects"},{"id":"t","type":"text","text":"Back to [[Home]]"}],"edges":[]}`,
		"Ignored/Plan.canvas": `{"nodes":[{"id":"h","type":"file","file":"Home.md"}]}`,
	} {
		p := filepath.Join(ts.dir, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Board.canvas is an attachment the engine learns of from the watcher.
	if err := ts.engine.Sync(context.Background(), "Board.canvas"); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, ts.dir)
	w := ts.write(t, "update_node", map[string]any{"id": "Home", "title": "Start", "dryRun": true})
	if got := diffSnapshots(before, snapshot(t, ts.dir)); len(got) > 0 {
		t.Errorf("the dry run changed %q", got)
	}
	for _, want := range []fileRow{
		{Path: "Board.canvas", Action: "update", Links: 2},
		{Path: "Ignored/Hidden.md", Action: "update", Links: 1},
		{Path: "Ignored/Plan.canvas", Action: "update", Links: 1},
	} {
		if !slices.Contains(w.Files, want) {
			t.Errorf("dry run files = %+v, want %+v among them", w.Files, want)
		}
	}
	for _, want := range []linkRow{
		{Path: "Board.canvas", Line: 1, Old: `"Home.md"`, New: `"Start.md"`},
		{Path: "Board.canvas", Line: 1, Old: "[[Home]]", New: "[[Start]]"},
		{Path: "Ignored/Hidden.md", Line: 3, Old: "[[Home]]", New: "[[Start]]"},
		{Path: "Ignored/Plan.canvas", Line: 1, Old: `"Home.md"`, New: `"Start.md"`},
	} {
		if !slices.Contains(w.Links, want) {
			t.Errorf("dry run links = %+v, want %+v among them", w.Links, want)
		}
	}
}
