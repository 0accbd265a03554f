package vaultgraph

import (
	"slices"
	"testing"
)

// TestChunkLen: the last chunks of a pass halve down to taperChunkNotes,
// together cover every note once, and small chunk sizes do not taper.
func TestChunkLen(t *testing.T) {
	for _, tt := range []struct {
		desc        string
		total, size int
		want        []int
	}{
		{"10k", 10000, 2000, []int{2000, 2000, 2000, 2000, 1000, 500, 250, 250}},
		{"small size", 10, 3, []int{3, 3, 3, 1}},
		{"under a chunk", 300, 2000, []int{250, 50}},
	} {
		var got []int
		for from := 0; from < tt.total; {
			n := chunkLen(tt.total-from, tt.size)
			got = append(got, n)
			from += n
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: chunks %v, want %v", tt.desc, got, tt.want)
		}
	}
}
