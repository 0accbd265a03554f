package vaultgraph

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/vault"
)

// TestResolveChanged: resolving a note's links again reports a change,
// keeps the note's slices when nothing changed and gives it new ones
// when something did, the same on packed links.
func TestResolveChanged(t *testing.T) {
	links := []vault.Link{{Kind: vault.KindWiki, Target: "B"}, {Kind: vault.KindEmbed, Target: "pic.png"}, {Kind: vault.KindWiki, Target: "Gone"}}
	x := vault.NewIndex()
	x.AddNote("A.md")
	x.AddNote("B.md")
	for _, packed := range []bool{false, true} {
		ns := &noteState{note: &vault.Note{ID: "A.md", Links: slices.Clone(links)}}
		if packed {
			ns.lazy, ns.note.Links = newLazyLinks(new(store.LinkPacker).Pack(links)), nil
		}
		if !resolveChanged(x, ns) {
			t.Errorf("packed=%v: first resolution: resolveChanged = false, want true", packed)
		}
		want := []string{"B.md", "", ""}
		if !slices.Equal(ns.resolved, want) || !slices.Equal(ns.status, []vault.Status{vault.Resolved, vault.Attachment, vault.Broken}) {
			t.Errorf("packed=%v: resolved %q %q, want %q and resolved, attachment, broken", packed, ns.resolved, ns.status, want)
		}
		before := ns.resolved
		if resolveChanged(x, ns) || &ns.resolved[0] != &before[0] {
			t.Errorf("packed=%v: nothing changed: resolveChanged = true or new slices", packed)
		}
		x.AddNote("Gone.md")
		if !resolveChanged(x, ns) || ns.resolved[2] != "Gone.md" || ns.status[2] != vault.Resolved || before[2] != "" {
			t.Errorf("packed=%v: after the note appeared: %q %q, and the old slices %q must stay as they were", packed, ns.resolved, ns.status, before)
		}
		x.RemoveNote("Gone.md")
	}
}

// TestIDLists files IDs under keys in any order, twice, and drops them:
// each key's IDs stay sorted and unique, and a key with none left goes.
func TestIDLists(t *testing.T) {
	m := idLists{}
	for _, id := range []string{"c.md", "a.md", "b.md", "a.md", "c.md"} {
		m.add("k", id)
	}
	m.add("other", "z.md")
	if got, want := m["k"], []string{"a.md", "b.md", "c.md"}; !slices.Equal(got, want) {
		t.Errorf("after the adds k = %q, want %q", got, want)
	}
	m.drop("k", "b.md")
	m.drop("k", "nope.md")
	m.drop("missing", "a.md")
	if got, want := m["k"], []string{"a.md", "c.md"}; !slices.Equal(got, want) {
		t.Errorf("after the drops k = %q, want %q", got, want)
	}
	m.drop("other", "z.md")
	if _, ok := m["other"]; ok || len(m) != 1 {
		t.Errorf("after dropping its only ID, other is still there: %q", m)
	}
}

// TestIndexOnlySlim: a cold index of several chunks with
// Options.IndexOnly keeps no note's headings, properties or block IDs
// once written, and writes the same index file as a run without it,
// which keeps them.
func TestIndexOnlySlim(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	open := func(indexOnly bool) (*Engine, string) {
		opts := Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db"), IndexOnly: indexOnly}
		WithIndexChunkSize(&opts, 3)
		e := New(opts)
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e, opts.Index
	}
	details := func(e *Engine) (n int) {
		e.mu.RLock()
		defer e.mu.RUnlock()
		for _, ns := range e.notes {
			n += len(ns.note.Headings) + len(ns.note.Properties) + len(ns.note.BlockIDs)
		}
		return n
	}
	full, fullPath := open(false)
	lean, leanPath := open(true)
	if n := details(full); n == 0 {
		t.Fatal("the test vault's notes hold no headings, properties or block IDs")
	}
	if n := details(lean); n != 0 {
		t.Errorf("IndexOnly: the notes hold %d headings, properties and block IDs, want 0", n)
	}
	if got, want := lean.Report().Notes, full.Report().Notes; got != want {
		t.Errorf("IndexOnly: Report().Notes = %d, want %d", got, want)
	}
	for _, e := range []*Engine{full, lean} {
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	want, err := DumpIndexFile(fullPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DumpIndexFile(leanPath)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("IndexOnly: the index file differs from one written without it:\n got  %.3000s\n want %.3000s", got, want)
	}
}

// TestLinkSlabs: the per-link slices of a chunk's notes are cut from one
// slab, one after the other, each capped at its note's links (no append
// reaches the next note's), and a note with more links than the slabs
// hold left gets slices of its own.
func TestLinkSlabs(t *testing.T) {
	all, allStatus := make([]string, 5), make([]vault.Status, 5)
	s := linkSlabs{resolved: all, status: allStatus, n: 20}
	r1, st1 := s.take(2)
	r2, st2 := s.take(3)
	if len(r1) != 2 || cap(r1) != 2 || len(st1) != 2 || cap(st1) != 2 || len(r2) != 3 || cap(r2) != 3 || len(st2) != 3 || cap(st2) != 3 {
		t.Fatalf("lengths and caps %d/%d %d/%d, %d/%d %d/%d, want 2/2 2/2, 3/3 3/3", len(r1), cap(r1), len(st1), cap(st1), len(r2), cap(r2), len(st2), cap(st2))
	}
	if &r1[0] != &all[0] || &r2[0] != &all[2] || &st1[0] != &allStatus[0] || &st2[0] != &allStatus[2] {
		t.Errorf("the slices are not cut from the slabs in turn")
	}
	r3, st3 := s.take(1)
	r3[0], st3[0] = "C.md", vault.Resolved
	if len(r3) != 1 || len(st3) != 1 || slices.Contains(all, "C.md") || slices.Contains(allStatus, vault.Resolved) {
		t.Errorf("a note past the slabs: %q %q, slabs %q %q; want slices of its own", r3, st3, all, allStatus)
	}
}
