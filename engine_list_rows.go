package vaultgraph

import (
	"time"
)

// noteRows holds, for every note, what a pass over all notes reads
// first: its ID and its creation and modification times, in one slice in
// no order, beside e.notes (a note's noteState.row is its place). A
// list_nodes page filters and sorts every note: going through the map
// and each note's state cost one or two cache misses a note, most of
// list_nodes' time under `make load`; the slice is read from start to
// end. The rows are the home of the times (noteRows.put sets them).
type noteRows []noteRow

// noteRow is one note's row.
type noteRow struct {
	id                string
	created, modified time.Time // see created(); the file's time
	ns                *noteState
}

// put sets the row of the note id, whose state is ns, from its note:
// old is the state ns replaces (nil for a note not in the rows), or ns
// itself when only its file's time changed.
func (r *noteRows) put(id string, old, ns *noteState) {
	row := noteRow{id: id, created: created(ns.note), modified: ns.note.ModTime, ns: ns}
	if old != nil {
		ns.row = old.row
		(*r)[ns.row] = row
		return
	}
	ns.row = int32(len(*r))
	*r = append(*r, row)
}

// drop removes the row of ns; the last row takes its place.
func (r *noteRows) drop(ns *noteState) {
	rows := *r
	i, last := ns.row, int32(len(rows)-1)
	rows[i] = rows[last]
	rows[i].ns.row = i
	rows[last] = noteRow{}
	*r = rows[:last]
}

// of returns the row of ns.
func (r noteRows) of(ns *noteState) *noteRow { return &r[ns.row] }
