package embed

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
)

func randomUnit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return Normalize(v)
}

// naiveSearch is the reference: score every chunk, keep each note's best,
// sort.
func naiveSearch(notes map[string][][]float32, q []float32, k int, keep func(string) bool) []Hit {
	var hits []Hit
	for id, vecs := range notes {
		if keep != nil && !keep(id) {
			continue
		}
		best := Hit{NoteID: id, Score: -2}
		for c, v := range vecs {
			if s := dot(v, q); s > best.Score {
				best.Chunk, best.Score = c, s
			}
		}
		if len(vecs) > 0 {
			hits = append(hits, best)
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].NoteID < hits[j].NoteID
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

// buildIndex fills an index with notes of 1–5 chunks, replacing and
// removing some along the way so that rows get moved.
func buildIndex(t testing.TB, r *rand.Rand, quantize bool, nNotes, dim int) (*Index, map[string][][]float32) {
	x := NewIndex(dim, quantize)
	notes := map[string][][]float32{}
	for i := range nNotes {
		id := fmt.Sprintf("note-%04d.md", i)
		vecs := make([][]float32, 1+r.IntN(5))
		for j := range vecs {
			vecs[j] = randomUnit(r, dim)
		}
		if err := x.Add(id, vecs); err != nil {
			t.Fatal(err)
		}
		notes[id] = vecs
		if i%7 == 3 { // replace an earlier note
			old := fmt.Sprintf("note-%04d.md", r.IntN(i+1))
			vecs := [][]float32{randomUnit(r, dim), randomUnit(r, dim)}
			if err := x.Replace(old, vecs); err != nil {
				t.Fatal(err)
			}
			notes[old] = vecs
		}
		if i%11 == 5 { // remove one
			old := fmt.Sprintf("note-%04d.md", r.IntN(i+1))
			x.Remove(old)
			delete(notes, old)
		}
	}
	return x, notes
}

func TestIndexSearchExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 50, 3000} { // 3000 notes ≈ 9000 rows: several workers
		x, notes := buildIndex(t, r, false, n, 16)
		rows := 0
		for _, v := range notes {
			rows += len(v)
		}
		if x.Len() != rows || len(x.Notes()) != len(notes) {
			t.Fatalf("Len = %d, Notes = %d, want %d, %d", x.Len(), len(x.Notes()), rows, len(notes))
		}
		for trial := range 20 {
			q := randomUnit(r, 16)
			k := 1 + trial*3
			var keep func(string) bool
			if trial%3 == 1 {
				keep = func(id string) bool { return strings.HasSuffix(id, "3.md") || strings.HasSuffix(id, "7.md") }
			}
			got, want := x.Search(q, k, keep), naiveSearch(notes, q, k, keep)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("n=%d k=%d: Search =\n%v\nwant\n%v", n, k, got, want)
			}
		}
	}
}

func TestIndexInt8CloseToFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	const dim = 384
	fx, notes := buildIndex(t, rand.New(rand.NewPCG(3, 3)), false, 2000, dim)
	qx, _ := buildIndex(t, rand.New(rand.NewPCG(3, 3)), true, 2000, dim)
	overlap, total := 0, 0
	for range 20 {
		q := randomUnit(r, dim)
		exact := naiveSearch(notes, q, 10, nil)
		got := qx.Search(q, 10, nil)
		if fmt.Sprint(fx.Search(q, 10, nil)) != fmt.Sprint(exact) {
			t.Fatal("float32 index differs from the naive scan")
		}
		in := map[string]float32{}
		for _, h := range exact {
			in[h.NoteID] = h.Score
		}
		for _, h := range got {
			if s, ok := in[h.NoteID]; ok {
				overlap++
				if d := h.Score - s; d > 0.01 || d < -0.01 {
					t.Errorf("%s: int8 score %v, float %v", h.NoteID, h.Score, s)
				}
			}
			total++
		}
	}
	if recall := float64(overlap) / float64(total); recall < 0.9 {
		t.Errorf("int8 top-10 recall = %.2f, want >= 0.9", recall)
	}
}

