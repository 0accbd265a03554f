package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
)

// A vector is stored as one byte e (a signed exponent) and then one
// signed byte q per dimension: the value of dimension i is q[i] × 2^e.
// The exponent is the smallest that keeps every |q| at most 127, so the
// largest value keeps 7 bits and a vector whose values are small
// multiples of a power of two ({1, 0, 0}, {0, 0.5, -0.25}) comes back
// exactly. That is a quarter of float32's bytes (513 instead of 2,048
// at the builtin embedder's 512 dimensions), and a row then fits in its
// B-tree page instead of spilling into an overflow page of its own;
// cosine scores move by about 0.002 (search_eval_test.go measures recall
// with it).
//
// Rows written before schema 5 hold little-endian float32s (4 × dim
// bytes): decodeVector still reads them, and migrateVectorsInt8 rewrites
// them.

// vectorQMax is the largest magnitude of a stored component.
const vectorQMax = 127

// encodeVector writes v as an exponent byte and dim signed bytes. A
// component that is not finite is stored as 0.
func encodeVector(v []float32) []byte {
	var peak float64
	for _, f := range v {
		if a := math.Abs(float64(f)); a > peak && !math.IsInf(a, 0) {
			peak = a
		}
	}
	e := scaleExponent(peak, vectorQMax)
	b := make([]byte, 1+len(v))
	b[0] = byte(int8(e))
	for i, f := range v {
		x := float64(f)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		q := math.Round(math.Ldexp(x, -e))
		b[1+i] = byte(int8(min(max(q, -vectorQMax), vectorQMax)))
	}
	return b
}

// scaleExponent is the smallest e with peak / 2^e <= qmax (0 for a
// peak of 0), within the range of an int8.
func scaleExponent(peak, qmax float64) int {
	if peak <= 0 {
		return 0
	}
	_, e := math.Frexp(peak / qmax) // peak/qmax = frac × 2^e, frac in [0.5, 1)
	if math.Ldexp(peak, -(e-1)) <= qmax {
		e--
	}
	return min(max(e, math.MinInt8), math.MaxInt8)
}

// decodeVector reads a vector of dim components, stored by encodeVector
// (dim+1 bytes), by encodeSparse (odd, at most 1 + 2 × SparseTerms
// bytes) or, before schema 5, as little-endian float32s (4 × dim bytes).
func decodeVector(b []byte, dim int) ([]float32, error) {
	v := make([]float32, dim)
	switch len(b) {
	case dim + 1:
		e := int(int8(b[0]))
		for i := range v {
			v[i] = float32(math.Ldexp(float64(int8(b[1+i])), e))
		}
	case 4 * dim:
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	default:
		if isSparse(len(b), dim) && decodeSparse(b, v) {
			return v, nil
		}
		return nil, fmt.Errorf("vector of %d bytes, want %d", len(b), dim+1)
	}
	return v, nil
}

// migrateVectorsInt8 rewrites the float32 vectors of an index written
// before schema 5 in the form of encodeVector, a batch of rows at a time:
// a quarter of their bytes, and nothing is embedded again. The space
// freed is reused by later writes (the file does not shrink).
func migrateVectorsInt8(ctx context.Context, tx *sql.Tx) error {
	type row struct {
		note, model string
		chunk, dim  int
		vec         []byte
	}
	const batch = 1000
	for {
		rows, err := tx.QueryContext(ctx, `SELECT note, chunk, model, dim, vec FROM vectors
			WHERE length(vec) = 4 * dim AND dim > 0 LIMIT ?`, batch)
		got, err := scanRows(rows, err, func(rows *sql.Rows, r *row) error {
			return rows.Scan(&r.note, &r.chunk, &r.model, &r.dim, &r.vec)
		})
		if err != nil {
			return err
		}
		for _, r := range got {
			v, err := decodeVector(r.vec, r.dim)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "UPDATE vectors SET vec = ? WHERE note = ? AND chunk = ? AND model = ?",
				encodeVector(v), r.note, r.chunk, r.model); err != nil {
				return err
			}
		}
		if len(got) < batch {
			return nil
		}
	}
}
