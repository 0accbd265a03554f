package first

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKeeper: the values kept are the first n of those offered, in
// order, whatever order they come in and however many there are.
func TestKeeper(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct{ values, n int }{{0, 3}, {5, 0}, {5, 3}, {5, 5}, {5, 9}, {1000, 1}, {1000, 20}, {1000, 999}} {
		values := make([]int, tt.values)
		for i := range values {
			values[i] = r.IntN(50) // with ties
		}
		k := New(tt.n, cmp.Compare[int])
		for _, v := range values {
			k.Offer(v)
		}
		want := slices.Sorted(slices.Values(values))
		want = want[:min(tt.n, len(want))]
		if got := k.Sorted(); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("first %d of %d values = %v, want %v", tt.n, tt.values, got, want)
		}
	}
}
