package vaultgraph

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// TestRescoreExact: the builtin model's vectors are kept sparse in
// memory, and a semantic search scores each note by the exact cosine
// similarity of the query with its best chunk, embedded again from the
// file, not by the sparse or int8 form.
func TestRescoreExact(t *testing.T) {
	dir := copyVaultForEmbed(t)
	e := openEmbedding(t, dir, filepath.Join(t.TempDir(), "index.db"), embed.NewBuiltin())
	waitEmbeddings(t, e)
	if !e.emb.index.Sparse() {
		t.Error("the builtin model's vectors are not kept sparse in memory")
	}
	const query = "which note plans the project budget"
	res, err := e.SearchPage(context.Background(), SearchQuery{Query: query, Mode: SearchSemantic})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("SearchPage = %v, %v; want hits", res, err)
	}
	b := embed.NewBuiltin()
	q := b.Vector(query)
	for _, h := range res.Hits {
		n, err := e.GetNode(context.Background(), h.ID, true)
		if err != nil || n == nil {
			t.Fatalf("GetNode(%s) = %v, %v", h.ID, n, err)
		}
		best := math.Inf(-1)
		for _, c := range embed.Chunks(n.Title, n.Content, embed.DefaultChunkChars) {
			best = math.Max(best, float64(embed.Dot(q, b.Vector(c.Text))))
		}
		if want := math.Round(best*1e4) / 1e4; h.Score != want {
			t.Errorf("%s scores %v, want %v: the cosine of its best chunk as embedded", h.ID, h.Score, want)
		}
	}
}

// TestUpgradeSchema7Vectors: the builtin model's vectors of an index
// written by the vaultgraph of schema 7 (int8, 513 bytes a chunk) are
// searched at once and made again in the sparse form, and a search then
// scores as on a fresh index.
func TestUpgradeSchema7Vectors(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	src, err := os.ReadFile(filepath.Join("internal", "store", "testdata", "schema7-testvault.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, src, 0o600); err != nil {
		t.Fatal(err)
	}
	dense := func(e *Engine) (notes, denseNotes int) {
		t.Helper()
		err := e.store.Vectors(ctx, embed.BuiltinModel, embed.BuiltinDim, func(nv store.NoteVectors) error {
			notes++
			if nv.Dense {
				denseNotes++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return notes, denseNotes
	}
	plain := openEmbedding(t, dir, index, nil)
	if n, d := dense(plain); n == 0 || d != n {
		t.Fatalf("the schema 7 index holds int8 vectors of %d of %d notes, want all of them", d, n)
	}
	plain.Close()

	search := func(e *Engine) map[string]float64 { return semanticScores(t, e, "which note plans the project budget") }
	upgraded := openEmbedding(t, dir, index, embed.NewBuiltin())
	got := search(upgraded)
	if n, d := dense(upgraded); n == 0 || d != 0 {
		t.Errorf("after the upgrade %d of %d notes still hold int8 vectors, want none", d, n)
	}
	fresh := search(openEmbedding(t, dir, filepath.Join(t.TempDir(), "fresh.db"), embed.NewBuiltin()))
	if len(got) != len(fresh) {
		t.Errorf("%d hits after the upgrade, %d on a fresh index", len(got), len(fresh))
	}
	for id, s := range fresh {
		if got[id] != s {
			t.Errorf("%s scores %v after the upgrade, %v on a fresh index", id, got[id], s)
		}
	}
}

// TestRescoreChunkCache: a semantic search scores the chunks it scored
// before from e.chunkVecs, without embedding them again, and with the
// same scores; a note edited since is embedded again from its file; a
// chunk embedded from a file that is not the version the engine has is
// not kept.
func TestRescoreChunkCache(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	e := openEmbedding(t, dir, filepath.Join(t.TempDir(), "index.db"), embed.NewBuiltin())
	waitEmbeddings(t, e)
	search := func() []SearchHit {
		t.Helper()
		res, err := e.SearchPage(ctx, SearchQuery{Query: "which note plans the project budget", Mode: SearchSemantic})
		if err != nil || len(res.Hits) == 0 {
			t.Fatalf("SearchPage = %v, %v; want hits", res, err)
		}
		return res.Hits
	}
	counts := func() (hits, misses int) {
		e.chunkVecs.mu.Lock()
		defer e.chunkVecs.mu.Unlock()
		return e.chunkVecs.hits, e.chunkVecs.misses
	}
	first := search()
	_, missed := counts()
	if missed == 0 {
		t.Fatal("the first search found its chunks' vectors kept already")
	}
	again := search()
	if hits, misses := counts(); hits == 0 || misses != missed {
		t.Errorf("the same search again: %d chunks kept, %d embedded again; want every chunk kept (%d)", hits, misses-missed, missed)
	}
	if !slices.Equal(again, first) {
		t.Errorf("the same search again = %+v, want %+v", again, first)
	}

	// The best note rewritten: its score is that of its new text.
	top := first[0]
	path := filepath.Join(dir, filepath.FromSlash(top.ID))
	if err := os.WriteFile(path, []byte("# Lunch\n\nSoup of the day and fresh bread.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, top.ID); err != nil {
		t.Fatal(err)
	}
	b := embed.NewBuiltin()
	q := b.Vector("which note plans the project budget")
	want := math.Inf(-1)
	for _, c := range embed.Chunks(strings.TrimSuffix(filepath.Base(top.ID), ".md"), "# Lunch\n\nSoup of the day and fresh bread.\n", embed.DefaultChunkChars) {
		want = math.Max(want, float64(embed.Dot(q, b.Vector(c.Text))))
	}
	for _, h := range search() {
		if h.ID == top.ID && h.Score != math.Round(want*1e4)/1e4 {
			t.Errorf("%s after its edit scores %v, want %v: the cosine of its new text", h.ID, h.Score, math.Round(want*1e4)/1e4)
		}
	}

	// A file changed behind the engine's back: scored as it is, not kept
	// under the version the engine has.
	other := first[1].ID
	e.mu.RLock()
	key := chunkKey{model: b.Model(), id: other, hash: e.notes[other].note.Hash, chars: e.chunkChars()}
	e.mu.RUnlock()
	e.chunkVecs = chunkCache{}
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(other)), []byte("Nothing about plans here.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h := e.rescoreNote(ctx, b, q, other, []int{0}, key.chars); h.ID != other {
		t.Fatalf("rescoreNote(%s) = %+v, want a score", other, h)
	}
	if v, ok := e.chunkVecs.get(key); ok {
		t.Errorf("the vector of %s as it is on disk is kept under the version the engine has (%v...)", other, v[:3])
	}
}
