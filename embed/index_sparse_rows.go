package embed

import (
	"math"
	"slices"
)

// sparseRows holds terms (dimension, value) pairs per row, padded with
// value 0.
//
// It keeps them packed while it can: one uint16 per pair, the dimension
// in the top 9 bits and q + 64 in the low 7 for a signed q in [-63, 63],
// and one exponent e per row, the value being q × 2^e. That is the form
// the builtin embedder's vectors are stored in (and read back from), so
// they fit it exactly in 2 bytes a pair instead of 6. The first row that
// does not fit (another dimension, other values) turns the whole index
// into the wide form: a dims and a vals slice. Either way a row scores
// the same float32 sums (sparseRows.dot).
type sparseRows struct {
	terms int

	codes []uint16 // rows × terms, packed
	exps  []int8   // per row, packed

	wide bool
	dims []uint16  // rows × terms, wide
	vals []float32 // rows × terms, wide
}

// The packed form: 7 bits of q + 64, 9 of dimension, and the exponents
// whose 2^e is a normal float32, so that q × 2^e is exact.
const (
	packQBits  = 7
	packQBias  = 64
	packQMax   = 63
	packMaxDim = 1 << (16 - packQBits)
	packMinExp = -126
	packMaxExp = 127
)

// pow2 is 2^e as a float32, for e in [packMinExp, packMaxExp].
func pow2(e int8) float32 { return math.Float32frombits(uint32(int32(e)+127) << 23) }

// add appends the row of v's largest components.
func (s *sparseRows) add(v []float32) {
	var largest [largestOnStack]int
	order := AppendLargest(largest[:0], v, s.terms)
	if !s.wide && !s.addPacked(v, order) {
		s.widen()
	}
	if s.wide {
		for _, i := range order {
			s.dims = append(s.dims, uint16(i))
			s.vals = append(s.vals, v[i])
		}
		for range s.terms - len(order) {
			s.dims = append(s.dims, 0)
			s.vals = append(s.vals, 0)
		}
	}
}

// addPacked appends the components order of v in the packed form, or
// reports that they do not fit it exactly.
func (s *sparseRows) addPacked(v []float32, order []int) bool {
	var peak float32
	for _, i := range order {
		peak = max(peak, float32(math.Abs(float64(v[i]))))
	}
	// The smallest e with peak / 2^e < 64 is k - 6 for peak = f × 2^k,
	// f in [0.5, 1); a larger one keeps every |q| below 64 too.
	_, k := math.Frexp(float64(peak))
	e := max(k-6, packMinExp)
	if e < packMinExp || e > packMaxExp {
		return false
	}
	scale := pow2(int8(e))
	from := len(s.codes)
	for _, i := range order {
		q := math.Ldexp(float64(v[i]), -e)
		if i >= packMaxDim || q != math.Trunc(q) || math.Abs(q) > packQMax ||
			math.Float32bits(float32(q)*scale) != math.Float32bits(v[i]) {
			s.codes = s.codes[:from]
			return false
		}
		s.codes = append(s.codes, uint16(i)<<packQBits|uint16(int(q)+packQBias))
	}
	for range s.terms - len(order) {
		s.codes = append(s.codes, packQBias)
	}
	s.exps = append(s.exps, int8(e))
	return true
}

// widen turns the packed rows into the wide form.
func (s *sparseRows) widen() {
	s.dims = make([]uint16, 0, cap(s.codes))
	s.vals = make([]float32, 0, cap(s.codes))
	for r, e := range s.exps {
		scale := pow2(e)
		for _, c := range s.codes[r*s.terms : (r+1)*s.terms] {
			s.dims = append(s.dims, c>>packQBits)
			s.vals = append(s.vals, float32(int(c&(1<<packQBits-1))-packQBias)*scale)
		}
	}
	s.codes, s.exps, s.wide = nil, nil, true
}

// move copies row from into row to.
func (s *sparseRows) move(from, to int32) {
	t := s.terms
	if s.wide {
		copy(s.dims[int(to)*t:int(to+1)*t], s.dims[int(from)*t:int(from+1)*t])
		copy(s.vals[int(to)*t:int(to+1)*t], s.vals[int(from)*t:int(from+1)*t])
		return
	}
	copy(s.codes[int(to)*t:int(to+1)*t], s.codes[int(from)*t:int(from+1)*t])
	s.exps[to] = s.exps[from]
}

