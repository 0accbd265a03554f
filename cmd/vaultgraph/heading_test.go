package main

import (
	"strings"
	"testing"
)

func TestUpdateNodeRenameHeadingCommand(t *testing.T) {
	w := newWriteEnv(t)
	before := snapshot(t, w.dir)

	out := w.ok(t, "update-node", "Beta", "--rename-heading", "goals=Aims & Goals", "--dry-run")
	if !strings.HasPrefix(out, "dryRun: true\n") || !strings.Contains(out, "  Home.md,12,\"[[Beta#Goals]]\",\"[[Beta#Aims & Goals]]\"\n") {
		t.Errorf("update-node --rename-heading --dry-run =\n%s\nwant the links table", out)
	}
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Errorf("--dry-run changed %q", got)
	}

	for _, args := range [][]string{
		{"update-node", "Beta", "--rename-heading", "Nope=X"},
		{"update-node", "Beta", "--rename-heading", "Goals"},
		{"update-node", "Beta", "--rename-heading", "=X"},
		{"update-node", "Beta", "--rename-heading", "Goals="},
		{"update-node", "Beta", "--rename-heading", "Goals=X", "--content", "x"},
	} {
		w.fail(t, "INVALID_PARAMS", args...)
	}
	if got := changed(before, snapshot(t, w.dir)); got != nil {
		t.Errorf("refused commands changed %q", got)
	}

	w.ok(t, "update-node", "Beta", "--rename-heading", "goals=Aims & Goals")
	after := snapshot(t, w.dir)
	if want := strings.Replace(before["Projects/Beta.md"], "## Goals\n", "## Aims & Goals\n", 1); after["Projects/Beta.md"] != want {
		t.Errorf("Projects/Beta.md =\n%s\nwant\n%s", after["Projects/Beta.md"], want)
	}
	for _, p := range []string{"Home.md", "Projects/Alpha Plan.md"} {
		if want := strings.ReplaceAll(before[p], "[[Beta#Goals", "[[Beta#Aims & Goals"); after[p] != want {
			t.Errorf("%s =\n%s\nwant\n%s", p, after[p], want)
		}
	}
}
