package store

import (
	"context"
	"database/sql"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
)

// TestVectorCodec checks the stored form of a vector: dim+1 bytes, exact
// for small multiples of a power of two, within half a step of the
// largest component's scale otherwise, cosine within 0.005 for the
// builtin embedder's vectors, and float32 rows of schema 4 still read.
func TestVectorCodec(t *testing.T) {
	tests := []struct {
		desc string
		give []float32
	}{
		{desc: "unit", give: []float32{1, 0, 0}},
		{desc: "halves", give: []float32{0, 0.5, -0.25}},
		{desc: "zero", give: []float32{0, 0}},
		{desc: "large", give: []float32{3e30, -1e30}},
		{desc: "tiny", give: []float32{1e-30, 5e-31}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			b := encodeVector(tt.give)
			if len(b) != len(tt.give)+1 {
				t.Fatalf("encodeVector(%v) is %d bytes, want %d", tt.give, len(b), len(tt.give)+1)
			}
			got, err := decodeVector(b, len(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			var peak float64
			for _, f := range tt.give {
				peak = math.Max(peak, math.Abs(float64(f)))
			}
			for i := range got {
				if d := math.Abs(float64(got[i] - tt.give[i])); d > peak/vectorQMax {
					t.Errorf("decodeVector(encodeVector(%v)) = %v, want within %g", tt.give, got, peak/vectorQMax)
					break
				}
			}
		})
	}
	for _, exact := range [][]float32{{1, 0, 0}, {0, 0.5, -0.25}, {1, 1}} {
		if got, _ := decodeVector(encodeVector(exact), len(exact)); !equalFloats(got, exact) {
			t.Errorf("decodeVector(encodeVector(%v)) = %v, want it exactly", exact, got)
		}
	}
	if got, _ := decodeVector(encodeVector([]float32{float32(math.NaN()), float32(math.Inf(1)), 0.5}), 3); !equalFloats(got, []float32{0, 0, 0.5}) {
		t.Errorf("non-finite components = %v, want 0", got)
	}
	if _, err := decodeVector(make([]byte, 7), 3); err == nil {
		t.Error("a blob of 7 bytes for 3 dimensions was read")
	}
	if got, err := decodeVector([]byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xbf}, 2); err != nil || !equalFloats(got, []float32{1, -0.5}) {
		t.Errorf("decodeVector(float32 row) = %v, %v; want [1 -0.5]", got, err)
	}

	b := embed.NewBuiltin()
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"plan", "budget", "river", "meeting", "garden", "compiler", "tokyo", "review", "draft", "coffee"}
	var texts []string
	for range 50 {
		var s string
		for range 5 + r.IntN(40) {
			s += words[r.IntN(len(words))] + " "
		}
		texts = append(texts, s)
	}
	vecs, err := b.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := 1; i < len(vecs); i++ {
		q0, _ := decodeVector(encodeVector(vecs[i-1]), len(vecs[i-1]))
		q1, _ := decodeVector(encodeVector(vecs[i]), len(vecs[i]))
		worst = math.Max(worst, math.Abs(cosine(q0, q1)-cosine(vecs[i-1], vecs[i])))
	}
	if worst > 0.005 {
		t.Errorf("stored builtin vectors move a cosine by up to %.4f, want at most 0.005", worst)
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// TestUpgradeSchema4 opens a copy of an index file written by vaultgraph
// at schema 4 (testdata/schema4.db: testvault indexed with the builtin
// embedder) and checks that it is migrated in place: every note, link
// and tag kept, the vectors rewritten as bytes and within a step of
// their float32 values, the unused indexes gone.
func TestUpgradeSchema4(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "index.db")
	data, err := os.ReadFile(filepath.Join("testdata", "schema4.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := readRawVectors(t, path)
	if len(before) == 0 {
		t.Fatal("testdata/schema4.db holds no vectors")
	}
	s, snapBefore := openSchema4(t, path)
	defer s.Close()
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version = %d, %v; want %d", version, err, SchemaVersion)
	}
	if len(snapBefore.Notes) != 13 {
		t.Errorf("notes after the upgrade = %d, want 13", len(snapBefore.Notes))
	}
	links := 0
	for _, r := range snapBefore.Notes {
		links += len(r.Note.Links)
		if r.Note.Hash == "" || r.Note.Size < 0 {
			t.Errorf("note %s lost its hash or size in the upgrade", r.Note.ID)
		}
	}
	if links == 0 {
		t.Error("no links after the upgrade")
	}
	var idx int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name IN ('links_resolved', 'tags_tag')").Scan(&idx); err != nil || idx != 0 {
		t.Errorf("unused indexes left: %d, %v", idx, err)
	}
	var wide int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM vector_rows WHERE length(vec) <> dim + 1").Scan(&wide); err != nil || wide != 0 {
		t.Errorf("vectors not rewritten: %d, %v", wide, err)
	}
	n := 0
	err = s.Vectors(ctx, embed.BuiltinModel, embed.BuiltinDim, func(nv NoteVectors) error {
		for i, v := range nv.Vecs {
			old := before[nv.Note][i]
			if c := cosine(v, old); c < 0.999 {
				t.Errorf("vector %s/%d after the upgrade: cosine %.4f with the stored one, want at least 0.999", nv.Note, i, c)
			}
			n++
		}
		if nv.Hash == "" {
			t.Errorf("vectors of %s are stale after the upgrade", nv.Note)
		}
		return nil
	})
	if err != nil || n != countVectors(before) {
		t.Errorf("Vectors after the upgrade: %d of %d, %v", n, countVectors(before), err)
	}
}

