package embed

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// topTestIndex is a sparse index of notes with three chunks each, and a
// query for it.
func topTestIndex(t *testing.T, notes int) (*Index, []float32) {
	t.Helper()
	const dim, terms = 64, 8
	rng := rand.New(rand.NewPCG(3, 4))
	x := NewSparseIndex(dim, terms)
	for n := range notes {
		var vecs [][]float32
		for range 3 {
			vecs = append(vecs, storedFormRow(rng, dim, 12, -8))
		}
		if err := x.Add(fmt.Sprintf("n%05d", n), vecs); err != nil {
			t.Fatal(err)
		}
	}
	query := make([]float32, dim)
	for i := range query {
		query[i] = float32(rng.NormFloat64()) / 8
	}
	return x, query
}

// TestScanAllocatesNothing checks that the vector scan's heap and its
// table of positions are taken from topPool and given back cleared: a
// scan allocates nothing once warm (a heap with a map of positions made
// one per scan, and its writes were a third of the scan's CPU).
func TestScanAllocatesNothing(t *testing.T) {
	x, query := topTestIndex(t, 2000)
	rows := len(x.rowNote)
	scan := func() { x.scan(query, 0, rows, 251, nil, false).release() }
	scan()
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what is put back, so a scan may allocate")
	}
	if n := testing.AllocsPerRun(20, scan); n != 0 {
		t.Errorf("scan allocates %v times a run, want 0", n)
	}
}

// TestTopNotesReused checks that heaps taken again from topPool (by
// notes, by rows, of other sizes) find what a first search found.
func TestTopNotesReused(t *testing.T) {
	x, query := topTestIndex(t, 3000)
	want := map[string][]Hit{}
	for range 3 {
		for _, k := range []int{1, 7, 251, 5000} {
			for _, perRow := range []bool{false, true} {
				key := fmt.Sprint(k, perRow)
				got := x.search(query, k, nil, perRow)
				if w, ok := want[key]; !ok {
					want[key] = got
				} else if !slices.Equal(got, w) {
					t.Errorf("search(k=%d, perRow=%v) taken again = %v, want %v", k, perRow, got, w)
				}
			}
		}
	}
	if got := x.search(query, 5000, nil, false); len(got) != 3000 {
		t.Errorf("search(k=5000) found %d notes, want all 3000", len(got))
	}
}
