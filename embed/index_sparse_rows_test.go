package embed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// storedFormRow returns a vector of dim components with at most n
// non-zero ones, each q × 2^e for one e and q in [-63, 63]: the values a
// vector stored sparse reads back as.
func storedFormRow(rng *rand.Rand, dim, n, e int) []float32 {
	v := make([]float32, dim)
	for range n {
		q := rng.IntN(2*packQMax+1) - packQMax
		v[rng.IntN(dim)] = float32(math.Ldexp(float64(q), e))
	}
	return v
}

// referenceDot is how a sparse index scored a row when it kept the
// values as float32s: the products of its terms largest components, in
// dimension order, each rounded to float32 before it is added (as on
// amd64; the conversion keeps a compiler from fusing them elsewhere).
// Components at or past len(query) count for nothing.
func referenceDot(v, query []float32, terms int) float32 {
	var sum float32
	for _, i := range Largest(v, terms) {
		if i < len(query) {
			sum += float32(v[i] * query[i])
		}
	}
	return sum
}

// TestSparseIndexScoresExact checks that a sparse index scores every
// chunk with exactly the float32 sum of its kept components (bit for
// bit), for rows in the stored form (kept packed), after removals, and
// after a row that does not fit that form turns the index wide.
func TestSparseIndexScoresExact(t *testing.T) {
	const dim, terms = 512, 32
	rng := rand.New(rand.NewPCG(3, 4))
	x := NewSparseIndex(dim, terms)
	vecs := map[string][][]float32{}
	exps := []int{-126, -120, -30, -12, -9, -8, -7, -6, -3, 0, 5, 120}
	for n := range 400 {
		id := fmt.Sprintf("n%03d", n)
		for c := range 1 + n%3 {
			vecs[id] = append(vecs[id], storedFormRow(rng, dim, rng.IntN(60), exps[(n+c)%len(exps)]))
		}
		if err := x.Replace(id, vecs[id]); err != nil {
			t.Fatal(err)
		}
	}
	check := func(stage string) {
		t.Helper()
		for range 50 {
			query := make([]float32, dim)
			for i := range query {
				query[i] = float32(rng.NormFloat64()) / 16
			}
			hits := x.SearchChunks(query, x.Len(), nil)
			if len(hits) != x.Len() {
				t.Fatalf("%s: %d hits, want every one of %d chunks", stage, len(hits), x.Len())
			}
			for _, h := range hits {
				want := referenceDot(vecs[h.NoteID][h.Chunk], query, terms)
				if math.Float32bits(h.Score) != math.Float32bits(want) {
					t.Fatalf("%s: %s chunk %d scores %v, want exactly %v", stage, h.NoteID, h.Chunk, h.Score, want)
				}
			}
		}
	}
	check("packed")
	if x.sp.wide {
		t.Fatal("rows in the stored form did not stay packed")
	}
	for n := 0; n < 400; n += 7 {
		id := fmt.Sprintf("n%03d", n)
		x.Remove(id)
		delete(vecs, id)
	}
	check("after removals")
	odd := storedFormRow(rng, dim, 20, -8)
	odd[3] = 0.1 // not a multiple of 2^-8
	vecs["odd"] = [][]float32{odd}
	if err := x.Replace("odd", vecs["odd"]); err != nil {
		t.Fatal(err)
	}
	if !x.sp.wide {
		t.Fatal("a row off the stored form did not turn the index wide")
	}
	check("wide")
}

