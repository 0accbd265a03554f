package vaultgraph_test

import (
	"context"
	"os"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// TestKeepCachesAfterWrites: an engine that wrote notes (create, edit,
// rename with link rewriting, delete) leaves the snapshot and graph
// caches current when it closes, and the next start taken from them
// answers exactly as a clean start from the files.
func TestKeepCachesAfterWrites(t *testing.T) {
	ctx := context.Background()
	gen, _ := ixVault(t, 200, 3)
	for _, dir := range []string{testutil.CopyTestVault(t), gen} {
		path := ixIndexPath(t)
		e := ixOpen(t, dir, vaultgraph.Options{Index: path})
		ids := ixNoteFiles(t, dir)
		if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "Kept Note", Content: "Links to [[" + ixName(ids[0]) + "]] and [[Nowhere]].", Tags: []string{"kept"}}); err != nil {
			t.Fatal(err)
		}
		body := "Now about [[Kept Note]] and [[" + ixName(ids[1]) + "]]."
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: ids[2], Content: &body}); err != nil {
			t.Fatal(err)
		}
		title := "Renamed " + ixName(ids[0])
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: ids[0], Title: &title}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DeleteNode(ctx, ids[3], ""); err != nil {
			t.Fatal(err)
		}
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		before, err := os.Stat(path + ".snap")
		if err != nil {
			t.Fatalf("%s: no snapshot cache after the writes: %v", dir, err)
		}
		warm := ixOpen(t, dir, vaultgraph.Options{Index: path})
		if after, err := os.Stat(path + ".snap"); err != nil || !os.SameFile(before, after) {
			t.Errorf("%s: the start after the writes wrote the snapshot cache again: it was stale", dir)
		}
		if !warm.GraphFromCache() {
			t.Errorf("%s: the start after the writes built the graph: the caches were not kept", dir)
		}
		if r := warm.Report(); r.Parsed != 0 {
			t.Errorf("%s: the start after the writes parsed %d notes, want 0", dir, r.Parsed)
		}
		full := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
		if got, want := warm.DumpState(), full.DumpState(); got != want {
			t.Errorf("%s: a start from the kept caches differs from a clean start:\n%s", dir, testutil.Clip(lineDiff(got, want)))
		}
		ixCheckIndex(t, "start from the kept caches", warm)
	}
}

// TestKeepCachesAhead: a cold index in several chunks writes the
// snapshot and graph caches with its last batch, before Open returns;
// Close leaves them as they are, and the next start takes both and
// answers exactly as a clean start from the files.
func TestKeepCachesAhead(t *testing.T) {
	dir, _ := ixVault(t, 300, 7)
	path := ixIndexPath(t)
	opts := vaultgraph.Options{Index: path}
	vaultgraph.WithIndexChunkSize(&opts, 64)
	e := ixOpen(t, dir, opts)
	snap, err := os.Stat(path + ".snap")
	if err != nil {
		t.Fatalf("no snapshot cache after the cold index, before Close: %v", err)
	}
	graph, err := os.Stat(path + ".graph")
	if err != nil {
		t.Fatalf("no graph cache after the cold index, before Close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	for name, before := range map[string]os.FileInfo{".snap": snap, ".graph": graph} {
		if after, err := os.Stat(path + name); err != nil || !os.SameFile(before, after) {
			t.Errorf("Close wrote the %s cache again", name)
		}
	}
	warm := ixOpen(t, dir, vaultgraph.Options{Index: path})
	if after, err := os.Stat(path + ".snap"); err != nil || !os.SameFile(snap, after) {
		t.Error("the start after the index wrote the snapshot cache again: it was stale")
	}
	if !warm.GraphFromCache() {
		t.Error("the start after the index built the graph: the graph cache was stale")
	}
	if r := warm.Report(); r.Parsed != 0 {
		t.Errorf("the start after the index parsed %d notes, want 0", r.Parsed)
	}
	full := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
	if got, want := warm.DumpState(), full.DumpState(); got != want {
		t.Errorf("a start from the caches kept ahead differs from a clean start:\n%s", testutil.Clip(lineDiff(got, want)))
	}
	ixCheckIndex(t, "start from the caches kept ahead", warm)
}
