package embed

import (
	"math"
	"slices"
)

// NewSparseIndex returns an empty index that keeps, of each vector of
// dim floats, only its terms components of largest magnitude (their
// dimension and value): 6 × terms bytes a row instead of 4 × dim, and a
// scan that reads terms values a row instead of dim. Its scores are
// partial dot products, lower than the cosine and good only to pick
// candidates that are then scored exactly (the builtin embedder's
// vectors, whose few largest components carry most of a match, are
// stored so; see store.Sparse). Vectors that have at most terms non-zero
// components (as read back from that form) are kept exactly.
func NewSparseIndex(dim, terms int) *Index {
	x := NewIndex(dim, false)
	x.sp.terms = max(1, terms)
	return x
}

// SearchChunks returns the k chunks most similar to query, best first
// (ties by note ID, then chunk), several of one note if they are among
// the best. keep filters notes as in Search.
func (x *Index) SearchChunks(query []float32, k int, keep func(noteID string) bool) []Hit {
	return x.search(query, k, keep, true)
}

// Sparse reports whether the index keeps only the largest components of
// each vector (NewSparseIndex): its scores then only rank candidates.
func (x *Index) Sparse() bool { return x.sp.terms > 0 }

// sparseRows holds terms (dimension, value) pairs per row, padded with
// value 0.
type sparseRows struct {
	terms int
	dims  []uint16  // rows × terms
	vals  []float32 // rows × terms
}

// add appends the row of v's largest components.
func (s *sparseRows) add(v []float32) {
	order := Largest(v, s.terms)
	for _, i := range order {
		s.dims = append(s.dims, uint16(i))
		s.vals = append(s.vals, v[i])
	}
	for range s.terms - len(order) {
		s.dims = append(s.dims, 0)
		s.vals = append(s.vals, 0)
	}
}

// Largest returns the dimensions of the n components of v of largest
// magnitude (ties to the lower dimension), in dimension order; only
// finite, non-zero components count. It keeps the best n seen so far in
// a heap whose root is the weakest of them, so it costs about len(v)
// integer comparisons, not a sort of v (an index pass calls it for every
// chunk).
func Largest(v []float32, n int) []int { return AppendLargest(nil, v, n) }

// largestOnStack is the n up to which AppendLargest keeps its heap on the
// stack.
const largestOnStack = 64

// AppendLargest appends Largest(v, n) to dst: with a dst of capacity n
// (on the caller's stack), it allocates nothing for n up to 64.
func AppendLargest(dst []int, v []float32, n int) []int {
	n = max(n, 0)
	var onStack [largestOnStack]uint64
	h := onStack[:0]
	if n > largestOnStack {
		h = make([]uint64, 0, min(n, len(v)))
	}
	for i, f := range v {
		// The bits of a finite float's magnitude order as its value; a
		// zero is 0, an infinity or NaN at least 0x7f800000.
		m := math.Float32bits(f) &^ (1 << 31)
		if m == 0 || m >= 0x7f800000 {
			continue
		}
		// Larger keys are stronger: the magnitude, then the lower
		// dimension.
		key := uint64(m)<<32 | uint64(^uint32(i))
		switch {
		case len(h) < n:
			h = append(h, key)
			siftUp(h, len(h)-1)
		case n > 0 && key > h[0]:
			h[0] = key
			siftDown(h, 0)
		}
	}
	from := len(dst)
	for _, key := range h {
		dst = append(dst, int(^uint32(key)))
	}
	slices.Sort(dst[from:])
	return dst
}

// siftUp and siftDown keep h a min-heap.
func siftUp(h []uint64, k int) {
	for k > 0 {
		parent := (k - 1) / 2
		if h[k] >= h[parent] {
			return
		}
		h[k], h[parent] = h[parent], h[k]
		k = parent
	}
}

func siftDown(h []uint64, k int) {
	for {
		c := 2*k + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if h[c] >= h[k] {
			return
		}
		h[k], h[c] = h[c], h[k]
		k = c
	}
}

// move copies row from into row to.
func (s *sparseRows) move(from, to int32) {
	t := s.terms
	copy(s.dims[int(to)*t:int(to+1)*t], s.dims[int(from)*t:int(from+1)*t])
	copy(s.vals[int(to)*t:int(to+1)*t], s.vals[int(from)*t:int(from+1)*t])
}

func (s *sparseRows) grow(rows int) {
	s.dims = slices.Grow(s.dims, rows*s.terms)
	s.vals = slices.Grow(s.vals, rows*s.terms)
}

func (s *sparseRows) truncate(rows int) {
	s.dims, s.vals = s.dims[:rows*s.terms], s.vals[:rows*s.terms]
}

// dot is the dot product of row r with query (of the index's dimension).
func (s *sparseRows) dot(r int, query []float32) float32 {
	t := s.terms
	dims, vals := s.dims[r*t:(r+1)*t], s.vals[r*t:(r+1)*t]
	var sum float32
	for i, d := range dims {
		if int(d) < len(query) {
			sum += vals[i] * query[d]
		}
	}
	return sum
}

// Dot is the dot product of two vectors of the same length: their cosine
// similarity when both are normalised.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	return dot(a, b)
}
