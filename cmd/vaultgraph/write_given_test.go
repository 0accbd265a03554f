package main

// Tests of the "not given" rule on the write commands: a flag set to ""
// is the same as a flag left out (as "" is over MCP), and --directory /
// names the vault root.

import (
	"slices"
	"strings"
	"testing"
)

func TestUpdateNodeEmptyFlags(t *testing.T) {
	const meeting = "Notes/Meeting Notes.md"
	w := newWriteEnv(t)
	before := snapshot(t, w.dir)

	errOut := w.fail(t, "INVALID_PARAMS", "update-node", "Notes/Meeting Notes",
		"--directory", "", "--title", "", "--content", "", "--if-match", "", "--format", "")
	if !strings.Contains(errOut, "nothing to change") {
		t.Errorf("update-node with only empty flags: stderr %q, want \"nothing to change\"", errOut)
	}
	if d := changed(before, snapshot(t, w.dir)); d != nil {
		t.Errorf("update-node with only empty flags changed %q", d)
	}

	w.ok(t, "update-node", "Notes/Meeting Notes", "--directory", "", "--title", "", "--content", "", "--property", "status=done")
	after := snapshot(t, w.dir)
	if d := changed(before, after); !slices.Equal(d, []string{"~" + meeting}) {
		t.Errorf("update-node --directory \"\" --property status=done changed %q, want only ~%s", d, meeting)
	}
	if got := after[meeting]; !strings.Contains(got, "status: done\n") || !strings.Contains(got, "# Meeting Notes") {
		t.Errorf("%s =\n%s\nwant status done and its body kept", meeting, got)
	}

	got := decode[written](t, w.ok(t, "update-node", "Notes/Meeting Notes", "--directory", "/", "--format", "json"))
	if got.ID != "Meeting Notes.md" || len(got.Links) == 0 {
		t.Errorf("update-node --directory / = %+v, want Meeting Notes.md with links rewritten", got)
	}
	want := []string{"+Meeting Notes.md", "-" + meeting, "~Home.md", "~Projects/Alpha Plan.md"}
	if d := changed(after, snapshot(t, w.dir)); !slices.Equal(d, want) {
		t.Errorf("update-node --directory / changed %q, want %q", d, want)
	}
}

func TestCreateNodeRootDirectory(t *testing.T) {
	w := newWriteEnv(t)
	before := snapshot(t, w.dir)
	w.ok(t, "create-node", "Rooted", "--directory", "/", "--content", "x")
	w.ok(t, "create-node", "Plain", "--directory", "", "--content", "", "--format", "")
	if d := changed(before, snapshot(t, w.dir)); !slices.Equal(d, []string{"+Plain.md", "+Rooted.md"}) {
		t.Errorf("create-node --directory / and \"\" changed %q, want +Plain.md and +Rooted.md", d)
	}
}

// TestPropertyFlagEmpty checks that --property "" is not given, in
// update-node as in list-nodes.
func TestPropertyFlagEmpty(t *testing.T) {
	w := newWriteEnv(t)
	before := snapshot(t, w.dir)
	if errOut := w.fail(t, "INVALID_PARAMS", "update-node", "Orphan", "--property", ""); !strings.Contains(errOut, "nothing to change") {
		t.Errorf("update-node --property \"\": stderr %q, want \"nothing to change\"", errOut)
	}
	if d := changed(before, snapshot(t, w.dir)); d != nil {
		t.Errorf("update-node --property \"\" changed %q", d)
	}
	if got, want := w.ok(t, "list-nodes", "--property", ""), w.ok(t, "list-nodes"); got != want {
		t.Errorf("list-nodes --property \"\" =\n%s\nwant as without it:\n%s", got, want)
	}
}