func (s *sparseRows) grow(rows int) {
	if s.wide {
		s.dims = slices.Grow(s.dims, rows*s.terms)
		s.vals = slices.Grow(s.vals, rows*s.terms)
		return
	}
	s.codes = slices.Grow(s.codes, rows*s.terms)
	s.exps = slices.Grow(s.exps, rows)
}

func (s *sparseRows) truncate(rows int) {
	if s.wide {
		s.dims, s.vals = s.dims[:rows*s.terms], s.vals[:rows*s.terms]
		return
	}
	s.codes, s.exps = s.codes[:rows*s.terms], s.exps[:rows]
}

// dot is the dot product of row r with query (of the index's dimension).
// A packed value q × 2^e is exact in float32, so both forms add the same
// products in the same order. Each product is rounded to float32 before
// it is added (the conversion keeps a compiler from fusing the multiply
// and the add, as some do on arm64), so that every way of scoring a row
// gives the same sum (sparseRows.dots4).
func (s *sparseRows) dot(r int, query []float32) float32 {
	t := s.terms
	var sum float32
	if s.wide {
		dims, vals := s.dims[r*t:(r+1)*t], s.vals[r*t:(r+1)*t]
		for i, d := range dims {
			if int(d) < len(query) {
				sum += float32(vals[i] * query[d])
			}
		}
		return sum
	}
	scale := pow2(s.exps[r])
	for _, c := range s.codes[r*t : (r+1)*t] {
		if d := int(c >> packQBits); d < len(query) {
			v := packQ[c&(1<<packQBits-1)] * scale
			sum += float32(v * query[d])
		}
	}
	return sum
}

// packQ is the q of each low 7 bits of a packed code, as a float32.
var packQ = func() (q [1 << packQBits]float32) {
	for i := range q {
		q[i] = float32(i - packQBias)
	}
	return q
}()

// dots sets out[i] to dot(rows[i], query). Packed rows go four at a
// time through dots4 when query covers every dimension a code can name.
func (s *sparseRows) dots(rows []int32, out []float32, query []float32) {
	out = out[:len(rows)]
	i := 0
	if !s.wide && len(query) >= packMaxDim {
		x := (*[packMaxDim]float32)(query)
		for ; i+4 <= len(rows); i += 4 {
			s.dots4((*[4]int32)(rows[i:]), (*[4]float32)(out[i:]), x)
		}
	}
	for ; i < len(rows); i++ {
		out[i] = s.dot(int(rows[i]), query)
	}
}

// dots4 is dot for four packed rows: each row's sum takes the same
// products in the same order as dot (every dimension is below
// len(query)), but the four sums are interleaved, so that the adds of
// one row do not wait on each other's latency alone.
func (s *sparseRows) dots4(rows *[4]int32, out *[4]float32, x *[packMaxDim]float32) {
	t := s.terms
	c0 := s.codes[int(rows[0])*t : int(rows[0]+1)*t]
	c1 := s.codes[int(rows[1])*t : int(rows[1]+1)*t][:len(c0)]
	c2 := s.codes[int(rows[2])*t : int(rows[2]+1)*t][:len(c0)]
	c3 := s.codes[int(rows[3])*t : int(rows[3]+1)*t][:len(c0)]
	e0, e1, e2, e3 := pow2(s.exps[rows[0]]), pow2(s.exps[rows[1]]), pow2(s.exps[rows[2]]), pow2(s.exps[rows[3]])
	const mask = 1<<packQBits - 1
	var s0, s1, s2, s3 float32
	for j, c := range c0 {
		s0 += float32(packQ[c&mask] * e0 * x[c>>packQBits])
		c = c1[j]
		s1 += float32(packQ[c&mask] * e1 * x[c>>packQBits])
		c = c2[j]
		s2 += float32(packQ[c&mask] * e2 * x[c>>packQBits])
		c = c3[j]
		s3 += float32(packQ[c&mask] * e3 * x[c>>packQBits])
	}
	out[0], out[1], out[2], out[3] = s0, s1, s2, s3
}
