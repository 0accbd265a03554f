package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkdownNotForged: the command line prints the answers MCP gives,
// so a note's title, name and tags cannot add a heading or a list item
// to a Markdown answer there either.
func TestMarkdownNotForged(t *testing.T) {
	w := newWriteEnv(t)
	note := "---\ntitle: \"Evil\\n\\n## Injected heading\\n- item\"\ntags: [\"x|y\"]\n---\nZebra text.\n"
	if err := os.WriteFile(filepath.Join(w.dir, "# Evil | <b>.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"get-node", "# Evil | <b>.md", "--format", "markdown"},
		{"search", "zebra", "--mode", "keyword", "--format", "markdown"},
		{"list-nodes", "--tags", "x|y", "--format", "markdown"},
		{"random-node", "--tags", "x|y"},
	} {
		out := w.ok(t, args...)
		headings := 0
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "#") {
				headings++
			}
			if strings.HasPrefix(line, "## Injected") || strings.HasPrefix(line, "- item") {
				t.Errorf("vaultgraph %q printed a line the note wrote: %q\n%s", args, line, out)
			}
		}
		if wantHeadings := map[bool]int{true: 1, false: 0}[args[0] == "get-node" || args[0] == "random-node"]; headings != wantHeadings {
			t.Errorf("vaultgraph %q printed %d headings, want %d:\n%s", args, headings, wantHeadings, out)
		}
	}
}
