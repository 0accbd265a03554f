package embed

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestIndexRowLists: the row lists of notes added one after another are
// cut from one slice, each capped, so that a note given more rows, or
// removed, leaves the others' lists as they were; searches still find
// every note's chunks.
func TestIndexRowLists(t *testing.T) {
	const dim, notes = 8, 2000
	rng := rand.New(rand.NewPCG(3, 4))
	x := NewIndex(dim, false)
	for n := range notes {
		vecs := make([][]float32, 1+n%4)
		for i := range vecs {
			vecs[i] = randomUnit(rng, dim)
		}
		if err := x.Add(fmt.Sprintf("n%d", n), vecs); err != nil {
			t.Fatal(err)
		}
	}
	apart := 0
	for s := 1; s < notes; s++ {
		a, b := x.notes[s-1].rows, x.notes[s].rows
		if cap(b) != len(b) {
			t.Fatalf("note %d: %d rows with room for %d", s, len(b), cap(b))
		}
		if uintptr(unsafe.Pointer(unsafe.SliceData(b))) != uintptr(unsafe.Pointer(unsafe.SliceData(a)))+uintptr(len(a))*4 {
			apart++
		}
	}
	if most := notes*5/2/rowSlabChunk + 1; apart > most {
		t.Errorf("%d of %d row lists apart from the one before, want at most %d", apart, notes, most)
	}
	next := slices.Clone(x.notes[11].rows)
	if err := x.Add("n10", [][]float32{randomUnit(rng, dim)}); err != nil {
		t.Fatal(err)
	}
	x.Remove("n12")
	if got := x.notes[11].rows; !slices.Equal(got, next) { // only the last rows move
		t.Errorf("after n10 got a row and n12 went, n11's rows = %v, want %v", got, next)
	}
	for s, ns := range x.notes {
		if ns.id == "" {
			continue
		}
		for c, r := range ns.rows {
			if x.rowNote[r] != int32(s) || x.rowChunk[r] != int32(c) {
				t.Fatalf("note %s chunk %d: row %d belongs to slot %d chunk %d", ns.id, c, r, x.rowNote[r], x.rowChunk[r])
			}
		}
	}
}
