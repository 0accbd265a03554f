package store

import (
	"encoding/binary"
	"math"

	"github.com/vaultgraph/vaultgraph/embed"
)

// A sparse vector keeps only the SparseTerms components of largest
// magnitude: one byte e (a signed exponent), then one little-endian
// uint16 per kept component, its dimension in the top 9 bits and, in the
// low 7, q + 64 for a signed q in [-63, 63]: the component is q × 2^e.
// Components are in dimension order; those that round to 0 are left out,
// so a blob is 1 + 2n bytes for n ≤ SparseTerms (65 at most, against 513
// for int8). The other components read back as 0.
//
// It is the form of the builtin embedder's vectors (lexical feature
// hashing, whose few largest components carry most of a match): a search
// scans these to pick candidates and then scores the candidates exactly
// by embedding their chunk again (see the engine's vector search), so
// the rounding here decides only which chunks are looked at, never a
// score.
//
// The length tells the forms apart: a sparse blob is odd and at most 65
// bytes, and it is used only for 64 < dim ≤ 512, where an int8 blob is
// dim+1 > 65 bytes and a float32 one 4 × dim.

// SparseTerms is how many components a sparse vector keeps. Chosen by
// measured recall on a 10,000-note generated vault: with the candidates
// scored exactly, the best note was always found and 99% of the ten
// best (32 terms, 200 candidate chunks); 24 terms lost more, 64 did
// not pay for their bytes.
const SparseTerms = 32

// sparseQMax is the largest magnitude of a sparse component (7 bits).
const sparseQMax = 63

// sparseMaxDim is the largest dimension a sparse entry can name (9 bits).
const sparseMaxDim = 1 << 9

// sparseFits reports whether vectors of dim components can be stored
// sparse without their length being mistaken for another form.
func sparseFits(dim int) bool { return dim > 2*SparseTerms && dim <= sparseMaxDim }

// Codec is a stored form of vectors.
type Codec uint8

// The stored forms: Int8 (every component, one byte each, with one
// exponent byte) and Sparse (the SparseTerms largest components).
const (
	Int8 Codec = iota
	Sparse
)

// Encode returns v in c's stored form. Sparse falls back to Int8 for a
// dimension it cannot hold (sparseFits).
func (c Codec) Encode(v []float32) []byte {
	if c == Sparse && sparseFits(len(v)) {
		return encodeSparse(v)
	}
	return encodeVector(v)
}

// Round returns v in c's stored form and rounds v, in place, to the
// values the index keeps for it (Encode, then read back), so that a
// vector searched in the process that made it is the one a later process
// reads.
func (c Codec) Round(v []float32) []byte {
	b := c.Encode(v)
	if d, err := decodeVector(b, len(v)); err == nil {
		copy(v, d)
	}
	return b
}

// encodeSparse writes the SparseTerms largest components of v
// (embed.Largest).
func encodeSparse(v []float32) []byte {
	var largest [SparseTerms]int
	idx := embed.AppendLargest(largest[:0], v, SparseTerms)
	var peak float64
	for _, i := range idx {
		peak = math.Max(peak, math.Abs(float64(v[i])))
	}
	e := scaleExponent(peak, sparseQMax)
	b := make([]byte, 1, 1+2*len(idx))
	b[0] = byte(int8(e))
	for _, i := range idx {
		q := math.Round(math.Ldexp(float64(v[i]), -e))
		q = min(max(q, -sparseQMax), sparseQMax)
		if q == 0 {
			continue
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(i)<<7|uint16(int(q)+64))
	}
	return b
}

// isSparse reports whether a blob of n bytes for dim components is a
// sparse vector.
func isSparse(n, dim int) bool {
	return sparseFits(dim) && n%2 == 1 && n <= 1+2*SparseTerms
}

// decodeSparse reads a sparse vector into v (zeroed by the caller).
func decodeSparse(b []byte, v []float32) bool {
	e := int(int8(b[0]))
	for p := 1; p+1 < len(b); p += 2 {
		x := binary.LittleEndian.Uint16(b[p:])
		i, q := int(x>>7), int(x&0x7f)-64
		if i >= len(v) {
			return false
		}
		v[i] = float32(math.Ldexp(float64(q), e))
	}
	return true
}
