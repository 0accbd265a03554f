package vaultgraph_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// TestGeneratedVaultCounts cross-checks the parser and resolver against
// the generator, which knows every link it wrote and whether its target
// exists: both must count the same links and the same broken links.
func TestGeneratedVaultCounts(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		dir := filepath.Join(t.TempDir(), "vault")
		st, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 600, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
		if err := e.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, err := e.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got.Notes != st.Notes || got.Links != st.Links || got.BrokenLinks != st.BrokenLinks {
			t.Errorf("seed %d: Status() notes/links/broken = %d/%d/%d, want %d/%d/%d (as generated)",
				seed, got.Notes, got.Links, got.BrokenLinks, st.Notes, st.Links, st.BrokenLinks)
		}
		if len(got.Problems) != 0 {
			t.Errorf("seed %d: Status().Problems = %v, want none", seed, got.Problems)
		}
		e.Close()
	}
}
