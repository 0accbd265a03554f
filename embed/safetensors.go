package embed

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
)

// safetensors reads a file in the safetensors format: an 8-byte
// little-endian header length N, N bytes of JSON
// {"name":{"dtype":"F32","shape":[r,c],"data_offsets":[b,e]},
// "__metadata__":{...}}, then the tensors' bytes, offsets relative to the
// end of the header. Tensors are read on demand, so a large file is never
// held twice in memory.
type safetensors struct {
	r         io.ReaderAt
	dataStart int64
	tensors   map[string]tensorInfo
}

type tensorInfo struct {
	dtype      string
	shape      []int
	begin, end int64 // relative to dataStart
}

// maxSafetensorsHeader bounds the JSON header (the reference
// implementation allows 100 MB).
const maxSafetensorsHeader = 100 << 20

var dtypeSizes = map[string]int64{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1,
	"I16": 2, "U16": 2, "F16": 2, "BF16": 2,
	"I32": 4, "U32": 4, "F32": 4,
	"I64": 8, "U64": 8, "F64": 8,
}

// openSafetensors reads and checks the header of a safetensors file of
// the given size.
func openSafetensors(r io.ReaderAt, size int64) (*safetensors, error) {
	var lenBuf [8]byte
	if size < 8 {
		return nil, fmt.Errorf("%w: safetensors: %d bytes is too short for a header", ErrFormat, size)
	}
	if err := readAt(r, lenBuf[:], 0); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxSafetensorsHeader || n > uint64(size-8) {
		return nil, fmt.Errorf("%w: safetensors: header of %d bytes in a file of %d bytes", ErrFormat, n, size)
	}
	hdr := make([]byte, n)
	if err := readAt(r, hdr, 8); err != nil {
		return nil, err
	}
	tensors, err := parseSafetensorsHeader(hdr, size-8-int64(n))
	if err != nil {
		return nil, err
	}
	return &safetensors{r: r, dataStart: 8 + int64(n), tensors: tensors}, nil
}

// parseSafetensorsHeader checks the JSON header against a data section of
// dataLen bytes: known dtypes, non-negative shapes, offsets inside the data
// and matching the shape, no overlaps.
func parseSafetensorsHeader(hdr []byte, dataLen int64) (map[string]tensorInfo, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("%w: safetensors header: %v", ErrFormat, err)
	}
	tensors := make(map[string]tensorInfo, len(raw))
	for name, msg := range raw {
		if name == "__metadata__" {
			var meta map[string]string
			if err := json.Unmarshal(msg, &meta); err != nil {
				return nil, fmt.Errorf("%w: safetensors __metadata__: %v", ErrFormat, err)
			}
			continue
		}
		var t struct {
			Dtype   string  `json:"dtype"`
			Shape   []int64 `json:"shape"`
			Offsets []int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(msg, &t); err != nil {
			return nil, fmt.Errorf("%w: safetensors tensor %q: %v", ErrFormat, name, err)
		}
		size, ok := dtypeSizes[t.Dtype]
		if !ok {
			return nil, fmt.Errorf("%w: safetensors tensor %q: unknown dtype %q", ErrFormat, name, t.Dtype)
		}
		if len(t.Offsets) != 2 || t.Offsets[0] < 0 || t.Offsets[0] > t.Offsets[1] || t.Offsets[1] > dataLen {
			return nil, fmt.Errorf("%w: safetensors tensor %q: offsets %v outside %d data bytes", ErrFormat, name, t.Offsets, dataLen)
		}
		span := t.Offsets[1] - t.Offsets[0]
		shape := make([]int, len(t.Shape))
		count := int64(1)
		for i, d := range t.Shape {
			if d < 0 || d > math.MaxInt32 {
				return nil, fmt.Errorf("%w: safetensors tensor %q: bad shape %v", ErrFormat, name, t.Shape)
			}
			shape[i] = int(d)
			switch {
			case d == 0:
				count = 0
			case count > 0 && count > span/d: // more elements than bytes: cannot match
				count = -1
			case count > 0:
				count *= d
			}
		}
		if count < 0 || count*size != span {
			return nil, fmt.Errorf("%w: safetensors tensor %q: shape %v of %s needs other than %d bytes",
				ErrFormat, name, t.Shape, t.Dtype, span)
		}
		tensors[name] = tensorInfo{dtype: t.Dtype, shape: shape, begin: t.Offsets[0], end: t.Offsets[1]}
	}
	spans := make([]tensorInfo, 0, len(tensors))
	for _, t := range tensors {
		if t.end > t.begin {
			spans = append(spans, t)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].begin < spans[j].begin })
	for i := 1; i < len(spans); i++ {
		if spans[i].begin < spans[i-1].end {
			return nil, fmt.Errorf("%w: safetensors tensors overlap", ErrFormat)
		}
	}
	return tensors, nil
}

