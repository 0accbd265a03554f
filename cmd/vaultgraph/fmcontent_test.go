package main

// Tests of content that carries its own frontmatter, on the command line.

import (
	"slices"
	"strings"
	"testing"
)

func TestCreateNodeCommandWholeText(t *testing.T) {
	w := newWriteEnv(t)
	// The case: the content's tag x is replaced by --tags y, and
	// the answer says so.
	got := decode[written](t, w.ok(t, "create-node", "X", "--content", "---\ntags: [x]\n---\nBody", "--tags", "y", "--format", "json"))
	if want := "tags [x] from the content's frontmatter replaced by tags [y]"; !slices.Contains(got.Warnings, want) {
		t.Errorf("create-node warnings = %q, want %q", got.Warnings, want)
	}
	if got, want := w.file(t, "X.md"), "---\ntags:\n  - y\n---\nBody\n"; got != want {
		t.Errorf("X.md = %q, want %q", got, want)
	}
	// Sent back whole, with one body line changed: one block.
	text := w.file(t, "X.md")
	edited := strings.Replace(text, "Body", "Body #inline", 1)
	w.ok(t, "update-node", "X", "--content", edited)
	if got := w.file(t, "X.md"); got != edited {
		t.Errorf("X.md after update-node --content (whole text) = %q, want %q", got, edited)
	}
	got = decode[written](t, w.ok(t, "update-node", "X", "--tags", "z", "--format", "json"))
	if want := "#inline is written in the body and stays"; !slices.Contains(got.Warnings, want) {
		t.Errorf("update-node --tags warnings = %q, want %q", got.Warnings, want)
	}
	before := snapshot(t, w.dir)
	w.fail(t, "INVALID_PARAMS", "update-node", "X", "--content", "---\ntags: [x\n---\nBody")
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Errorf("a refused update-node changed %q", got)
	}
}