// TestSparseDotsExact checks that scoring packed rows in batches (four
// at a time, the rest one by one) gives every row exactly the float32 sum
// of its kept components, bit for bit: rows of every exponent, queries
// with subnormal, zero, huge and infinite components, batches of every
// length in any row order, and queries shorter than the codes' reach.
func TestSparseDotsExact(t *testing.T) {
	const dim, terms, rows = 512, 32, 600
	rng := rand.New(rand.NewPCG(7, 8))
	x := NewSparseIndex(dim, terms)
	var vecs [][]float32
	for r := range rows {
		e := packMinExp + rng.IntN(packMaxExp-6-packMinExp+1) // q × 2^e stays finite
		if r%3 == 0 {
			e = -8 - rng.IntN(4) // the builtin embedder's
		}
		vecs = append(vecs, storedFormRow(rng, dim, rng.IntN(48), e))
		if err := x.Add(fmt.Sprint(r), vecs[r:]); err != nil {
			t.Fatal(err)
		}
	}
	if x.sp.wide {
		t.Fatal("rows in the stored form did not stay packed")
	}
	kinds := []func() float32{
		func() float32 { return float32(rng.NormFloat64()) / 16 },
		func() float32 { return 0 },
		func() float32 { return float32(math.Copysign(0, -1)) },
		func() float32 { return float32(rng.NormFloat64()) * 1e-40 }, // subnormal
		func() float32 { return float32(rng.NormFloat64()) * 1e-30 },
		func() float32 { return float32(rng.NormFloat64()) * 1e30 },
		func() float32 { return float32(math.Inf(1 - 2*rng.IntN(2))) },
	}
	out := make([]float32, rows)
	for n := range 300 {
		query := make([]float32, dim)
		for i := range query {
			query[i] = kinds[0]()
			if n%2 == 1 && rng.IntN(4) == 0 {
				query[i] = kinds[rng.IntN(len(kinds))]()
			}
		}
		if n%10 == 9 {
			query = query[:rng.IntN(dim)] // dimensions past the query's end
		}
		batch := make([]int32, rng.IntN(3*scanBatch))
		for i := range batch {
			batch[i] = int32(rng.IntN(rows))
		}
		finite := !slices.ContainsFunc(query, func(f float32) bool { return math.IsInf(float64(f), 0) })
		x.sp.dots(batch, out, query)
		for i, r := range batch {
			// dot, one row at a time; with an infinite component its
			// padding (0 × query[0]) can make it NaN where the kept
			// components alone do not.
			want := x.sp.dot(int(r), query)
			if finite && math.Float32bits(want) != math.Float32bits(referenceDot(vecs[r], query, terms)) {
				t.Fatalf("query %d: dot of row %d is %v, want exactly %v", n, r, want, referenceDot(vecs[r], query, terms))
			}
			if math.Float32bits(out[i]) != math.Float32bits(want) {
				t.Fatalf("query %d, batch of %d: row %d (exponent %d) scores %v, want exactly %v",
					n, len(batch), r, x.sp.exps[r], out[i], want)
			}
		}
	}
}

// TestSparseIndexBytes checks that a sparse index makes room for rows in
// the stored form with about 2 bytes a kept component (and one a row),
// not the 6 of a dimension and a float32 value.
func TestSparseIndexBytes(t *testing.T) {
	const dim, terms, rows = 512, 32, 100_000
	x := NewSparseIndex(dim, terms)
	x.Grow(rows)
	// What the slices hold room for, not the process's allocations (which
	// -race and tests running beside it change).
	got := bytesOf(x.rowNote) + bytesOf(x.rowChunk) + bytesOf(x.sp.codes) + bytesOf(x.sp.exps) +
		bytesOf(x.sp.dims) + bytesOf(x.sp.vals)
	// row → note and row → chunk take 8 bytes a row.
	want := uint64(rows*(2*terms+1+8)) + 64<<10
	if got > want {
		t.Errorf("room for %d rows took %d bytes, want at most %d", rows, got, want)
	}
}

// bytesOf is how many bytes the backing array of s holds.
func bytesOf[E any](s []E) uint64 {
	var e E
	return uint64(cap(s)) * uint64(unsafe.Sizeof(e))
}

// BenchmarkSparseSearch scans a sparse index of 30,000 and 300,000
// chunks in the stored form (the builtin embedder's at 10,000 and
// 100,000 notes) for the 200 best. Run it with -cpu 1 to see the time of
// one core: a search splits the rows across GOMAXPROCS goroutines.
func BenchmarkSparseSearch(b *testing.B) {
	const dim, terms = 512, 32
	for _, rows := range []int{30_000, 300_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 6))
			x := NewSparseIndex(dim, terms)
			x.Grow(rows)
			for n := range rows {
				if err := x.Add(fmt.Sprintf("n%06d", n/3), [][]float32{storedFormRow(rng, dim, 40, -8)}); err != nil {
					b.Fatal(err)
				}
			}
			query := make([]float32, dim)
			for i := range query {
				query[i] = float32(rng.NormFloat64()) / 16
			}
			b.ResetTimer()
			for range b.N {
				x.SearchChunks(query, 200, nil)
			}
		})
	}
}
