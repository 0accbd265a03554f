package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// config is one complete state of the graph used by TestConcurrentReaders.
type config struct {
	links []link
	tags  map[string][]string
	adj   map[string][]string
}

// makeConfig builds a state of n nodes where node i links to i+step for
// each step, every node also links to hub, and nodes for which group
// returns true carry a tag under "group/".
func makeConfig(n int, steps []int, hub int, group func(i int) string) config {
	c := config{tags: map[string][]string{}, adj: map[string][]string{}}
	name := func(i int) string { return fmt.Sprintf("n%02d", i%n) }
	for i := range n {
		l := link{id: name(i)}
		for _, s := range steps {
			l.out = append(l.out, name(i+s))
		}
		l.out = append(l.out, name(hub))
		c.links = append(c.links, l)
		c.adj[l.id] = l.out
		c.tags[l.id] = []string{group(i)}
	}
	return c
}

// apply replaces the whole graph content with c in one batch, removing and
// re-adding some nodes on the way.
func (c config) apply(tx *Tx) {
	tx.Remove("n00")
	tx.Remove("n17")
	for _, l := range c.links {
		tx.PutNode(l.id, c.tags[l.id])
	}
	for _, l := range c.links {
		tx.SetOut(l.id, l.out)
	}
}

// TestConcurrentReaders runs readers while a writer keeps switching the
// graph between two states. Every read must match one state entirely, which
// shows that readers never see half a batch. Run with -race.
func TestConcurrentReaders(t *testing.T) {
	const n = 40
	configs := []config{
		makeConfig(n, []int{1}, 0, func(i int) string {
			if i%2 == 0 {
				return "group/even"
			}
			return "other"
		}),
		makeConfig(n, []int{2, 5}, 20, func(i int) string {
			if i%3 == 0 {
				return "Group/Three"
			}
			return "other"
		}),
	}
	type expected struct {
		neighbors []Neighbor
		tagged    []string
		hub       Hub
		edges     int
	}
	var want []expected
	for _, c := range configs {
		g := New()
		g.Update(c.apply)
		want = append(want, expected{
			neighbors: g.Neighbors("n05", Both, 0),
			tagged:    g.WithTags([]string{"GROUP"}, false),
			hub:       g.Hubs(PageRank, 1)[0],
			edges:     g.EdgeCount(),
		})
	}
	if want[0].hub.ID != "n00" || want[1].hub.ID != "n20" {
		t.Fatalf("top hubs = %v and %v, want n00 and n20", want[0].hub, want[1].hub)
	}

	g := New()
	g.Update(configs[0].apply)
	var done atomic.Bool
	var checks atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		defer done.Store(true)
		for i := range 300 {
			g.Update(configs[(i+1)%2].apply)
		}
	})
	matchAny := func(ok func(k int) bool) bool { return ok(0) || ok(1) }
	for w := range 6 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 99))
			for !done.Load() || checks.Load() < 200 {
				checks.Add(1)
				switch w % 4 {
				case 0:
					got := g.Neighbors("n05", Both, 0)
					if !matchAny(func(k int) bool { return slices.Equal(got, want[k].neighbors) }) {
						t.Errorf("Neighbors(n05) = %v, want %v or %v", got, want[0].neighbors, want[1].neighbors)
					}
				case 1:
					src, dst := fmt.Sprintf("n%02d", r.IntN(n)), fmt.Sprintf("n%02d", r.IntN(n))
					directed := r.IntN(2) == 0
					got := g.ShortestPath(src, dst, directed)
					if !matchAny(func(k int) bool {
						adj := configs[k].adj
						return got != nil && checkPath(adj, got, src, dst, directed) == nil &&
							len(got)-1 == bfsDistance(adj, src, dst, directed)
					}) {
						t.Errorf("ShortestPath(%q, %q, %v) = %v, not a shortest path in either state", src, dst, directed, got)
					}
				case 2:
					hubs := g.Hubs(PageRank, 1)
					if len(hubs) != 1 || !matchAny(func(k int) bool {
						return hubs[0].ID == want[k].hub.ID && math.Abs(hubs[0].Score-want[k].hub.Score) < 1e-9
					}) {
						t.Errorf("Hubs(PageRank, 1) = %v, want %v or %v", hubs, want[0].hub, want[1].hub)
					}
					if got := g.EdgeCount(); got != want[0].edges && got != want[1].edges {
						t.Errorf("EdgeCount() = %d, want %d or %d", got, want[0].edges, want[1].edges)
					}
				case 3:
					got := g.WithTags([]string{"#group"}, false)
					if !matchAny(func(k int) bool { return slices.Equal(got, want[k].tagged) }) {
						t.Errorf("WithTags(#group) = %v, want %v or %v", got, want[0].tagged, want[1].tagged)
					}
				}
				if t.Failed() {
					return
				}
			}
		})
	}
	wg.Wait()
	if got := g.Len(); got != n {
		t.Errorf("Len() = %d, want %d", got, n)
	}
}
