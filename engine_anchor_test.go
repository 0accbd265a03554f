package vaultgraph_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// anchorVault has a link for each anchor rule: Alpha.md links into
// Beta.md and into itself, Gamma.md only with anchors that resolve.
func anchorVault(t testing.TB) string {
	t.Helper()
	return makeVault(t, map[string]string{
		"Beta.md": "# Beta\n\n## Goals: Q1\n\nSome text ^para-1\n\n- item one ^li-1\n- item two\n\n> quote\n\n^alone\n\n# Plan\n\n### Steps\n",
		"Alpha.md": strings.Join([]string{
			"[[Beta#goals: q1]] case and punctuation",                                     // 1 ok
			"[[Beta#Goals Q1]] punctuation as a space",                                    // 2 ok
			"[[Beta#Goals   Q1|x]] spaces collapse",                                       // 3 ok
			"[[Beta#Beta#Goals Q1]] nested in order",                                      // 4 ok
			"[[Beta#Goals Q1#Beta]] nested out of order",                                  // 5 broken
			"[[Beta#Plan#Steps]] nested two levels down",                                  // 6 ok
			"[[Beta#^para-1]] [[Beta#^LI-1]] ![[Beta#^alone]]",                            // 7 ok
			"[[Beta#^nope]] missing block",                                                // 8 broken
			"[[Beta#Nope]] missing heading",                                               // 9 broken
			"[a](Beta.md#Goals%20Q1) [b](<Beta.md#No Such>)",                              // 10 ok, broken
			"[[#Local]] and [[#Missing]] and [c](#local)",                                 // 11 ok, broken, ok
			"![[pic.png#x]] [[doc.pdf#page=3]] [[Nowhere#x]] [d](https://example.com/#x)", // 12 not anchors
			"",
			"# Local",
			"",
		}, "\n"),
		"Gamma.md": "[[Beta#Plan]] [[Alpha#Local]]\n",
	})
}

// anchorState is what a client sees of broken anchors.
type anchorState struct {
	Warnings map[string][]string // note ID -> its broken-anchor warnings
	Count    int                 // Status.BrokenAnchors
	Listed   []string            // ListNodes{BrokenAnchors: true}
}

func anchorStateOf(t testing.TB, e *vaultgraph.Engine) anchorState {
	t.Helper()
	ctx := context.Background()
	st := anchorState{Warnings: map[string][]string{}}
	all, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: vaultgraph.MaxListLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range all.Nodes {
		for _, w := range mustNode(t, e, n.ID).Warnings {
			if strings.HasPrefix(w, "broken anchor") {
				st.Warnings[n.ID] = append(st.Warnings[n.ID], w)
			}
		}
	}
	s, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.Count = s.BrokenAnchors
	res, err := e.ListNodes(ctx, vaultgraph.ListQuery{BrokenAnchors: true, Limit: vaultgraph.MaxListLimit})
	if err != nil {
		t.Fatal(err)
	}
	st.Listed = nodeIDs(res.Nodes)
	return st
}

func TestBrokenAnchors(t *testing.T) {
	dir := anchorVault(t)
	e := openWriter(t, dir, false)
	got := anchorStateOf(t, e)
	want := anchorState{
		Warnings: map[string][]string{"Alpha.md": {
			`broken anchor [[Beta#Goals Q1#Beta]] on line 5: Beta has no heading "Beta" below "Goals Q1"`,
			`broken anchor [[Beta#^nope]] on line 8: Beta has no block ^nope`,
			`broken anchor [[Beta#Nope]] on line 9: Beta has no heading "Nope"`,
			`broken anchor [b](Beta.md#No Such) on line 10: Beta has no heading "No Such"`,
			`broken anchor [[#Missing]] on line 11: this note has no heading "Missing"`,
		}},
		Count:  5,
		Listed: []string{"Alpha.md"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("broken anchors =\n%+v\nwant\n%+v", got, want)
	}
	// A broken link with a fragment is a broken link, not a broken anchor.
	if n := mustNode(t, e, "Alpha"); !slices.Contains(n.Broken, "Nowhere") {
		t.Errorf("Alpha broken links = %q, want Nowhere", n.Broken)
	}
}

// TestBrokenAnchorsWarmStart: an engine that loads the index without
// parsing a note knows the same anchors as one that parsed them, and an
// index of schema 3 (no anchors) is upgraded by parsing its notes again.
func TestBrokenAnchorsWarmStart(t *testing.T) {
	dir := anchorVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	cold := ixOpen(t, dir, vaultgraph.Options{Index: index})
	want := anchorStateOf(t, cold)
	if want.Count != 5 {
		t.Fatalf("cold start: %d broken anchors, want 5", want.Count)
	}
	if err := cold.Close(); err != nil {
		t.Fatal(err)
	}
	warm := ixOpen(t, dir, vaultgraph.Options{Index: index})
	if r := warm.Report(); r.Parsed != 0 {
		t.Errorf("warm start parsed %d notes, want 0", r.Parsed)
	}
	if got := anchorStateOf(t, warm); !reflect.DeepEqual(got, want) {
		t.Errorf("warm start: %+v\nwant (cold start) %+v", got, want)
	}
	if err := warm.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(index))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"ALTER TABLE notes DROP COLUMN anchors", "PRAGMA user_version = 3"} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()
	old := ixOpen(t, dir, vaultgraph.Options{Index: index})
	if r := old.Report(); r.Parsed != 3 || r.Rebuilt != "" {
		t.Errorf("schema-3 index: parsed %d notes, rebuilt %q; want 3 parsed in place", r.Parsed, r.Rebuilt)
	}
	if got := anchorStateOf(t, old); !reflect.DeepEqual(got, want) {
		t.Errorf("after a schema-3 index: %+v\nwant %+v", got, want)
	}
}

