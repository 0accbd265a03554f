package vaultgraph_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// TestSearchEvalStored runs the search evaluation of TestSearchEval on
// engines opened again from their index, so that semantic search uses the
// vectors as stored (one byte per dimension), and on engines that embed in
// the background, whose vectors stay as the embedder made them (float32
// in memory), and fails
// when recall@5 or MRR of a mode differs by more than 0.02.
func TestSearchEvalStored(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: evalGenNotes, Seed: evalGenSeed}); err != nil {
		t.Fatal(err)
	}
	for _, run := range []struct {
		set string
		dir string
	}{{"testvault.json", "testvault"}, {"vaultgen.json", dir}} {
		set := readEvalSet(t, run.set)
		em, err := embed.New("builtin", embed.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Wrapped, the builtin model is not known as local: it embeds in
		// the background, and the engine keeps the float32 vectors it made.
		fresh := vaultgraph.New(vaultgraph.Options{Vault: run.dir, Index: filepath.Join(t.TempDir(), "f32.db"), Embedder: float32Embedder{em}})
		if err := fresh.Open(ctx); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		err = fresh.WaitEmbeddings(wctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		freshScores, _, _ := runEval(ctx, t, fresh, set)
		fresh.Close()
		indexed := evalEngine(t, run.dir)
		index := indexed.IndexPath()
		if err := indexed.Close(); err != nil {
			t.Fatal(err)
		}
		e := vaultgraph.New(vaultgraph.Options{Vault: run.dir, Index: index, Embedder: em})
		if err := e.Open(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		wctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
		err = e.WaitEmbeddings(wctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if st, err := e.Status(ctx); err != nil || st.Embeddings != 1 {
			t.Fatalf("Status after reopening = %+v, %v; want every note's vectors read from the index", st, err)
		}
		stored, _, _ := runEval(ctx, t, e, set)
		for _, m := range evalModes {
			r0, m0 := freshScores[m].mean()
			r1, m1 := stored[m].mean()
			t.Logf("eval-stored vault=%s mode=%s recall@%d=%.2f mrr=%.2f (float32 in memory: %.2f %.2f)", set.Vault, m, evalK, r1, m1, r0, m0)
			if math.Abs(r1-r0) > 0.02 || math.Abs(m1-m0) > 0.02 {
				t.Errorf("eval vault=%s mode=%s with stored vectors: recall@%d %.3f, MRR %.3f; as embedded %.3f, %.3f",
					set.Vault, m, evalK, r1, m1, r0, m0)
			}
		}
	}
}

// float32Embedder hides the builtin embedder's type, so that the engine
// embeds in the background and searches the vectors as made.
type float32Embedder struct{ embed.Embedder }
