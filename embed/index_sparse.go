package embed

import (
	"math"
	"math/bits"
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

// largestOnStack is the n up to which a caller of AppendLargest keeps
// its dst on the stack (sparseRows.add).
const largestOnStack = 64

// candidatesOnStack is the number of components at the cut up to which
// AppendLargest keeps them on the stack.
const candidatesOnStack = 128

// AppendLargest appends to dst the dimensions of the n components of v of
// largest magnitude (ties to the lower dimension), in dimension order;
// only finite, non-zero components count. It selects them by the bits of
// their magnitudes, which order as the values: a count of the components
// per exponent finds the exponent of the n-th largest; those above it are
// in, and of those at it (a factor of two apart at most), a count per
// next 8 bits of the mantissa finds the rest, and only the few at that
// cut are sorted: two passes over v and none over a heap. It allocates
// nothing with a dst of capacity n for a v of a few hundred components.
func AppendLargest(dst []int, v []float32, n int) []int {
	from := len(dst)
	if n <= 0 {
		return dst
	}
	// The magnitude's bits, tagged with the dimension (ties to the
	// lower one: larger keys are stronger), for the components at the cut.
	var onStack [candidatesOnStack]uint64
	cands := onStack[:0]
	// Level 1: exponents, the top 8 bits of the magnitude.
	var count [256]int32
	for _, f := range v {
		count[math.Float32bits(f)>>23&0xff]++
	}
	cut, need := cutAt(&count, 0xfe, n) // 0xff: infinities and NaNs
	for i, f := range v {
		m := math.Float32bits(f) &^ (1 << 31)
		switch e := int(m >> 23); {
		case e > cut && e < 0xff: // 0xff: infinities and NaNs
			dst = append(dst, i)
		case e == cut && m != 0:
			cands = append(cands, uint64(m)<<32|uint64(^uint32(i)))
		}
	}
	// Level 2: the next 8 bits, among the candidates.
	clear(count[:])
	for _, k := range cands {
		count[k>>47&0xff]++
	}
	cut, need = cutAt(&count, 0xff, need)
	rest := cands[:0]
	for _, k := range cands {
		switch b := int(k >> 47 & 0xff); {
		case b > cut:
			dst = append(dst, int(^uint32(k)))
		case b == cut:
			rest = append(rest, k)
		}
	}
	// The rest: the strongest need of them.
	slices.Sort(rest)
	for _, k := range rest[max(len(rest)-need, 0):] {
		dst = append(dst, int(^uint32(k)))
	}
	sortDims(dst[from:], len(v))
	return dst
}

// sortDims sorts dims, distinct dimensions of a vector of dim
// components, in increasing order: through a bit set (faster than
// slices.Sort) for a vector of up to 1,024 components.
func sortDims(dims []int, dim int) {
	var set [16]uint64
	if dim > 64*len(set) {
		slices.Sort(dims)
		return
	}
	for _, i := range dims {
		set[i>>6] |= 1 << (i & 63)
	}
	k := 0
	for w, b := range set[:(dim+63)/64] {
		for ; b != 0; b &= b - 1 {
			dims[k] = w<<6 | bits.TrailingZeros64(b)
			k++
		}
	}
}

// cutAt returns the bucket of count, from top down, at which the count
// from top reaches n, and how many of that bucket that leaves to take;
// bucket 0 and what is left when the buckets above it fall short.
func cutAt(count *[256]int32, top, n int) (cut, need int) {
	for b := top; b > 0; b-- {
		if c := int(count[b]); c < n {
			n -= c
		} else {
			return b, n
		}
	}
	return 0, n
}

// Dot is the dot product of two vectors of the same length: their cosine
// similarity when both are normalised.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	return dot(a, b)
}