// readAt fills p from offset off; a short read is a truncated file.
func readAt(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	switch {
	case n == len(p):
		return nil
	case err == io.EOF:
		return fmt.Errorf("%w: safetensors: file truncated at %d bytes", ErrFormat, off+int64(n))
	}
	return fmt.Errorf("safetensors: %w", err)
}

// has reports whether the file holds a tensor of that name.
func (s *safetensors) has(name string) bool {
	_, ok := s.tensors[name]
	return ok
}

// readTensor streams a tensor's bytes in blocks of whole elements and
// converts each element with conv.
func readTensor[T any](s *safetensors, t tensorInfo, conv func(b []byte) T) ([]T, []int, error) {
	const block = 1 << 20
	elem := dtypeSizes[t.dtype]
	out := make([]T, (t.end-t.begin)/elem)
	buf := make([]byte, min(block-block%elem, t.end-t.begin))
	at := 0
	for off := t.begin; off < t.end; {
		n := min(int64(len(buf)), t.end-off)
		if err := readAt(s.r, buf[:n], s.dataStart+off); err != nil {
			return out, t.shape, err
		}
		for i := int64(0); i+elem <= n; i += elem {
			out[at] = conv(buf[i:])
			at++
		}
		off += n
	}
	return out, t.shape, nil
}

// floatConv reads one value of each float dtype as float32.
var floatConv = map[string]func(b []byte) float32{
	"F32":  func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) },
	"F16":  func(b []byte) float32 { return halfToFloat32(binary.LittleEndian.Uint16(b)) },
	"BF16": func(b []byte) float32 { return math.Float32frombits(uint32(binary.LittleEndian.Uint16(b)) << 16) },
	"F64":  func(b []byte) float32 { return float32(math.Float64frombits(binary.LittleEndian.Uint64(b))) },
	"I8":   func(b []byte) float32 { return float32(int8(b[0])) },
}

// intConv reads one value of each integer dtype as int64.
var intConv = map[string]func(b []byte) int64{
	"I32": func(b []byte) int64 { return int64(int32(binary.LittleEndian.Uint32(b))) },
	"I64": func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) },
}

// floats reads a tensor of F32, F16, BF16, F64 or I8 values as float32.
func (s *safetensors) floats(name string) ([]float32, []int, error) {
	return readAs(s, name, floatConv, "a float")
}

// ints reads a tensor of I32 or I64 values.
func (s *safetensors) ints(name string) ([]int64, []int, error) {
	return readAs(s, name, intConv, "an integer")
}

// readAs reads the tensor name with the conversion of its dtype; kind
// names the types convs holds, for the error.
func readAs[T any](s *safetensors, name string, convs map[string]func(b []byte) T, kind string) ([]T, []int, error) {
	t, ok := s.tensors[name]
	if !ok {
		return nil, nil, fmt.Errorf("%w: safetensors: no tensor %q", ErrFormat, name)
	}
	conv, ok := convs[t.dtype]
	if !ok {
		return nil, nil, fmt.Errorf("%w: safetensors tensor %q: dtype %s is not %s type", ErrFormat, name, t.dtype, kind)
	}
	return readTensor(s, t, conv)
}

// halfToFloat32 converts an IEEE 754 half-precision value, including
// subnormals, infinities and NaN.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch exp {
	case 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal: frac × 2^-24.
		return math.Float32frombits(sign | math.Float32bits(float32(frac)/(1<<24)))
	case 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | frac<<13)
}
