package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPageRankSameGraphSameScores: the same graph gets the same scores,
// bit for bit, whatever order its nodes were added and removed in (which
// shuffles Graph.live and the slots).
func TestPageRankSameGraphSameScores(t *testing.T) {
	links := randomLinks(rand.New(rand.NewPCG(3, 4)), 2000, 4)
	want := buildGraph(links...).pageRankScores()

	reversed := slices.Clone(links)
	slices.Reverse(reversed)
	tests := []struct {
		desc string
		give *Graph
	}{
		{desc: "added in reverse order", give: buildGraph(reversed...)},
		{desc: "after removals and slot reuse", give: rebuilt(links)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := tt.give.pageRankScores()
			differ := 0
			for id, w := range want {
				if got[id] != w {
					differ++
				}
			}
			if differ > 0 || len(got) != len(want) {
				t.Errorf("%d of %d scores differ from the same graph built in order (len %d, want %d)", differ, len(want), len(got), len(want))
			}
		})
	}
}

// rebuilt builds the graph of links after a history: other nodes come and
// go, and a half of the nodes is removed and added again, in another
// order, so that live positions and slots differ from buildGraph's.
func rebuilt(links []link) *Graph {
	r := rand.New(rand.NewPCG(7, 7))
	g := New()
	g.Update(func(tx *Tx) {
		for i, l := range links {
			tx.PutNode(l.id, nil)
			if i%3 == 0 {
				tx.PutNode(fmt.Sprint("temp-", i), nil)
			}
		}
	})
	g.PageRankOf(links[0].id) // an order to update, not to build
	g.Update(func(tx *Tx) {
		for i := range links {
			tx.Remove(fmt.Sprint("temp-", i))
		}
		for _, i := range r.Perm(len(links))[:len(links)/2] {
			tx.Remove(links[i].id)
		}
		for _, i := range r.Perm(len(links)) {
			tx.PutNode(links[i].id, nil)
		}
		for _, i := range r.Perm(len(links)) {
			tx.SetOut(links[i].id, links[i].out)
		}
	})
	return g
}

// TestRankOrderUpdate: after any history of changes, the order holds
// every node, sorted by ID.
func TestRankOrderUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	g := New()
	var o rankOrder
	for step := range 200 {
		g.Update(func(tx *Tx) {
			for range r.IntN(20) {
				id := fmt.Sprint("n", r.IntN(300))
				if r.IntN(3) == 0 {
					tx.Remove(id)
				} else {
					tx.PutNode(id, nil)
				}
			}
		})
		o.update(g)
		got := make([]string, len(o.slots))
		for i, u := range o.slots {
			got[i] = g.nodes[u].id
		}
		if want := g.IDs(); !slices.Equal(got, want) {
			t.Fatalf("step %d: order = %v, want %v", step, got, want)
		}
	}
}
