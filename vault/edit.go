package vault

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Errors of ApplyEdits.
var (
	// ErrEditRange: an edit's range is not inside the text.
	ErrEditRange = errors.New("edit range outside the text")
	// ErrEditOverlap: two edits touch the same bytes, or insert at the
	// same offset so that their order would be a guess.
	ErrEditOverlap = errors.New("edits overlap")
)

// Edit replaces the bytes [Start, End) of a text with Text. Start == End
// inserts Text at Start.
type Edit struct {
	Start, End int
	Text       string
}

// ApplyEdits returns a copy of src with every edit applied; the bytes
// outside the edits are kept as they are. Edits may come in any order;
// their ranges refer to src. An edit whose range is not inside src, or two
// edits that overlap (or two insertions at the same offset), are an error
// naming the edits, and src is not changed.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	order := make([]int, len(edits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(edits[a].Start, edits[b].Start), cmp.Compare(edits[a].End, edits[b].End))
	})
	size := len(src)
	for k, i := range order {
		e := edits[i]
		if e.Start < 0 || e.Start > e.End || e.End > len(src) {
			return nil, fmt.Errorf("apply edits: edit %d [%d,%d) in %d bytes: %w", i, e.Start, e.End, len(src), ErrEditRange)
		}
		if k > 0 {
			j := order[k-1]
			p := edits[j]
			twoInserts := p.Start == p.End && e.Start == e.End && p.Start == e.Start
			if e.Start < p.End || twoInserts {
				return nil, fmt.Errorf("apply edits: edit %d [%d,%d) and edit %d [%d,%d): %w", j, p.Start, p.End, i, e.Start, e.End, ErrEditOverlap)
			}
		}
		size += len(e.Text) - (e.End - e.Start)
	}
	out := make([]byte, 0, size)
	at := 0
	for _, i := range order {
		e := edits[i]
		out = append(out, src[at:e.Start]...)
		out = append(out, e.Text...)
		at = e.End
	}
	return append(out, src[at:]...), nil
}
