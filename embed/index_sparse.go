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

// largestOnStack is the n up to which AppendLargest keeps its heap on the
// stack.
const largestOnStack = 64

// AppendLargest appends to dst the dimensions of the n components of v of
// largest magnitude (ties to the lower dimension), in dimension order;
// only finite, non-zero components count. It keeps the best n seen so far
// in a heap whose root is the weakest of them, so it costs about len(v)
// integer comparisons, not a sort of v (an index pass calls it for every
// chunk). With a dst of capacity n (on the caller's stack), it allocates
// nothing for n up to 64.
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

// Dot is the dot product of two vectors of the same length: their cosine
// similarity when both are normalised.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	return dot(a, b)
}
