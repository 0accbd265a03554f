package store

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestSnapshotNotesSlab: the notes a load decodes from the cache sit
// together in memory, one chunk after another, not one allocation each;
// their lists too, each capped, so that appending to one never writes
// into the next. Each note comes back as the tables give it.
func TestSnapshotNotesSlab(t *testing.T) {
	tables := &rowReader{snap: &Snapshot{}, byID: map[string]int{}, enc: newSnapEncoder(cacheKey{id: "k"})}
	const count = 3000
	for i := range count {
		r := noteRow{id: fmt.Sprintf("n%d.md", i), path: fmt.Sprintf("n%d.md", i), title: "t", hash: "h",
			aliases: `["a"]`, tags: `["x","y"]`, props: `[]`, warnings: `null`,
			anchors: "1 2 3 4 Head\n^blk\n", hasAnchors: true}
		if err := tables.note(r); err != nil {
			t.Fatal(err)
		}
	}
	tables.enc.endList()
	d := &snapDecoder{b: tables.enc.buf.Bytes()[len(cacheMagic):], slab: &noteSlab{}}
	_, _, _ = d.str(), d.int(), d.int()
	var got []*Record
	for d.next() {
		got = append(got, d.noteRecord())
	}
	if d.err != nil || len(got) != count {
		t.Fatalf("decoded %d notes, %v; want %d", len(got), d.err, count)
	}
	apart := 0 // notes not right after the one before
	for i, r := range got {
		n := r.Note
		if want := tables.snap.Notes[i].Note; n.ID != want.ID || !slices.Equal(n.Tags, want.Tags) || len(n.Headings) != 1 {
			t.Fatalf("note %d = %+v, want %+v", i, n, want)
		}
		if cap(n.Tags) != len(n.Tags) || cap(n.Aliases) != len(n.Aliases) || cap(n.Headings) != 1 {
			t.Fatalf("note %d: lists not capped: tags %d/%d, aliases %d/%d", i, len(n.Tags), cap(n.Tags), len(n.Aliases), cap(n.Aliases))
		}
		if i > 0 && uintptr(unsafe.Pointer(n)) != uintptr(unsafe.Pointer(got[i-1].Note))+unsafe.Sizeof(vault.Note{}) {
			apart++
		}
	}
	if most := count/slabChunk + 1; apart > most {
		t.Errorf("%d of %d notes apart from the one before, want at most %d (one a chunk)", apart, count, most)
	}
	tags := slices.Clone(got[1].Note.Tags)
	got[0].Note.Tags = append(got[0].Note.Tags, "more")
	if !slices.Equal(got[1].Note.Tags, tags) {
		t.Errorf("appending to a note's tags changed the next note's: %q, want %q", got[1].Note.Tags, tags)
	}
}
