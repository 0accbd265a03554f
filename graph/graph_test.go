package graph

import (
	"slices"
	"testing"
)

// link is one node of a test graph: its ID and outgoing links.
type link struct {
	id  string
	out []string
}

// buildGraph adds every node, then sets the outgoing links in order.
func buildGraph(links ...link) *Graph {
	g := New()
	g.Update(func(tx *Tx) {
		for _, l := range links {
			tx.PutNode(l.id, nil)
		}
		for _, l := range links {
			tx.SetOut(l.id, l.out)
		}
	})
	return g
}

// abcd is a small graph used by several tests:
//
//	a -> b, c, d;  b -> c;  c -> a;  d (no links);  e (orphan)
func abcd() *Graph {
	return buildGraph(
		link{"a", []string{"b", "c", "d"}},
		link{"b", []string{"c"}},
		link{"c", []string{"a"}},
		link{"d", nil},
		link{"e", nil},
	)
}

func TestEmptyGraph(t *testing.T) {
	g := New()
	if got := g.Len(); got != 0 {
		t.Errorf("Len() = %d, want 0", got)
	}
	if got := g.EdgeCount(); got != 0 {
		t.Errorf("EdgeCount() = %d, want 0", got)
	}
	if got := g.IDs(); len(got) != 0 {
		t.Errorf("IDs() = %v, want empty", got)
	}
	if got := g.Neighbors("x", Both, 0); got != nil {
		t.Errorf("Neighbors(x) = %v, want nil", got)
	}
	if got := g.Hubs(PageRank, 3); len(got) != 0 {
		t.Errorf("Hubs(PageRank, 3) = %v, want empty", got)
	}
	if got := g.pageRankScores(); len(got) != 0 {
		t.Errorf("pageRankScores() = %v, want empty", got)
	}
	if id, ok := g.Random(nil, nil); ok {
		t.Errorf("Random(nil, nil) = %q, true, want false", id)
	}
}

func TestBasics(t *testing.T) {
	g := abcd()
	if got := g.Len(); got != 5 {
		t.Errorf("Len() = %d, want 5", got)
	}
	if got := g.EdgeCount(); got != 5 {
		t.Errorf("EdgeCount() = %d, want 5", got)
	}
	if got, want := g.IDs(), []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Errorf("IDs() = %v, want %v", got, want)
	}
	if got, want := g.orphans(), []string{"e"}; !slices.Equal(got, want) {
		t.Errorf("orphans() = %v, want %v", got, want)
	}
}

func TestNodeQueries(t *testing.T) {
	tests := []struct {
		desc    string
		give    string
		wantHas bool
		wantOut []string
		wantIn  []string
	}{
		{desc: "out order kept", give: "a", wantHas: true, wantOut: []string{"b", "c", "d"}, wantIn: []string{"c"}},
		{desc: "in and out", give: "c", wantHas: true, wantOut: []string{"a"}, wantIn: []string{"a", "b"}},
		{desc: "sink", give: "d", wantHas: true, wantIn: []string{"a"}},
		{desc: "orphan", give: "e", wantHas: true},
		{desc: "missing", give: "zz"},
		{desc: "empty id", give: ""},
	}
	g := abcd()
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := g.Has(tt.give); got != tt.wantHas {
				t.Errorf("Has(%q) = %v, want %v", tt.give, got, tt.wantHas)
			}
			if got := g.Out(tt.give); !slices.Equal(got, tt.wantOut) {
				t.Errorf("Out(%q) = %v, want %v", tt.give, got, tt.wantOut)
			}
			if got := g.In(tt.give); !slices.Equal(got, tt.wantIn) {
				t.Errorf("In(%q) = %v, want %v", tt.give, got, tt.wantIn)
			}
			if got := g.OutDegree(tt.give); got != len(tt.wantOut) {
				t.Errorf("OutDegree(%q) = %d, want %d", tt.give, got, len(tt.wantOut))
			}
			if got := g.InDegree(tt.give); got != len(tt.wantIn) {
				t.Errorf("InDegree(%q) = %d, want %d", tt.give, got, len(tt.wantIn))
			}
		})
	}
}

func TestNeighbors(t *testing.T) {
	tests := []struct {
		desc  string
		give  string
		dir   Direction
		limit int
		want  []Neighbor
	}{
		{desc: "out", give: "a", dir: Out, want: []Neighbor{{"b", Out}, {"c", Out}, {"d", Out}}},
		{desc: "in", give: "c", dir: In, want: []Neighbor{{"a", In}, {"b", In}}},
		{desc: "both marks mutual", give: "a", dir: Both, want: []Neighbor{{"b", Out}, {"c", Both}, {"d", Out}}},
		{desc: "both in-only after out", give: "c", dir: Both, want: []Neighbor{{"a", Both}, {"b", In}}},
		{desc: "empty dir is both", give: "c", dir: "", want: []Neighbor{{"a", Both}, {"b", In}}},
		{desc: "limit", give: "a", dir: Both, limit: 2, want: []Neighbor{{"b", Out}, {"c", Both}}},
		{desc: "limit cuts in list", give: "c", dir: In, limit: 1, want: []Neighbor{{"a", In}}},
		{desc: "negative limit", give: "a", dir: Out, limit: -1, want: []Neighbor{{"b", Out}, {"c", Out}, {"d", Out}}},
		{desc: "orphan", give: "e", dir: Both, want: []Neighbor{}},
		{desc: "missing", give: "zz", dir: Both, want: nil},
		{desc: "unknown dir", give: "a", dir: "sideways", want: nil},
	}
	g := abcd()
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := g.Neighbors(tt.give, tt.dir, tt.limit)
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("Neighbors(%q, %q, %d) = %v, want %v", tt.give, tt.dir, tt.limit, got, tt.want)
			}
		})
	}
}

// TestRandomOpsMatchModel applies random changes to a Graph and to a plain
// map model and checks that both agree after every batch.

// orphans returns the IDs of the nodes without any edge, sorted.
func (g *Graph) orphans() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var ids []string
	for _, u := range g.live {
		if n := &g.nodes[u]; len(n.out) == 0 && len(n.in) == 0 {
			ids = append(ids, n.id)
		}
	}
	slices.Sort(ids)
	return ids
}
