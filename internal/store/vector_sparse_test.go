package store

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
)

// TestSparseCodec checks the sparse form: at most 1 + 2 × SparseTerms
// bytes, odd, the largest components kept within half a step and every
// other one read back as 0, rounding that is stable, Int8 for dimensions
// the form cannot tell apart, and blobs of every form read by length.
func TestSparseCodec(t *testing.T) {
	b := embed.NewBuiltin()
	text := strings.Repeat("the budget plan of the river garden meeting, reviewed over coffee in Tokyo. ", 12)
	v := b.Vector(text)
	blob := Sparse.Encode(v)
	if len(blob) > 1+2*SparseTerms || len(blob)%2 != 1 {
		t.Fatalf("Sparse.Encode is %d bytes, want odd and at most %d", len(blob), 1+2*SparseTerms)
	}
	got, err := decodeVector(blob, len(v))
	if err != nil {
		t.Fatal(err)
	}
	order := make([]int, len(v))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return -cmpAbs(v[a], v[b])
	})
	half := math.Ldexp(1, scaleExponent(math.Abs(float64(v[order[0]])), sparseQMax)-1)
	for rank, i := range order {
		switch d := math.Abs(float64(got[i] - v[i])); {
		case rank < SparseTerms && d > half:
			t.Errorf("component %d (rank %d) = %v, want %v within %g", i, rank, got[i], v[i], half)
		case rank >= SparseTerms && got[i] != 0:
			t.Errorf("component %d (rank %d) = %v, want 0: only the %d largest are kept", i, rank, got[i], SparseTerms)
		}
	}
	w := slices.Clone(v)
	if r := Sparse.Round(w); !slices.Equal(r, blob) || !slices.Equal(w, got) {
		t.Errorf("Sparse.Round = %v, %v; want the blob and the vector read back", r, w)
	}
	if again := Sparse.Encode(w); !slices.Equal(again, blob) {
		t.Errorf("a rounded vector encodes to %v, want %v again", again, blob)
	}
	if got := Sparse.Encode(make([]float32, 512)); len(got) != 1 {
		t.Errorf("the zero vector is %d bytes sparse, want 1", len(got))
	}
	if got := Sparse.Encode(make([]float32, 64)); len(got) != 65 {
		t.Errorf("a 64-dimension vector is %d bytes, want int8 (65): sparse would be mistaken for it", len(got))
	}
	if got, err := decodeVector(Int8.Encode(v), len(v)); err != nil || cosine(got, v) < 0.999 {
		t.Errorf("an int8 blob of the builtin model no longer reads: %v", err)
	}
	if _, err := decodeVector([]byte{0, 0xff, 0xff}, 100); err == nil {
		t.Error("a sparse blob naming dimension 511 of 100 was read")
	}
	if _, err := decodeVector(make([]byte, 66), 512); err == nil {
		t.Error("a blob of 66 bytes for 512 dimensions was read")
	}
}

func cmpAbs(a, b float32) int {
	x, y := math.Abs(float64(a)), math.Abs(float64(b))
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// TestSparseVectorsStored checks that sparse blobs are stored and read
// back as written, and that Vectors says which notes still hold int8
// rows.
func TestSparseVectorsStored(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("a.md"), sampleRecord("b.md")}}); err != nil {
		t.Fatal(err)
	}
	v := embed.NewBuiltin().Vector("a sparse note about plans")
	sparse := Sparse.Encode(v)
	if err := s.PutVectors(ctx, "m", len(v), []NoteVectors{
		{Note: "a.md", Hash: "h", Blobs: [][]byte{sparse, sparse}},
		{Note: "b.md", Hash: "h", Vecs: [][]float32{v}},
	}); err != nil {
		t.Fatal(err)
	}
	got := map[string]NoteVectors{}
	if err := s.Vectors(ctx, "m", len(v), func(nv NoteVectors) error { got[nv.Note] = nv; return nil }); err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(v)
	Sparse.Round(want)
	if a := got["a.md"]; a.Dense || len(a.Vecs) != 2 || !slices.Equal(a.Vecs[1], want) {
		t.Errorf("a.md read back dense %v, %d chunks; want the sparse vector twice", a.Dense, len(a.Vecs))
	}
	if !got["b.md"].Dense {
		t.Error("b.md, stored as int8, is not said to be dense")
	}
}
