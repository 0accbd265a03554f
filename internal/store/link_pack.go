package store

import (
	"bytes"
	"sync"

	"github.com/vaultgraph/vaultgraph/vault"
)

// packers holds the encoders PackLinks reuses: each note's links are
// encoded into one, then copied out at their exact size, so that a cold
// index allocates the packed bytes once per note instead of twice (at
// 100,000 notes the encoder's room was about 40 MB of garbage).
var packers = sync.Pool{New: func() any { return &snapEncoder{} }}

// PackLinks returns links in the form the snapshot cache holds them
// (LinkText), without their resolution: a cold index pass keeps the
// links of the notes it has written so, instead of as link structs,
// which at 100,000 notes were about 140 MB of its live heap. The note's
// resolution stays beside it (the engine's per-link slices).
func PackLinks(links []vault.Link) *LinkText {
	e := packers.Get().(*snapEncoder)
	defer packers.Put(e)
	e.buf.Reset()
	e.err = nil
	t := &LinkText{n: len(links)}
	for i := range links {
		l := &links[i]
		if l.Fragment != "" {
			t.anchored++
		}
		row := linkRowOf(l)
		e.link(&row, 0, 0, false)
	}
	t.b = bytes.Clone(e.buf.Bytes())
	return t
}

// linkRowOf is link l as a links row without its source and resolution.
func linkRowOf(l *vault.Link) linkRow {
	return linkRow{kind: string(l.Kind), target: l.Target, fragment: l.Fragment, alias: l.Alias, property: l.Property,
		start: int64(l.Start), end: int64(l.End), targetStart: int64(l.TargetStart), targetEnd: int64(l.TargetEnd),
		line: int64(l.Line)}
}
