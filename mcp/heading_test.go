package mcp

// Tests of update_node's renameHeading and of the warnings of a content
// update that drops a linked heading, on a copy of testvault.

import (
	"slices"
	"strings"
	"testing"
)

func TestUpdateNodeRenameHeading(t *testing.T) {
	ts := newTestServer(t)
	before := snapshot(t, ts.dir)
	rename := map[string]any{"from": "goals", "to": "Objectives: 2026"}

	dry := ts.write(t, "update_node", map[string]any{"id": "Beta", "renameHeading": rename, "dryRun": true})
	if got := diffSnapshots(before, snapshot(t, ts.dir)); got != nil {
		t.Errorf("a dry run changed %q", got)
	}
	wantLinks := []linkRow{
		{Path: "Home.md", Line: 12, Old: "[[Beta#Goals]]", New: "[[Beta#Objectives 2026]]"},
		{Path: "Projects/Alpha Plan.md", Line: 18, Old: "[[Beta#Goals|Beta's goals]]", New: "[[Beta#Objectives 2026|Beta's goals]]"},
	}
	if !dry.DryRun || !slices.Equal(dry.Links, wantLinks) {
		t.Errorf("dry run = %+v, want the links %+v", dry, wantLinks)
	}

	w := ts.write(t, "update_node", map[string]any{"id": "Beta", "renameHeading": rename})
	if w.ID != "Projects/Beta.md" || !slices.Equal(w.Links, wantLinks) {
		t.Errorf("update_node(renameHeading) = %+v, want the links %+v", w, wantLinks)
	}
	if got := ts.file(t, "Projects/Beta.md"); !strings.Contains(got, "\n## Objectives: 2026\n") || strings.Contains(got, "## Goals") {
		t.Errorf("Projects/Beta.md = %q, want its heading renamed", got)
	}
	changed := diffSnapshots(before, snapshot(t, ts.dir))
	if want := []string{"~Home.md", "~Projects/Alpha Plan.md", "~Projects/Beta.md"}; !slices.Equal(changed, want) {
		t.Errorf("changed files = %q, want %q", changed, want)
	}
	for _, p := range []string{"Home.md", "Projects/Alpha Plan.md"} {
		if got := ts.file(t, p); !strings.Contains(got, "[[Beta#Objectives 2026") || strings.Contains(got, "Beta#Goals") {
			t.Errorf("%s = %q, want its link to the heading rewritten", p, got)
		}
	}
}

func TestUpdateNodeRenameHeadingErrors(t *testing.T) {
	ts := newTestServer(t)
	before := snapshot(t, ts.dir)
	tests := []struct {
		desc string
		args map[string]any
		want string
	}{
		{"no such heading", map[string]any{"id": "Beta", "renameHeading": map[string]any{"from": "Nope", "to": "X"}}, `no heading "Nope"`},
		{"no to", map[string]any{"id": "Beta", "renameHeading": map[string]any{"from": "Goals"}}, "renameHeading.to is empty"},
		{"with content", map[string]any{"id": "Beta", "content": "x", "renameHeading": map[string]any{"from": "Goals", "to": "X"}}, "cannot be combined"},
		{"a string", map[string]any{"id": "Beta", "renameHeading": "Goals=X"}, "renameHeading"},
		{"empty: nothing to change", map[string]any{"id": "Beta", "renameHeading": map[string]any{"from": "", "to": ""}}, "nothing to change"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if msg := ts.wantError(t, CodeInvalidParams, "update_node", tt.args); !strings.Contains(msg, tt.want) {
				t.Errorf("update_node(%v) = %q, want it to say %q", tt.args, msg, tt.want)
			}
		})
	}
	if got := diffSnapshots(before, snapshot(t, ts.dir)); got != nil {
		t.Errorf("refused heading renames changed %q", got)
	}
}

func TestUpdateNodeContentDropsHeading(t *testing.T) {
	ts := newTestServer(t)
	w := ts.write(t, "update_node", map[string]any{"id": "Beta", "content": "# Beta\n\nNo goals any more.\n"})
	for _, want := range []string{
		`Home.md line 12: [[Beta#Goals]] now points at a missing heading "Goals"`,
		`Home.md line 12: [[Beta#^block1]] now points at a missing block "^block1"`,
		`Projects/Alpha Plan.md line 18: [[Beta#Goals]] now points at a missing heading "Goals"`,
	} {
		if !slices.Contains(w.Warnings, want) {
			t.Errorf("update_node(content) warnings = %q, want %q among them", w.Warnings, want)
		}
	}
	if got := ts.file(t, "Projects/Beta.md"); !strings.Contains(got, "No goals any more.") {
		t.Errorf("Projects/Beta.md = %q, want the content written anyway", got)
	}
}
