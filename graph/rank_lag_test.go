package graph

import (
	"math"
	"testing"
	"time"
)

// TestPageRankLag checks SetRankLag: within the lag a changed graph is
// answered from the scores computed (no new computation), a node added
// since is scored by one step of the iteration, a node that took a
// removed node's slot does not inherit its score, and once the lag has
// passed the scores are those of the graph as it is.
func TestPageRankLag(t *testing.T) {
	g := buildGraph(link{"a", []string{"b"}}, link{"b", []string{"c"}}, link{"c", []string{"a"}})
	clock := time.Unix(1000, 0)
	g.rank.now = func() time.Time { return clock }
	g.SetRankLag(time.Second)
	before := g.pageRankScores()

	// d joins, linked from a (which now has two links out); c goes and
	// e takes its slot.
	g.Update(func(tx *Tx) {
		tx.PutNode("d", nil)
		tx.SetOut("a", []string{"b", "d"})
		tx.Remove("c")
		tx.PutNode("e", nil)
		tx.SetOut("e", []string{"a"})
	})
	clock = clock.Add(999 * time.Millisecond)
	if got := g.PageRankOf("b"); got != before["b"] {
		t.Errorf("PageRankOf(b) within the lag = %v, want the score computed before, %v", got, before["b"])
	}
	// One step for d: the teleport share of four nodes plus half of a's
	// score (a now has two links out).
	if got, want := g.PageRankOf("d"), (1-damping)/4+damping*before["a"]/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("PageRankOf(d) within the lag = %v, want %v", got, want)
	}
	// e has no links in: the teleport share, not c's old score.
	if got, want := g.PageRankOf("e"), (1-damping)/4; math.Abs(got-want) > 1e-12 {
		t.Errorf("PageRankOf(e) within the lag = %v, want %v (c's slot held %v)", got, want, before["c"])
	}
	if hubs := g.Hubs(PageRank, 0); len(hubs) != 4 {
		t.Errorf("Hubs within the lag = %v, want the 4 nodes", hubs)
	}
	if got := g.rank.runs; got != 1 {
		t.Errorf("computations within the lag = %d, want 1", got)
	}

	clock = clock.Add(time.Millisecond)
	fresh := buildGraph(link{"a", []string{"b", "d"}}, link{"b", nil}, link{"d", nil}, link{"e", []string{"a"}}).pageRankScores()
	for id, want := range fresh {
		if got := g.PageRankOf(id); math.Abs(got-want) > 1e-9 {
			t.Errorf("PageRankOf(%s) after the lag = %v, want %v", id, got, want)
		}
	}
	if got := g.rank.runs; got != 2 {
		t.Errorf("computations after the lag = %d, want 2", got)
	}
}
