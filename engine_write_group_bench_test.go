package vaultgraph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
)

// BenchmarkWriteParallel10k runs 32 writers at once on the 10,000-note
// vault with its index and the builtin embedder, as `serve` runs: each
// creates notes and replaces the content of those it made (about half
// and half), as the load test's clients do. Concurrent writes are
// committed in groups; ns/op is the time per acknowledged write.
func BenchmarkWriteParallel10k(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "vault")
	if err := os.CopyFS(dir, os.DirFS(benchVault(b))); err != nil {
		b.Fatal(err)
	}
	em, err := embed.New("builtin", embed.Options{})
	if err != nil {
		b.Fatal(err)
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(b.TempDir(), "index.db"), Embedder: em})
	if err := e.Open(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	ctx := context.Background()
	var writer atomic.Int64
	b.SetParallelism(16) // 32 writers on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := writer.Add(1)
		var mine []string
		for i := 0; pb.Next(); i++ {
			if i%2 == 0 || len(mine) == 0 {
				res, err := e.CreateNode(ctx, vaultgraph.NewNote{
					Title:     fmt.Sprintf("Parallel %d-%d", w, i),
					Content:   fmt.Sprintf("created by writer %d, see [[Note 1]]\n", w),
					Tags:      []string{"load"},
					Directory: "Load",
				})
				if err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, res.Node.ID)
				continue
			}
			c := fmt.Sprintf("updated by writer %d, token %d\n", w, i)
			if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: mine[i%len(mine)], Content: &c}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
