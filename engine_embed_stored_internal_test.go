package vaultgraph

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
)

// TestEmbeddedScoresAsStored: a search in the process whose background
// embedder just made the vectors scores every note exactly as a later
// process that reads them back from the index (which keeps them as int8
// with a scale).
func TestEmbeddedScoresAsStored(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	plain := openEmbedding(t, dir, index, nil) // notes indexed, no vectors
	plain.Close()
	search := func(e *Engine) map[string]float64 { return semanticScores(t, e, "which note plans the project budget") }
	embedded := openEmbedding(t, dir, index, embed.NewBuiltin())
	fresh := search(embedded)
	embedded.Close()
	stored := search(openEmbedding(t, dir, index, embed.NewBuiltin()))
	for id, s := range fresh {
		if stored[id] != s {
			t.Errorf("%s scores %v in the process that embedded it, %v once read back", id, s, stored[id])
		}
	}
	if len(stored) != len(fresh) {
		t.Errorf("%d hits read back, %d in the embedding process", len(stored), len(fresh))
	}
}

// semanticScores waits for e's vectors and returns the score of each
// note a semantic search for query finds, failing when it finds none.
func semanticScores(t *testing.T, e *Engine, query string) map[string]float64 {
	t.Helper()
	waitEmbeddings(t, e)
	res, err := e.SearchPage(context.Background(), SearchQuery{Query: query, Mode: SearchSemantic})
	if err != nil {
		t.Fatalf("SearchPage = %v", err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("SearchPage found nothing")
	}
	scores := map[string]float64{}
	for _, h := range res.Hits {
		scores[h.ID] = h.Score
	}
	return scores
}
