package store

import (
	"sync"

	"github.com/vaultgraph/vaultgraph/internal/slab"
	"github.com/vaultgraph/vaultgraph/vault"
)

// LinkPacker packs the links of many notes, such as the notes of a cold
// index, in the form the snapshot cache holds them (LinkText), without
// their resolution: a cold index pass keeps the links of the notes it has
// written so, not as link structs, to keep its live heap small (the
// resolution stays beside them, in the engine's per-link slices). Each
// note's links are encoded into one pooled encoder, then copied out at
// their exact size, and the packed bytes and the LinkText values are cut
// from shared slabs: a few hundred allocations for 100,000 notes, not
// 200,000 that the collector would sweep. A note's pieces live as long as
// its slab: what replaces a note later does not reuse them, so a packer
// is for notes that mostly stay (a start), not for live edits. The zero
// value is ready; a LinkPacker is not safe for concurrent use.
type LinkPacker struct {
	bytes []byte     // the bytes not handed out yet
	texts []LinkText // the same
}

// Slab sizes of a LinkPacker: the bytes are 256 KiB at a time (a note
// whose links are longer than a quarter of that gets its own), the
// LinkText values 1,024 at a time.
const (
	packSlabBytes = 256 << 10
	packSlabTexts = 1024
)

// Pack returns links packed.
func (p *LinkPacker) Pack(links []vault.Link) *LinkText {
	e := packers.Get().(*snapEncoder)
	defer packers.Put(e)
	e.buf.Reset()
	e.err = nil
	t := &slab.Take(&p.texts, 1, packSlabTexts)[0]
	*t = LinkText{n: len(links)}
	for i := range links {
		l := &links[i]
		if l.Fragment != "" {
			t.anchored++
		}
		row := linkRowOf(l)
		e.link(&row, 0, 0, false)
	}
	// Copied into the byte slab (slab.Take: capped, so that no append to
	// it reaches the next note's bytes): the encoder is reused.
	t.b = slab.Take(&p.bytes, e.buf.Len(), packSlabBytes)
	copy(t.b, e.buf.Bytes())
	return t
}

// packers holds the encoders Pack reuses.
var packers = sync.Pool{New: func() any { return &snapEncoder{} }}

// linkRowOf is link l as a links row without its source and resolution.
func linkRowOf(l *vault.Link) linkRow {
	return linkRow{kind: string(l.Kind), target: l.Target, fragment: l.Fragment, alias: l.Alias, property: l.Property,
		start: int64(l.Start), end: int64(l.End), targetStart: int64(l.TargetStart), targetEnd: int64(l.TargetEnd),
		line: int64(l.Line)}
}
