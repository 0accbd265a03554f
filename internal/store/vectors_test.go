package store

import (
	"context"
	"slices"
	"testing"
)

// TestVectorsRoundTrip checks that vectors are stored per note, model and
// chunk, read back exactly, replaced by a newer version, dropped with the
// note, and that other models' vectors can be dropped.
func TestVectorsRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("a.md"), sampleRecord("b.md")}}); err != nil {
		t.Fatal(err)
	}
	put := func(model string, dim int, nv ...NoteVectors) {
		t.Helper()
		if err := s.PutVectors(ctx, model, dim, nv); err != nil {
			t.Fatal(err)
		}
	}
	read := func(model string, dim int) map[string]NoteVectors {
		t.Helper()
		out := map[string]NoteVectors{}
		if err := s.Vectors(ctx, model, dim, func(nv NoteVectors) error { out[nv.Note] = nv; return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	put("m1", 3, NoteVectors{Note: "a.md", Hash: "h1", Vecs: [][]float32{{1, 0, 0}, {0, 0.5, -0.25}}},
		NoteVectors{Note: "b.md", Hash: "h2", Vecs: [][]float32{{0, 1, 0}}},
		NoteVectors{Note: "gone.md", Hash: "h3", Vecs: [][]float32{{0, 0, 1}}}) // not a note: skipped
	put("m2", 2, NoteVectors{Note: "a.md", Hash: "h1", Vecs: [][]float32{{1, 1}}})
	got := read("m1", 3)
	if len(got) != 2 || got["a.md"].Hash != "h1" || !slices.Equal(got["a.md"].Vecs[1], []float32{0, 0.5, -0.25}) {
		t.Fatalf("Vectors(m1) = %+v", got)
	}
	if len(read("m1", 2)) != 0 {
		t.Error("vectors of another dimension were returned")
	}
	// A new version of a.md replaces all its chunks.
	put("m1", 3, NoteVectors{Note: "a.md", Hash: "h9", Vecs: [][]float32{{0, 0, 1}}})
	if got := read("m1", 3)["a.md"]; got.Hash != "h9" || len(got.Vecs) != 1 {
		t.Errorf("after replace: %+v", got)
	}
	if h, err := s.VectorHashes(ctx, "m1", 3); err != nil || len(h) != 2 || h["a.md"] != "h9" || h["b.md"] != "h2" {
		t.Errorf("VectorHashes(m1, 3) = %v, %v; want a.md h9, b.md h2", h, err)
	}
	// A note whose chunks are from two versions is stale: left out.
	put("m3", 2, NoteVectors{Note: "a.md", Hash: "hx", Vecs: [][]float32{{1, 1}}},
		NoteVectors{Note: "b.md", Hash: "h2", Vecs: [][]float32{{1, 0}, {0, 1}}})
	// Since schema 8 a note's chunks share one hash: a chunk missing is
	// what is left of two versions.
	if _, err := s.db.ExecContext(ctx, `DELETE FROM vectors WHERE note = (SELECT doc FROM notes WHERE id = 'b.md')
		AND model = (SELECT model FROM vector_models WHERE name = 'm3') AND chunk = 1`); err != nil {
		t.Fatal(err)
	}
	if h, err := s.VectorHashes(ctx, "m3", 2); err != nil || len(h) != 1 || h["a.md"] != "hx" {
		t.Errorf("VectorHashes(m3, 2) = %v, %v; want only a.md (b.md's chunks are of two versions)", h, err)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM vector_models WHERE name = 'm3'"); err != nil {
		t.Fatal(err)
	}
	models, err := s.VectorModels(ctx)
	if err != nil || models["m1/3"] != 2 || models["m2/2"] != 1 {
		t.Errorf("VectorModels = %v, %v", models, err)
	}
	if err := s.PutVectors(ctx, "m1", 3, []NoteVectors{{Note: "a.md", Vecs: [][]float32{{1}}}}); err == nil {
		t.Error("a vector of the wrong dimension was stored")
	}
	// Deleting the note deletes its vectors.
	if err := s.Apply(ctx, &Batch{Deletes: []string{"b.md"}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := read("m1", 3)["b.md"]; ok {
		t.Error("vectors of a deleted note remain")
	}
	if err := s.DropOtherVectors(ctx, "m1", 3); err != nil {
		t.Fatal(err)
	}
	if models, _ := s.VectorModels(ctx); len(models) != 1 {
		t.Errorf("after DropOtherVectors: %v", models)
	}
}
