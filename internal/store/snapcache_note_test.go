package store

import (
	"reflect"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestSnapshotNoteRecord checks that a note written to the cache comes
// back exactly as the tables give it: every kind of property value, nil
// apart from empty lists, headings and block ids.
func TestSnapshotNoteRecord(t *testing.T) {
	props, err := encodeProperties([]vault.Property{
		{Key: "s", Value: "text"},
		{Key: "i", Value: int64(-42)},
		{Key: "f", Value: 2.5},
		{Key: "yes", Value: true},
		{Key: "no", Value: false},
		{Key: "nil", Value: nil},
		{Key: "utc", Value: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)},
		{Key: "zoned", Value: time.Date(2024, 6, 1, 9, 30, 0, 5, time.FixedZone("", 7200))},
		{Key: "list", Value: []any{"a", int64(1), []any{}, map[string]any{"k": []any{true}}}},
		{Key: "empty", Value: map[string]any{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []noteRow{
		{id: "A.md", path: "A.md", title: "A", hash: "h", size: 10, mtime: 123456789, bodyStart: 4,
			aliases: `["x","y\"z"]`, tags: `[]`, props: props, warnings: `null`,
			anchors: "1 2 3 4 Head ing\n2 5 6 7 Two\n^blk\n", hasAnchors: true},
		{id: "B/b.md", path: "B/b.md", title: "b", hash: "old", size: 3, mtime: -5,
			aliases: `null`, tags: `["t"]`, props: `[]`, warnings: `["w"]`},
	} {
		tables := &rowReader{snap: &Snapshot{}, byID: map[string]int{}, enc: newSnapEncoder(cacheKey{id: "k"})}
		if err := tables.note(row); err != nil {
			t.Fatal(err)
		}
		if tables.enc.err != nil {
			t.Fatal(tables.enc.err)
		}
		for _, slab := range []*noteSlab{nil, {}} { // as a load cuts them, and one by one
			d := &snapDecoder{b: tables.enc.buf.Bytes()[len(cacheMagic):], slab: slab}
			_, _, _ = d.str(), d.int(), d.int()
			if !d.next() {
				t.Fatalf("%s: no record in the cache bytes", row.id)
			}
			got := d.noteRecord()
			if d.err != nil || len(d.b) != 0 {
				t.Fatalf("%s: decode: %v, %d bytes left", row.id, d.err, len(d.b))
			}
			if want := tables.snap.Notes[0]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s, slab %v: from the cache %+v\nwant %+v", row.id, slab != nil, got.Note, want.Note)
			}
		}
	}
}

// TestSnapshotNoteRecordDamaged checks that damaged record bytes give an
// error, not a panic or a huge allocation.
func TestSnapshotNoteRecordDamaged(t *testing.T) {
	enc := newSnapEncoder(cacheKey{})
	enc.noteRecord(&Record{Note: &vault.Note{ID: "A.md", Tags: []string{"a"},
		Properties: []vault.Property{{Key: "l", Value: []any{"x", 1.5}}}}})
	b := enc.buf.Bytes()[len(cacheMagic)+4:]
	for i := range b {
		for _, c := range []byte{0, 0x7f, 0xff} {
			bad := append([]byte(nil), b...)
			bad[i] = c
			d := &snapDecoder{b: bad}
			d.noteRecord()
		}
	}
	d := &snapDecoder{b: b[:len(b)-1]}
	d.noteRecord()
	if d.err == nil {
		t.Error("a cut record decoded without error")
	}
}
