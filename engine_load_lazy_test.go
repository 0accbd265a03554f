package vaultgraph_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// TestLazyLinks starts an engine from the snapshot cache, which leaves
// every note's links undecoded, after an edit made while no process ran,
// and checks it against an engine that parsed every file: first the reads
// that walk the links without decoding them (status, which looks at every
// link's anchor; backlinks, with the words around each link), then every
// note, then a rename, which rewrites the links in the other notes by
// their byte ranges: the files must come out byte for byte the same.
func TestLazyLinks(t *testing.T) {
	gen, _ := ixVault(t, 300, 11)
	for _, dir := range []string{testutil.CopyTestVault(t), gen} {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			ctx := context.Background()
			path := ixIndexPath(t)
			for range 2 { // the first start indexes, the second writes the caches
				if err := ixOpen(t, dir, vaultgraph.Options{Index: path}).Close(); err != nil {
					t.Fatal(err)
				}
			}
			target := mostLinked(t, dir)
			ids := ixNoteFiles(t, dir)
			edited := filepath.Join(dir, ids[0])
			if ids[0] == target {
				edited = filepath.Join(dir, ids[1])
			}
			b, err := os.ReadFile(edited)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(edited, append(b, "\n\nAlso [["+ixName(target)+"]] here.\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			twin := testutil.CopyDir(t, dir)

			e := ixOpen(t, dir, vaultgraph.Options{Index: path})
			if n := e.LazyLinkNotes(); n < len(ids)/2 {
				t.Fatalf("LazyLinkNotes() = %d of %d notes: the start did not use the cache", n, len(ids))
			}
			full := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
			if got, want := statusJSON(t, e), statusJSON(t, full); got != want {
				t.Errorf("Status() from the cache:\n%s\nwant\n%s", got, want)
			}
			for _, id := range []string{target, ids[len(ids)/2]} {
				got, gotWarn, err := e.Backlinks(ctx, id, 0)
				if err != nil {
					t.Fatal(err)
				}
				want, wantWarn, err := full.Backlinks(ctx, id, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) || gotWarn != wantWarn {
					t.Errorf("Backlinks(%q) = %+v %q, want %+v %q", id, got, gotWarn, want, wantWarn)
				}
				if id == target && len(got) < 2 {
					t.Errorf("Backlinks(%q): %d, want several", id, len(got))
				}
			}
			ixCompare(t, "start from the cache", ixAnswers(t, e), ixAnswers(t, full))
			if err := full.Close(); err != nil {
				t.Fatal(err)
			}

			other := ixOpen(t, twin, vaultgraph.Options{NoIndex: true})
			for _, eng := range []*vaultgraph.Engine{e, other} {
				if _, err := eng.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: target, Title: strp("Renamed Target")}); err != nil {
					t.Fatalf("rename %s: %v", target, err)
				}
			}
			if got, want := treeFiles(t, dir), treeFiles(t, twin); !maps.Equal(got, want) {
				for p, g := range got {
					if want[p] != g {
						t.Errorf("after the rename, %s differs from the rename by an engine that parsed every file:\n%s\nwant\n%s", p, testutil.Clip(g), testutil.Clip(want[p]))
					}
				}
				t.Errorf("files: %d, want %d", len(got), len(want))
			}
		})
	}
}

// mostLinked returns the note of dir with the most links to it.
func mostLinked(t *testing.T, dir string) string {
	t.Helper()
	e := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
	defer e.Close()
	g := e.Graph()
	best := ""
	for _, id := range g.IDs() {
		if best == "" || len(g.In(id)) > len(g.In(best)) {
			best = id
		}
	}
	return best
}

// statusJSON is Status as JSON, without the fields that say how the
// engine was started.
func statusJSON(t *testing.T, e *vaultgraph.Engine) string {
	t.Helper()
	s, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.Index, s.IndexBytes, s.LastSync, s.LoadTimeMs, s.Watcher = "", 0, time.Time{}, 0, ""
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// treeFiles reads every file under dir (vault path -> content).
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestColdIndexPacksLinks: a cold index pass of several chunks keeps the
// links of the notes it wrote packed, as a start from the snapshot cache
// does, and the engine answers as one that parsed every file without an
// index, a rename included.
func TestColdIndexPacksLinks(t *testing.T) {
	dir, _ := ixVault(t, 300, 12)
	twin := testutil.CopyDir(t, dir)
	opts := vaultgraph.Options{Index: ixIndexPath(t)}
	vaultgraph.WithIndexChunkSize(&opts, 40)
	e := ixOpen(t, dir, opts)
	ids := ixNoteFiles(t, dir)
	if n := e.LazyLinkNotes(); n < len(ids)/2 {
		t.Fatalf("LazyLinkNotes() = %d of %d notes after a cold index: links not packed", n, len(ids))
	}
	full := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
	if got, want := statusJSON(t, e), statusJSON(t, full); got != want {
		t.Errorf("Status() after a cold index:\n%s\nwant\n%s", got, want)
	}
	ixCompare(t, "cold index", ixAnswers(t, e), ixAnswers(t, full))
	if err := full.Close(); err != nil {
		t.Fatal(err)
	}
	target := mostLinked(t, dir)
	for _, eng := range []*vaultgraph.Engine{e, ixOpen(t, twin, vaultgraph.Options{NoIndex: true})} {
		if _, err := eng.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: target, Title: strp("Renamed Target")}); err != nil {
			t.Fatalf("rename %s: %v", target, err)
		}
	}
	if got, want := treeFiles(t, dir), treeFiles(t, twin); !maps.Equal(got, want) {
		t.Errorf("after the rename, the files differ from those an engine without an index wrote")
	}
}
