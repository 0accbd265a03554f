package graph

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

func TestPageRankHandComputed(t *testing.T) {
	tests := []struct {
		desc string
		give []link
		want map[string]float64
	}{
		{
			// b is dangling and spreads its rank evenly. With d = 0.85:
			//   ra = 0.15/2 + 0.85*rb/2
			//   rb = 0.15/2 + 0.85*rb/2 + 0.85*ra
			// and ra + rb = 1 give 1.425*ra = 0.5, so ra = 20/57.
			desc: "dangling pair",
			give: []link{{"a", []string{"b"}}, {"b", nil}},
			want: map[string]float64{"a": 20.0 / 57, "b": 37.0 / 57},
		},
		{
			// a -> b, a -> c, b -> c, c -> a:
			//   ra = 0.05 + 0.85*rc
			//   rb = 0.05 + 0.85*ra/2
			//   rc = 0.05 + 0.85*(ra/2 + rb) = 0.0925 + 0.78625*ra
			// so ra = 0.128625/0.3316875 = 686/1769, rb = 380/1769,
			// rc = 703/1769.
			desc: "three nodes",
			give: []link{{"a", []string{"b", "c"}}, {"b", []string{"c"}}, {"c", []string{"a"}}},
			want: map[string]float64{"a": 686.0 / 1769, "b": 380.0 / 1769, "c": 703.0 / 1769},
		},
		{
			// A chain a -> b -> c, c dangling:
			//   ra = 0.05 + 0.85*rc/3
			//   rb = ra + 0.85*ra
			//   rc = ra + 0.85*rb
			// so with the sum 1: ra = 400/2169, rb = 740/2169, rc = 1029/2169.
			desc: "chain",
			give: []link{{"a", []string{"b"}}, {"b", []string{"c"}}, {"c", nil}},
			want: map[string]float64{"a": 400.0 / 2169, "b": 740.0 / 2169, "c": 1029.0 / 2169},
		},
		{
			desc: "cycle is uniform",
			give: []link{{"a", []string{"b"}}, {"b", []string{"c"}}, {"c", []string{"d"}}, {"d", []string{"a"}}},
			want: map[string]float64{"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25},
		},
		{
			desc: "single node",
			give: []link{{"a", nil}},
			want: map[string]float64{"a": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g := buildGraph(tt.give...)
			got := g.pageRankScores()
			if len(got) != len(tt.want) {
				t.Errorf("pageRankScores() = %v, want %v", got, tt.want)
			}
			for id, want := range tt.want {
				if math.Abs(got[id]-want) > 1e-6 {
					t.Errorf("pageRankScores()[%q] = %.9f, want %.9f", id, got[id], want)
				}
				if of := g.PageRankOf(id); of != got[id] {
					t.Errorf("PageRankOf(%q) = %v, want %v", id, of, got[id])
				}
			}
		})
	}
}

func TestPageRankSumsToOne(t *testing.T) {
	g := buildGraph(randomLinks(rand.New(rand.NewPCG(5, 6)), 500, 3)...)
	g.Update(func(tx *Tx) { tx.Remove("node-0007"); tx.Remove("node-0100") })
	scores := g.pageRankScores()
	if len(scores) != 498 {
		t.Errorf("len(pageRankScores()) = %d, want 498", len(scores))
	}
	sum := 0.0
	for id, s := range scores {
		if s <= 0 {
			t.Errorf("pageRankScores()[%q] = %v, want > 0", id, s)
		}
		sum += s
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("sum of pageRankScores() = %.12f, want 1", sum)
	}
	if got := g.PageRankOf("node-0007"); got != 0 {
		t.Errorf("PageRankOf(removed) = %v, want 0", got)
	}
}

func TestPageRankCache(t *testing.T) {
	g := buildGraph(link{"a", []string{"b"}}, link{"b", nil})
	before := g.PageRankOf("a")
	g.pageRankScores()
	g.Hubs(PageRank, 1)
	if got := g.rank.runs; got != 1 {
		t.Errorf("computations after three reads = %d, want 1", got)
	}
	g.Update(func(tx *Tx) { tx.SetOut("b", []string{"a"}) })
	if got := g.PageRankOf("a"); got == before || math.Abs(got-0.5) > 1e-9 {
		t.Errorf("PageRankOf(a) after Update = %v, want 0.5", got)
	}
	if got := g.rank.runs; got != 2 {
		t.Errorf("computations after Update = %d, want 2", got)
	}
}

// TestPageRankKeptWhenLinksSame: a version that changes only tags, or
// sets a node's links to the same links, keeps the scores; a node that
// takes a removed node's slot and links is ranked as it was; a change of
// links computes them again.
func TestPageRankKeptWhenLinksSame(t *testing.T) {
	g := buildGraph(link{"a", []string{"b", "c"}}, link{"b", []string{"c"}}, link{"c", nil})
	before := g.pageRankScores()
	g.Update(func(tx *Tx) {
		tx.PutNode("a", []string{"new-tag"})
		tx.SetOut("b", []string{"c"})
	})
	if got := g.pageRankScores(); !maps.Equal(got, before) {
		t.Errorf("scores after a tags-only update = %v, want %v", got, before)
	}
	if got := g.rank.runs; got != 1 {
		t.Errorf("computations after a tags-only update = %d, want 1", got)
	}
	g.Update(func(tx *Tx) {
		tx.Remove("c")
		tx.PutNode("d", nil)
		tx.SetOut("a", []string{"b", "d"})
		tx.SetOut("b", []string{"d"})
	})
	if got, want := g.PageRankOf("d"), before["c"]; got != want {
		t.Errorf("PageRankOf(d) in c's place = %v, want %v", got, want)
	}
	g.Update(func(tx *Tx) { tx.SetOut("d", []string{"a"}) })
	if got := g.PageRankOf("d"); got == before["c"] {
		t.Errorf("PageRankOf(d) after d links to a = %v, unchanged", got)
	}
	if got := g.rank.runs; got != 2 {
		t.Errorf("computations after one change of links = %d, want 2", got)
	}
}

func TestPageRankComputedOnceConcurrently(t *testing.T) {
	g := buildGraph(randomLinks(rand.New(rand.NewPCG(1, 1)), 2000, 4)...)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() { g.PageRankOf("node-0001") })
	}
	wg.Wait()
	if got := g.rank.runs; got != 1 {
		t.Errorf("computations by 32 concurrent readers = %d, want 1", got)
	}
}

