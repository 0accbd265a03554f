package store

import "github.com/vaultgraph/vaultgraph/vault"

// noteSlab hands out what a load from the snapshot cache decodes for
// each note (its Record, its vault.Note, their lists and its LinkText)
// from chunks of many notes, instead of one allocation each. The records
// go once the engine has taken their fields, while the rest stays as
// long as the server runs: allocated one by one, among the garbage
// the rest of the start makes at the same time (the scan of the vault,
// the records), they left holes in the heap, which stayed in use
// around the live notes (17 MB at 100,000 notes). From chunks the
// records go a chunk at a time, and the notes sit together.
type noteSlab struct {
	records []Record
	notes   []vault.Note
	strs    []string
	heads   []vault.Heading
	props   []vault.Property
	texts   []LinkText
}

// slabChunk is the number of notes (or list items) in one chunk.
const slabChunk = 1024

// record returns a new record with a new note.
func (s *noteSlab) record() *Record {
	if s == nil {
		return &Record{Note: &vault.Note{}}
	}
	r, n := &take(&s.records, 1)[0], &take(&s.notes, 1)[0]
	r.Note = n
	return r
}

// linkText returns a new LinkText.
func (s *noteSlab) linkText() *LinkText {
	if s == nil {
		return &LinkText{}
	}
	return &take(&s.texts, 1)[0]
}

// take cuts k items from the chunk in pool, a new chunk when it has not
// enough left; a list of more than a quarter of a chunk is made on its
// own. The list is capped, so that appending to it never writes into
// another's. k 0 is an empty list, not nil.
func take[T any](pool *[]T, k int) []T {
	switch {
	case k == 0:
		return []T{}
	case k > slabChunk/4:
		return make([]T, k)
	case k > len(*pool):
		*pool = make([]T, slabChunk)
	}
	l := (*pool)[:k:k]
	*pool = (*pool)[k:]
	return l
}

// The lists of a note; a nil slab makes each on its own.

func (s *noteSlab) stringList(k int) []string {
	if s == nil {
		return make([]string, k)
	}
	return take(&s.strs, k)
}

func (s *noteSlab) headingList(k int) []vault.Heading {
	if s == nil {
		return make([]vault.Heading, k)
	}
	return take(&s.heads, k)
}

func (s *noteSlab) propertyList(k int) []vault.Property {
	if s == nil {
		return make([]vault.Property, k)
	}
	return take(&s.props, k)
}
