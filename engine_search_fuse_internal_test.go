package vaultgraph

import (
	"fmt"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// TestFuseAllocates: fusing a search's two rankings (MaxSearchTotal+1
// hits each, half of them the same notes) makes its hits in one slice
// and its map at its size, not an object per hit and a map grown as it
// fills.
func TestFuseAllocates(t *testing.T) {
	var kw []store.KeywordHit
	var vec []vectorHit
	for i := range MaxSearchTotal + 1 {
		kw = append(kw, store.KeywordHit{ID: fmt.Sprintf("k%03d.md", i)})
		id := fmt.Sprintf("v%03d.md", i)
		if i%2 == 0 {
			id = kw[i].ID
		}
		vec = append(vec, vectorHit{ID: id, Similarity: 0.9 - float64(i)/1000})
	}
	if got := len(fuse(kw, vec, BuiltinStrongSimilarity)); got != MaxSearchTotal+1+(MaxSearchTotal+1)/2 {
		t.Fatalf("fuse made %d hits, want %d", got, MaxSearchTotal+1+(MaxSearchTotal+1)/2)
	}
	if n := testing.AllocsPerRun(10, func() { fuse(kw, vec, BuiltinStrongSimilarity) }); n > 8 {
		t.Errorf("fuse allocates %v times, want at most 8", n)
	}
}
