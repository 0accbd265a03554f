package vaultgraph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
)

// loadWords are the words of `make load`'s searches (runLoadClient in
// cmd/vaultgraph/load_test.go): two of them make a query.
var loadWords = []string{"project", "meeting", "plan", "garden", "music", "travel", "budget", "review"}

// BenchmarkSearchUnderWrites10k is one search as `make load` makes them
// (two of loadWords, the default mode and limit) on a copy of the
// 10,000-note benchmark vault with builtin vectors, after two writes (a
// note created, one of them updated): the writes move FTS5's merges on
// and change the tables, as ~120 writes/s do under the load. Only the
// search is timed (search-ns/op); ns/op has the writes too.
func BenchmarkSearchUnderWrites10k(b *testing.B) {
	src := benchVault(b)
	dir := filepath.Join(b.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		b.Fatal(err)
	}
	ids := benchIDs(b, dir)
	em, err := embed.New("builtin", embed.Options{})
	if err != nil {
		b.Fatal(err)
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(b.TempDir(), "index.db"), Embedder: em})
	ctx := context.Background()
	if err := e.Open(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	if err := e.WaitEmbeddings(ctx); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 42))
	var mine []string
	var searching time.Duration
	i := 0
	for b.Loop() {
		b.StopTimer()
		n, err := e.CreateNode(ctx, vaultgraph.NewNote{
			Title:     fmt.Sprintf("Load %d", i),
			Content:   fmt.Sprintf("created by the benchmark, token c%d, see [[%s]]", i, ids[r.IntN(len(ids))]),
			Tags:      []string{"load"},
			Directory: "Load",
		})
		if err != nil {
			b.Fatal(err)
		}
		mine = append(mine, n.Node.ID)
		content := fmt.Sprintf("updated by the benchmark, token u%d", i)
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: mine[r.IntN(len(mine))], Content: &content}); err != nil {
			b.Fatal(err)
		}
		query := loadWords[r.IntN(len(loadWords))] + " " + loadWords[r.IntN(len(loadWords))]
		b.StartTimer()
		began := time.Now()
		if _, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: query}); err != nil {
			b.Fatal(err)
		}
		searching += time.Since(began)
		i++
	}
	b.ReportMetric(float64(searching.Nanoseconds())/float64(max(i, 1)), "search-ns/op")
}
