package vaultgraph

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
	"github.com/vaultgraph/vaultgraph/vault"
)

// BenchmarkParseFiles is the work of a cold index's parse workers on
// one core: parse, prepare the full-text row and embed (builtin) each
// note of a generated 1,000-note vault, read beforehand
// (VAULTGRAPH_BENCH_VAULT names another vault to read instead).
func BenchmarkParseFiles(b *testing.B) {
	dir := os.Getenv("VAULTGRAPH_BENCH_VAULT")
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "vault")
		if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 1000, Seed: 1}); err != nil {
			b.Fatalf("generate: %v", err)
		}
	}
	res, err := vault.Scan(dir, nil)
	if err != nil {
		b.Fatalf("scan: %v", err)
	}
	e := New(Options{Vault: dir, Embedder: embed.NewBuiltin()})
	ie := e.inlineEmbedder()
	var size int64
	srcs := make([][]byte, len(res.Notes))
	for i, f := range res.Notes {
		if srcs[i], err = os.ReadFile(f.Path); err != nil {
			b.Fatal(err)
		}
		size += int64(len(srcs[i]))
	}
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		for i, f := range res.Notes {
			if p := e.parseFile(context.Background(), f, srcs[i], nil, "", ie); p.err != nil {
				b.Fatalf("%s: %v", f.ID, p.err)
			}
		}
	}
}