func TestPageRankScoresIsCopy(t *testing.T) {
	g := buildGraph(link{"a", []string{"b"}}, link{"b", nil})
	g.pageRankScores()["a"] = 42
	if got := g.PageRankOf("a"); got == 42 {
		t.Errorf("PageRankOf(a) = %v after modifying a returned map, want unchanged", got)
	}
}

func TestHubs(t *testing.T) {
	// In-degrees: c 3, a 1, b 1, d 1, e 0. Out-degrees: a 3, b 1, c 1, e 1.
	g := buildGraph(
		link{"a", []string{"b", "c", "d"}},
		link{"b", []string{"c"}},
		link{"c", []string{"a"}},
		link{"d", nil},
		link{"e", []string{"c"}},
	)
	tests := []struct {
		desc  string
		give  Metric
		limit int
		want  []Hub
	}{
		{desc: "in degree top", give: InDegree, limit: 2, want: []Hub{{"c", 3}, {"a", 1}}},
		{desc: "in degree all, ties by ID", give: InDegree, want: []Hub{{"c", 3}, {"a", 1}, {"b", 1}, {"d", 1}, {"e", 0}}},
		{desc: "out degree", give: OutDegree, limit: 3, want: []Hub{{"a", 3}, {"b", 1}, {"c", 1}}},
		{desc: "limit above size", give: OutDegree, limit: 99, want: []Hub{{"a", 3}, {"b", 1}, {"c", 1}, {"e", 1}, {"d", 0}}},
		{desc: "negative limit", give: OutDegree, limit: -5, want: []Hub{{"a", 3}, {"b", 1}, {"c", 1}, {"e", 1}, {"d", 0}}},
		{desc: "unknown metric", give: "betweenness", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := g.Hubs(tt.give, tt.limit); !slices.Equal(got, tt.want) {
				t.Errorf("Hubs(%q, %d) = %v, want %v", tt.give, tt.limit, got, tt.want)
			}
		})
	}
}

func TestHubsPageRank(t *testing.T) {
	g := buildGraph(randomLinks(rand.New(rand.NewPCG(9, 9)), 300, 3)...)
	scores := g.pageRankScores()
	all := g.Hubs(PageRank, 0)
	if len(all) != len(scores) {
		t.Fatalf("len(Hubs(PageRank, 0)) = %d, want %d", len(all), len(scores))
	}
	for i, h := range all {
		if h.Score != scores[h.ID] {
			t.Errorf("Hubs(PageRank, 0)[%d] = %v, want score %v", i, h, scores[h.ID])
		}
		if i > 0 && better(h, all[i-1]) {
			t.Errorf("Hubs(PageRank, 0)[%d] = %v ranks before [%d] = %v", i, h, i-1, all[i-1])
		}
	}
	if got := g.Hubs(PageRank, 10); !slices.Equal(got, all[:10]) {
		t.Errorf("Hubs(PageRank, 10) = %v, want %v", got, all[:10])
	}
}

// pageRankScores returns the PageRank of every node, keyed by ID, as
// PageRankOf gives it. The returned map is a copy the caller may modify.
func (g *Graph) pageRankScores() map[string]float64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	scores := g.pageRank()
	res := make(map[string]float64, len(g.live))
	for _, u := range g.live {
		res[g.nodes[u].id] = scores[u]
	}
	return res
}
