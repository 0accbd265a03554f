package store

import (
	"github.com/vaultgraph/vaultgraph/internal/slab"
	"github.com/vaultgraph/vaultgraph/vault"
)

// noteSlab hands out what a load from the snapshot cache decodes for
// each note (its Record, its vault.Note, their lists and its LinkText)
// from chunks of many notes, instead of one allocation each. The records
// go once the engine has taken their fields, while the rest stays as
// long as the server runs: allocated one by one, among the garbage of
// the rest of the start, they would leave holes in the heap around the
// live notes. From chunks the records go a chunk at a time, and the
// notes sit together.
type noteSlab struct {
	records []Record
	notes   []vault.Note
	strs    []string
	heads   []vault.Heading
	props   []vault.Property
	texts   []LinkText
}

// slabChunk is the number of notes (or list items) in one chunk
// (slab.Take).
const slabChunk = 1024

// record returns a new record with a new note.
func (s *noteSlab) record() *Record {
	if s == nil {
		return &Record{Note: &vault.Note{}}
	}
	r, n := &slab.Take(&s.records, 1, slabChunk)[0], &slab.Take(&s.notes, 1, slabChunk)[0]
	r.Note = n
	return r
}

// linkText returns a new LinkText.
func (s *noteSlab) linkText() *LinkText {
	if s == nil {
		return &LinkText{}
	}
	return &slab.Take(&s.texts, 1, slabChunk)[0]
}

// The lists of a note; a nil slab makes each on its own.

func (s *noteSlab) stringList(k int) []string {
	if s == nil {
		return make([]string, k)
	}
	return slab.Take(&s.strs, k, slabChunk)
}

func (s *noteSlab) headingList(k int) []vault.Heading {
	if s == nil {
		return make([]vault.Heading, k)
	}
	return slab.Take(&s.heads, k, slabChunk)
}

func (s *noteSlab) propertyList(k int) []vault.Property {
	if s == nil {
		return make([]vault.Property, k)
	}
	return slab.Take(&s.props, k, slabChunk)
}
