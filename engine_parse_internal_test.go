package vaultgraph

import (
	"slices"
	"testing"
)

// TestChunkLen: the last chunks of a pass halve down to taperChunkNotes,
// together cover every note once; a pass of one chunk and small chunk
// sizes do not taper.
func TestChunkLen(t *testing.T) {
	for _, tt := range []struct {
		desc        string
		total, size int
		want        []int
	}{
		{"10k", 10000, 2000, []int{2000, 2000, 2000, 2000, 1000, 500, 250, 250}},
		{"small size", 10, 3, []int{3, 3, 3, 1}},
		{"one chunk", 300, 2000, []int{300}},
		{"a chunk and a half", 3000, 2000, []int{1500, 750, 375, 250, 125}},
	} {
		var got []int
		for from := 0; from < tt.total; {
			n := chunkLen(tt.total-from, tt.total, tt.size)
			got = append(got, n)
			from += n
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: chunks %v, want %v", tt.desc, got, tt.want)
		}
	}
}