func TestIndexUpdates(t *testing.T) {
	x := NewIndex(0, false)
	if err := x.Add("a", [][]float32{{1, 0}, {0, 1}}); err != nil {
		t.Fatal(err)
	}
	if x.dimension() != 2 {
		t.Errorf("dimension() = %d, want 2 learned from Add", x.dimension())
	}
	if err := x.Add("b", [][]float32{{1, 0, 0}}); !errors.Is(err, ErrDimension) {
		t.Errorf("Add of a wrong dimension: %v", err)
	}
	if err := x.Replace("a", [][]float32{{1, 0}, {1}}); !errors.Is(err, ErrDimension) {
		t.Errorf("Replace of ragged vectors: %v", err)
	}
	if x.Len() != 2 {
		t.Errorf("a failed Replace changed the index: Len = %d", x.Len())
	}
	x.Add("b", [][]float32{{0.6, 0.8}})
	x.Add("a", [][]float32{{-1, 0}}) // chunk 2 of a
	if x.Len() != 4 || x.NoteCount() != 2 {
		t.Errorf("Len, NoteCount = %d, %d, want 4 chunks of 2 notes", x.Len(), x.NoteCount())
	}
	hits := x.Search([]float32{-1, 0}, 5, nil)
	if len(hits) != 2 || hits[0] != (Hit{"a", 2, 1}) {
		t.Errorf("Search = %v", hits)
	}
	if !x.Remove("a") || x.Remove("a") {
		t.Error("Remove did not report presence")
	}
	if got := x.Search([]float32{1, 0}, 5, nil); len(got) != 1 || got[0].NoteID != "b" {
		t.Errorf("after Remove: %v", got)
	}
	x.Replace("b", nil)
	if x.Len() != 0 || len(x.Notes()) != 0 || x.NoteCount() != 0 {
		t.Errorf("Replace with no vectors left %d rows", x.Len())
	}
	if got := x.Search([]float32{1, 0}, 5, nil); got != nil {
		t.Errorf("empty index: %v", got)
	}
	x.Add("c", [][]float32{{1, 0}})
	if got := x.Search([]float32{1, 0, 0}, 5, nil); got != nil {
		t.Errorf("query of the wrong dimension: %v", got)
	}
	if got := x.Search([]float32{1, 0}, 0, nil); got != nil {
		t.Errorf("k = 0: %v", got)
	}
	if got := x.Search([]float32{1, 0}, 3, func(string) bool { return false }); got != nil {
		t.Errorf("keep nothing: %v", got)
	}
}

func TestIndexConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	x, _ := buildIndex(t, r, true, 2000, 32)
	q := randomUnit(r, 32)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rr := rand.New(rand.NewPCG(uint64(w), 9))
			for i := range 50 {
				if w%2 == 0 {
					x.Search(q, 10, nil)
				} else {
					id := fmt.Sprintf("note-%04d.md", rr.IntN(2000))
					if i%2 == 0 {
						x.Replace(id, [][]float32{randomUnit(rr, 32)})
					} else {
						x.Remove(id)
					}
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkSearch(b *testing.B) {
	const dim = 384
	for _, rows := range []int{10_000, 100_000} {
		for _, quantize := range []bool{false, true} {
			name := fmt.Sprintf("rows=%d/float32", rows)
			if quantize {
				name = fmt.Sprintf("rows=%d/int8", rows)
			}
			b.Run(name, func(b *testing.B) {
				r := rand.New(rand.NewPCG(5, 5))
				x := NewIndex(dim, quantize)
				vec := make([]float32, dim)
				for i := range rows {
					for j := range vec {
						vec[j] = float32(r.NormFloat64())
					}
					x.Add(fmt.Sprintf("n%d", i/3), [][]float32{Normalize(vec)})
				}
				q := randomUnit(r, dim)
				b.ResetTimer()
				for b.Loop() {
					x.Search(q, 10, nil)
				}
			})
		}
	}
}

// dimension is the length of the index's vectors (0 while unknown).
func (x *Index) dimension() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.dim
}
