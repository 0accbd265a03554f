package embed

import (
	"fmt"
	"strings"
	"testing"
)

// TestEachChunkTextReusesParts: EachChunkText keeps its list of parts
// from one note to the next: a note of 40 sections makes no more
// allocations (their heading paths and prefixes) than cutting it into a
// list with room for its parts does, none for a list grown by doubling.
func TestEachChunkTextReusesParts(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what is put back")
	}
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "## Part %d\n\nSome text of part %d, long enough to be a chunk.\n\n", i, i)
	}
	body := b.String()
	EachChunkText("Title", body, 0, func(string) {})
	allocs := testing.AllocsPerRun(20, func() { EachChunkText("Title", body, 0, func(string) {}) })
	room := make([]chunkPart, 0, 64)
	want := testing.AllocsPerRun(20, func() { chunkParts(room[:0:64], "Title", body, DefaultChunkChars) })
	if allocs > want {
		t.Errorf("EachChunkText makes %v allocations, want at most %v (those of its parts)", allocs, want)
	}
}
