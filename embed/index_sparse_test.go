package embed

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSparseIndex checks that a sparse index keeps the largest components
// of each row (ties to the lower dimension), scores a row by them only,
// survives removals, and that SearchChunks returns the best chunks, of
// one note several times when they are among the best.
func TestSparseIndex(t *testing.T) {
	x := NewSparseIndex(8, 2)
	if !x.Sparse() || NewIndex(8, false).Sparse() {
		t.Fatal("Sparse() does not say which index keeps only the largest components")
	}
	add := func(id string, vecs ...[]float32) {
		t.Helper()
		if err := x.Replace(id, vecs); err != nil {
			t.Fatal(err)
		}
	}
	add("a", []float32{0.9, 0, 0, 0, 0, 0, 0.1, 0.3}, []float32{0, 0.8, 0, 0, 0, 0, 0, 0})
	add("b", []float32{0.5, 0.5, 0.5, 0, 0, 0, 0, 0})
	add("c", []float32{0, 0, 0, 0, 0, 0, 0, 0.2})
	q := []float32{1, 1, 0, 0, 0, 0, 1, 1}
	// a chunk 0 keeps 0.9 and 0.3 (not 0.1): 1.2; chunk 1: 0.8; b keeps
	// dimensions 0 and 1 of three equal ones: 1.0; c: 0.2.
	got := x.SearchChunks(q, 3, nil)
	want := []Hit{{"a", 0, 1.2}, {"b", 0, 1.0}, {"a", 1, 0.8}}
	if len(got) != len(want) {
		t.Fatalf("SearchChunks = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].NoteID != want[i].NoteID || got[i].Chunk != want[i].Chunk || !near(got[i].Score, want[i].Score) {
			t.Errorf("SearchChunks = %v, want %v", got, want)
			break
		}
	}
	if notes := x.Search(q, 3, nil); len(notes) != 3 || notes[0].NoteID != "a" || notes[2].NoteID != "c" {
		t.Errorf("Search = %v, want a, b, c by their best chunk", notes)
	}
	if got := x.SearchChunks(q, 5, func(id string) bool { return id != "a" }); len(got) != 2 {
		t.Errorf("SearchChunks without a = %v, want b and c", got)
	}
	x.Remove("a")
	if got := x.SearchChunks(q, 5, nil); len(got) != 2 || got[0].NoteID != "b" || !near(got[1].Score, 0.2) {
		t.Errorf("after removing a: SearchChunks = %v, want b then c (0.2)", got)
	}
	if d := Dot([]float32{1, 2}, []float32{3, 4}); d != 11 || Dot([]float32{1}, []float32{1, 2}) != 0 {
		t.Errorf("Dot = %v, want 11 (and 0 for vectors of different lengths)", d)
	}
}

func near(a, b float32) bool { return a-b < 1e-6 && b-a < 1e-6 }

// TestLargest checks Largest against a full sort of the components by
// magnitude (ties to the lower dimension), on vectors with ties, zeros,
// infinities and NaNs, for n from 0 past the vector's length.
// Largest is AppendLargest into a new slice.
func Largest(v []float32, n int) []int { return AppendLargest(nil, v, n) }

func TestLargest(t *testing.T) {
	sorted := func(v []float32, n int) []int {
		var order []int
		for i, f := range v {
			if a := math.Abs(float64(f)); a != 0 && !math.IsInf(a, 0) && !math.IsNaN(a) {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Compare(math.Abs(float64(v[b])), math.Abs(float64(v[a])))
		})
		order = order[:min(max(n, 0), len(order))]
		slices.Sort(order)
		return order
	}
	rng := rand.New(rand.NewPCG(1, 2))
	specials := []float32{0, 0, 1, -1, 0.5, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.SmallestNonzeroFloat32, -1e-40, 1e-39, -math.MaxFloat32}
	for trial := range 4000 {
		v := make([]float32, rng.IntN(70))
		switch trial % 16 {
		case 0, 4, 8: // a builtin vector's size, past the candidates kept on the stack
			v = make([]float32, 512)
		case 12: // past the bit set that sorts the dimensions
			v = make([]float32, 1025+rng.IntN(600))
		}
		for i := range v {
			switch rng.IntN(5) {
			case 0:
				v[i] = specials[rng.IntN(len(specials))]
			case 1:
				v[i] = float32(rng.IntN(5) - 2) // many ties
			case 2:
				v[i] = 1 + float32(rng.IntN(8))/(1<<22) // one exponent, the same first 8 bits of mantissa
			default:
				v[i] = float32(rng.NormFloat64())
			}
		}
		n := rng.IntN(len(v)+3) - 1
		if trial%8 == 0 {
			n = 32
		}
		if got, want := Largest(v, n), sorted(v, n); !slices.Equal(got, want) {
			t.Fatalf("trial %d: Largest(%v, %d) = %v, want %v", trial, v, n, got, want)
		}
	}
}

// BenchmarkLargestChunk picks the 32 largest components of the vectors
// of texts the size of a chunk (1,500 bytes), most of whose 512
// components are not zero, as a cold index stores them.
func BenchmarkLargestChunk(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	vs := make([][]float32, 64)
	for i := range vs {
		vs[i] = NewBuiltin().Vector(benchText(r, 1500))
	}
	var dst [32]int
	for i := 0; b.Loop(); i++ {
		AppendLargest(dst[:0], vs[i%len(vs)], 32)
	}
}

// BenchmarkLargest picks the 32 largest of a builtin vector's 512
// components, as storing each chunk's vector does.
func BenchmarkLargest(b *testing.B) {
	v := NewBuiltin().Vector("the quick brown fox jumps over the lazy dog, twice, near the river bank")
	b.ReportAllocs()
	for b.Loop() {
		Largest(v, 32)
	}
}
