package vault

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/yuin/goldmark/ast"
)

// TestLineStarts: appendLineStarts, which jumps from line break to line
// break and reuses the room it is given, gives the offset of each line,
// as a look at every byte does.
func TestLineStarts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	var li lineIndex
	for range 2000 {
		src := make([]byte, r.IntN(300))
		for i := range src {
			src[i] = "ab\n\r "[r.IntN(5)]
		}
		want := lineIndex{0}
		for i, b := range src {
			if b == '\n' {
				want = append(want, i+1)
			}
		}
		if li = appendLineStarts(li, src); !slices.Equal(li, want) {
			t.Fatalf("appendLineStarts(%q) = %v, want %v", src, li, want)
		}
	}
}

// TestLineIndexPooled: the line index of a parse is taken from a pool
// and given back, so that a parse after the first makes none.
func TestLineIndexPooled(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what is put back")
	}
	src := []byte("# Title\n\nOne line\nand [[another]]\n\n- a list\n- of items\n")
	putLineIndex(getLineIndex(src))
	allocs := testing.AllocsPerRun(50, func() { putLineIndex(getLineIndex(src)) })
	if allocs != 0 {
		t.Errorf("getLineIndex then putLineIndex allocates %v times, want 0", allocs)
	}
}

// TestSpanTableSized: a parse context made for 300 links takes their
// spans without growing its table (the parse counts the openings of its
// text first: a table grown by doubling was about 5% of the bytes of a
// parse of a note of links).
func TestSpanTableSized(t *testing.T) {
	nodes := make([]ast.Node, 300)
	for i := range nodes {
		nodes[i] = ast.NewText()
	}
	made := testing.AllocsPerRun(5, func() { newContext(len(nodes)) })
	filled := testing.AllocsPerRun(5, func() {
		pc := newContext(len(nodes))
		for i, n := range nodes {
			putSpan(pc, n, span{i, i + 1})
		}
	})
	if filled != made {
		t.Errorf("putting %d spans makes %v allocations, want none", len(nodes), filled-made)
	}
}
