package vaultgraph

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// TestInlineEmbedding checks the vectors a start-up pass makes while it
// parses: when Open returns, every note already has its vectors in the
// index, made from the same text the background embedder reads (the
// note's content, chunked), so that the background embedder has nothing
// left to do; a remote model is left to the background embedder.
func TestInlineEmbedding(t *testing.T) {
	ctx := context.Background()
	dir := copyVaultForEmbed(t)
	e := New(Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db"), Embedder: embed.NewBuiltin(), StoreVectorsOnly: true})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	stored := map[string]store.NoteVectors{}
	if err := e.store.Vectors(ctx, embed.BuiltinModel, embed.BuiltinDim, func(nv store.NoteVectors) error {
		stored[nv.Note] = nv
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	hashes := e.noteHashIDs()
	if len(stored) != len(hashes) || len(hashes) == 0 {
		t.Fatalf("after Open: vectors of %d notes stored, want all %d", len(stored), len(hashes))
	}
	b := embed.NewBuiltin()
	for id, h := range hashes {
		nv := stored[id]
		if nv.Hash != h.hash {
			t.Errorf("vectors of %s are of version %q, want %q", id, nv.Hash, h.hash)
		}
		n, err := e.GetNode(ctx, id, true)
		if err != nil {
			t.Fatal(err)
		}
		chunks := embed.Chunks(n.Title, n.Content, embed.DefaultChunkChars)
		if len(chunks) != len(nv.Vecs) {
			t.Errorf("%s: %d chunk vectors stored, the background embedder makes %d", id, len(nv.Vecs), len(chunks))
			continue
		}
		for i, c := range chunks {
			want := b.Vector(c.Text)
			store.Sparse.Round(want)
			if !slices.Equal(want, nv.Vecs[i]) {
				t.Errorf("%s chunk %d: the stored vector is not the one of its text", id, i)
			}
		}
	}
	if err := e.WaitEmbeddings(ctx); err != nil {
		t.Fatal(err)
	}

	// A remote model (any other embedder) embeds in the background.
	if ie := New(Options{Embedder: wrappedEmbedder{embed.NewBuiltin()}}).inlineEmbedder(); ie != nil {
		t.Error("a model that is not local embeds while parsing")
	}
	if ie := New(Options{Embedder: embed.NewBuiltin(), NoIndex: true}).inlineEmbedder(); ie != nil {
		t.Error("an engine without an index embeds while parsing")
	}
}

// wrappedEmbedder wraps an embedder in a type of its own, as a remote
// model would be.
type wrappedEmbedder struct{ embed.Embedder }