// openSchema4 opens the index at path (migrating it) and loads it.
func openSchema4(t *testing.T, path string) (*Store, *Snapshot) {
	t.Helper()
	s, reason, err := OpenOrRebuild(context.Background(), path)
	if err != nil || reason != "" {
		t.Fatalf("OpenOrRebuild(schema 4) = %q, %v; want it migrated in place", reason, err)
	}
	snap, err := s.Load(context.Background())
	if err != nil {
		s.Close()
		t.Fatal(err)
	}
	return s, snap
}

// readRawVectors reads the float32 vectors of a schema-4 index file with
// plain SQL, by note and chunk.
func readRawVectors(t *testing.T, path string) map[string][][]float32 {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT note, dim, vec FROM vectors ORDER BY note, chunk")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][][]float32{}
	for rows.Next() {
		var note string
		var dim int
		var blob []byte
		if err := rows.Scan(&note, &dim, &blob); err != nil {
			t.Fatal(err)
		}
		if len(blob) != 4*dim {
			t.Fatalf("vector of %s is %d bytes: not a schema-4 float32 row", note, len(blob))
		}
		v, err := decodeVector(blob, dim)
		if err != nil {
			t.Fatal(err)
		}
		out[note] = append(out[note], v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func countVectors(m map[string][][]float32) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

// TestTableBytes checks that the parts of an index add up to its file.
func TestTableBytes(t *testing.T) {
	s, path := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("a.md"), sampleRecord("b.md")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutVectors(ctx, "m", 3, []NoteVectors{{Note: "a.md", Hash: "h", Vecs: [][]float32{{1, 0, 0}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	got, err := TableBytes(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	parts := []string{"vectors", "fts", "text", "links", "notes", "other"}
	for _, part := range parts {
		if part != "other" && got[part] <= 0 {
			t.Errorf("TableBytes()[%s] = %d, want pages", part, got[part])
		}
		sum += got[part]
	}
	if sum != fi.Size() || len(got) > len(parts) {
		t.Errorf("TableBytes() = %v: %d bytes in all, want the file's %d in %d parts", got, sum, fi.Size(), len(parts))
	}
	if _, err := TableBytes(ctx, filepath.Join(t.TempDir(), "none.db")); err == nil {
		t.Error("TableBytes of a missing file succeeded")
	}
}

// TestPutVectorBlobs checks that vectors given in their stored form are
// stored as they are, and that a blob of the wrong size is refused.
func TestPutVectorBlobs(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{sampleRecord("a.md")}}); err != nil {
		t.Fatal(err)
	}
	blobs := [][]byte{encodeVector([]float32{1, 0, 0}), encodeVector([]float32{0, 0.5, -0.25})}
	if err := s.Apply(ctx, &Batch{VectorModel: "m", VectorDim: 3,
		Vectors: []NoteVectors{{Note: "a.md", Hash: "h", Blobs: blobs}, {Note: "gone.md", Hash: "h", Blobs: blobs}}}); err != nil {
		t.Fatal(err)
	}
	var got []NoteVectors
	if err := s.Vectors(ctx, "m", 3, func(nv NoteVectors) error { got = append(got, nv); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Note != "a.md" || len(got[0].Vecs) != 2 || !equalFloats(got[0].Vecs[1], []float32{0, 0.5, -0.25}) {
		t.Errorf("Vectors after Apply with blobs = %+v, want a.md's two chunks", got)
	}
	if err := s.PutVectors(ctx, "m", 3, []NoteVectors{{Note: "a.md", Blobs: [][]byte{{1, 2}}}}); err == nil {
		t.Error("a blob of 2 bytes was stored as a vector of 3 dimensions")
	}
}
