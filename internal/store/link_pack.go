package store

import (
	"bytes"

	"github.com/vaultgraph/vaultgraph/vault"
)

// PackLinks returns links in the form the snapshot cache holds them
// (LinkText), without their resolution: a cold index pass keeps the
// links of the notes it has written so, instead of as link structs,
// which at 100,000 notes were about 140 MB of its live heap. The note's
// resolution stays beside it (the engine's per-link slices).
func PackLinks(links []vault.Link) *LinkText {
	e := &snapEncoder{}
	e.buf.Grow(len(links) * 48)
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