// TestBrokenAnchorsLive: when the linked note loses a heading (an edit on
// disk, or update_node), the notes linking to it have a broken anchor;
// when it comes back, they do not.
func TestBrokenAnchorsLive(t *testing.T) {
	dir := makeVault(t, map[string]string{
		"Src.md":  "See [[Dst#Goals]] and [more](Dst.md#Goals)\n",
		"Dst.md":  "# Goals\n",
		"Self.md": "[[#Top]]\n\n# Top\n",
	})
	e := openWriter(t, dir, false)
	check := func(when string, count int, listed ...string) {
		t.Helper()
		st := anchorStateOf(t, e)
		if st.Count != count || !slices.Equal(st.Listed, listed) {
			t.Errorf("%s: %d broken anchors in %q, want %d in %q", when, st.Count, st.Listed, count, listed)
		}
		checkLikeReload(t, e)
	}
	check("at start", 0)

	write(t, dir, "Dst.md", "# Other\n")
	syncPaths(t, e, "Dst.md")
	check("heading removed on disk", 2, "Src.md")
	if w := anchorStateOf(t, e).Warnings["Src.md"]; len(w) != 2 || w[0] != `broken anchor [[Dst#Goals]] on line 1: Dst has no heading "Goals"` {
		t.Errorf("Src warnings = %q", w)
	}

	write(t, dir, "Dst.md", "# goals\n")
	syncPaths(t, e, "Dst.md")
	check("heading back on disk", 0)

	ctx := context.Background()
	for _, step := range []struct {
		when    string
		id      string
		content string
		count   int
		listed  []string
	}{
		{"heading removed by update_node", "Dst", "# Renamed\n", 2, []string{"Src.md"}},
		{"heading back by update_node", "Dst", "## Goals\n", 0, nil},
		{"own heading removed by update_node", "Self", "[[#Top]]\n", 1, []string{"Self.md"}},
	} {
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: step.id, Content: &step.content}); err != nil {
			t.Fatalf("%s: UpdateNode = %v", step.when, err)
		}
		check(step.when, step.count, step.listed...)
	}
}

// TestBrokenAnchorsWatch: an edit on disk that the watcher picks up
// breaks and mends the anchors of the notes linking to the edited note.
func TestBrokenAnchorsWatch(t *testing.T) {
	dir := makeVault(t, map[string]string{
		"Src.md": "See [[Dst#Goals: Q1]]\n",
		"Dst.md": "# Goals Q1\n",
	})
	w := startWatching(t, dir, watchFast)
	count := func() int {
		s, err := w.e.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return s.BrokenAnchors
	}
	if n := count(); n != 0 {
		t.Fatalf("at start: %d broken anchors, want 0", n)
	}
	write(t, dir, "Dst.md", "# Goals Q2\n")
	w.settle("heading renamed on disk", func() bool { return count() == 1 })
	write(t, dir, "Dst.md", "# Goals Q2\n\n## goals (q1)\n")
	w.settle("heading back on disk", func() bool { return count() == 0 })
}

// TestBrokenAnchorsGeneratedVault: a generated vault links only to
// headings its notes have (wikilinks, embeds, markdown links with %20,
// headings with punctuation), so no link is a broken anchor.
func TestBrokenAnchorsGeneratedVault(t *testing.T) {
	dir, _ := ixVault(t, 400, 7)
	e := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
	st := anchorStateOf(t, e)
	if st.Count != 0 || len(st.Listed) != 0 {
		t.Errorf("generated vault: %d broken anchors in %q, want none: %q", st.Count, st.Listed, st.Warnings)
	}
}
