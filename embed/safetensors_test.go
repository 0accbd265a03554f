package embed

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
)

func openBytes(b []byte) (*safetensors, error) {
	return openSafetensors(bytes.NewReader(b), int64(len(b)))
}

func TestSafetensorsRead(t *testing.T) {
	file := safetensorsFile([]testTensor{
		{"embeddings", "F32", []int{2, 2}, f32Bytes([][]float32{{1, -2}, {0.5, 3}})},
		{"half", "F16", []int{3}, f16Bytes(t, [][]float32{{1, -0.5, 65504}})},
		{"bf", "BF16", []int{1}, []byte{0x80, 0x3f}}, // 1.0
		{"mapping", "I32", []int{3}, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 2), 0), 1)},
		{"big", "I64", []int{1}, binary.LittleEndian.AppendUint64(nil, 1<<40)},
		{"empty", "F32", []int{0, 4}, nil},
	})
	st, err := openBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	checkFloats := func(name string, want []float32, wantShape []int) {
		t.Helper()
		got, shape, err := st.floats(name)
		if err != nil {
			t.Fatalf("floats(%s): %v", name, err)
		}
		if !slices.Equal(got, want) || len(shape) != len(wantShape) {
			t.Errorf("floats(%s) = %v %v, want %v %v", name, got, shape, want, wantShape)
		}
	}
	checkFloats("embeddings", []float32{1, -2, 0.5, 3}, []int{2, 2})
	checkFloats("half", []float32{1, -0.5, 65504}, []int{3})
	checkFloats("bf", []float32{1}, []int{1})
	checkFloats("empty", []float32{}, []int{0, 4})
	ids, _, err := st.ints("mapping")
	if err != nil || len(ids) != 3 || ids[0] != 2 || ids[1] != 0 || ids[2] != 1 {
		t.Errorf("ints(mapping) = %v, %v", ids, err)
	}
	if big, _, _ := st.ints("big"); len(big) != 1 || big[0] != 1<<40 {
		t.Errorf("ints(big) = %v", big)
	}
	// Wrong dtype for the reader.
	if _, _, err := st.floats("mapping"); !errors.Is(err, ErrFormat) {
		t.Errorf("floats(I32 tensor) error = %v, want ErrFormat", err)
	}
	if _, _, err := st.ints("embeddings"); !errors.Is(err, ErrFormat) {
		t.Errorf("ints(F32 tensor) error = %v, want ErrFormat", err)
	}
	if _, _, err := st.floats("nope"); !errors.Is(err, ErrFormat) {
		t.Errorf("floats(missing) error = %v, want ErrFormat", err)
	}
}

func TestSafetensorsLargeTensor(t *testing.T) {
	// More than one read block (1 MiB).
	rows := make([][]float32, 1<<17)
	for i := range rows {
		rows[i] = []float32{float32(i), -float32(i)}
	}
	st, err := openBytes(safetensorsFile([]testTensor{{"embeddings", "F32", []int{len(rows), 2}, f32Bytes(rows)}}))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := st.floats("embeddings")
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if got[2*i] != float32(i) || got[2*i+1] != -float32(i) {
			t.Fatalf("row %d = %v", i, got[2*i:2*i+2])
		}
	}
}

func TestSafetensorsErrors(t *testing.T) {
	good := safetensorsFile([]testTensor{{"embeddings", "F32", []int{2, 2}, f32Bytes([][]float32{{1, 2}, {3, 4}})}})
	withHeader := func(h string, data int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
		return append(append(b, h...), make([]byte, data)...)
	}
	tests := []struct {
		desc string
		give []byte
	}{
		{"empty file", nil},
		{"shorter than the length", good[:5]},
		{"header longer than the file", binary.LittleEndian.AppendUint64(nil, 1000)},
		{"huge header length", binary.LittleEndian.AppendUint64(nil, math.MaxUint64)},
		{"truncated data", good[:len(good)-3]},
		{"header not JSON", withHeader(`{"a":`, 0)},
		{"header a list", withHeader(`[1,2]`, 0)},
		{"unknown dtype", withHeader(`{"e":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}}`, 4)},
		{"shape disagrees with offsets", withHeader(`{"e":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, 4)},
		{"negative shape", withHeader(`{"e":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}`, 4)},
		{"overflowing shape", withHeader(`{"e":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}`, 4)},
		{"offsets reversed", withHeader(`{"e":{"dtype":"U8","shape":[2],"data_offsets":[4,2]}}`, 4)},
		{"offsets past the data", withHeader(`{"e":{"dtype":"U8","shape":[8],"data_offsets":[0,8]}}`, 4)},
		{"three offsets", withHeader(`{"e":{"dtype":"U8","shape":[2],"data_offsets":[0,2,4]}}`, 4)},
		{"overlap", withHeader(`{"a":{"dtype":"U8","shape":[3],"data_offsets":[0,3]},"b":{"dtype":"U8","shape":[3],"data_offsets":[1,4]}}`, 4)},
		{"bad metadata", withHeader(`{"__metadata__":{"a":1}}`, 0)},
		{"fractional shape", withHeader(`{"e":{"dtype":"U8","shape":[1.5],"data_offsets":[0,1]}}`, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if _, err := openBytes(tt.give); !errors.Is(err, ErrFormat) {
				t.Errorf("openSafetensors error = %v, want ErrFormat", err)
			}
		})
	}
}

func TestHalfToFloat32(t *testing.T) {
	tests := []struct {
		give uint16
		want float32
	}{
		{0x0000, 0},
		{0x3c00, 1},
		{0xc000, -2},
		{0x7bff, 65504},
		{0x0001, 1.0 / (1 << 24)}, // smallest subnormal
		{0x03ff, 1023.0 / (1 << 24)},
		{0x0400, 1.0 / (1 << 14)}, // smallest normal
		{0x7c00, float32(math.Inf(1))},
		{0xfc00, float32(math.Inf(-1))},
	}
	for _, tt := range tests {
		if got := halfToFloat32(tt.give); got != tt.want {
			t.Errorf("halfToFloat32(%#04x) = %v, want %v", tt.give, got, tt.want)
		}
	}
	if got := halfToFloat32(0x7e00); !math.IsNaN(float64(got)) {
		t.Errorf("halfToFloat32(NaN) = %v", got)
	}
	if got := halfToFloat32(0x8000); math.Float32bits(got) != 0x80000000 {
		t.Errorf("halfToFloat32(-0) = %v, want -0", got)
	}
}

func FuzzSafetensors(f *testing.F) {
	f.Add(safetensorsFile([]testTensor{{"embeddings", "F32", []int{2, 2}, f32Bytes([][]float32{{1, 2}, {3, 4}})}}))
	f.Add(safetensorsFile([]testTensor{
		{"a", "F16", []int{2}, []byte{0, 0x3c, 0, 0xc0}},
		{"m", "I64", []int{1}, make([]byte, 8)},
	}))
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":{}}        "))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := openBytes(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		for name, info := range st.tensors {
			if info.begin < 0 || info.end > int64(len(b)) || info.begin > info.end {
				t.Fatalf("tensor %s at [%d,%d) outside %d bytes", name, info.begin, info.end, len(b))
			}
			if v, _, err := st.floats(name); err == nil && int64(len(v))*dtypeSizes[info.dtype] != info.end-info.begin {
				t.Fatalf("tensor %s: %d values for %d bytes", name, len(v), info.end-info.begin)
			}
			st.ints(name)
		}
	})
}
