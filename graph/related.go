package graph

import (
	"cmp"
	"slices"
	"strings"
)

// Personalized PageRank parameters of [Graph.Related].
const (
	// relatedTeleport is the chance, at each step of the walk, of jumping
	// back to a seed (1 - damping).
	relatedTeleport = 1 - damping
	// relatedEpsilon is the residual per unit of degree below which
	// forward push stops: the scores are exact to about this much per
	// link of a node.
	relatedEpsilon = 1e-5
	// maxWhyDepth bounds the walk that measures path lengths for
	// [Graph.RelatedWhy].
	maxWhyDepth = 6
)

// Related is a node scored by its closeness to the seeds of
// [Graph.Related].
type Related struct {
	ID string
	// Score is the node's personalized PageRank, over the best node's
	// (so the closest node scores 1).
	Score float64
}

// Why says how a related node is linked with the seeds.
type Why struct {
	// Distance is the fewest links between the node and a seed, in
	// either direction; 0 when it is further than 6.
	Distance int
	// Shared are the seeds' neighbours the node is linked with too, by
	// ID.
	Shared []string
}

// Related ranks the nodes by personalized PageRank over the links taken
// in both directions, with every walk restarting at one of seeds (chosen
// evenly) with probability 0.15 at each step: a node scores high when
// many short paths lead to it from the seeds. It returns every node the
// walk reaches, best first (ties by ID), without the seeds and, with
// excludeLinked, without the seeds' direct neighbours. Unknown seeds are
// ignored; with none, the result is nil.
//
// Scores are computed by forward push (Andersen, Chung and Lang 2006),
// which touches only the part of the graph near the seeds: its work
// does not grow with the graph.
func (g *Graph) Related(seeds []string, excludeLinked bool) []Related {
	g.mu.RLock()
	defer g.mu.RUnlock()
	src := g.slots(seeds)
	if len(src) == 0 {
		return nil
	}
	p, touched := g.push(src)
	skip := map[int32]bool{}
	for _, s := range src {
		skip[s] = true
		if excludeLinked {
			g.eachNeighbor(s, true, true, func(v int32) bool { skip[v] = true; return true })
		}
	}
	out := make([]Related, 0, len(touched))
	best := 0.0
	for _, u := range touched {
		score := p[u]
		if skip[u] || score <= 0 {
			continue
		}
		best = max(best, score)
		out = append(out, Related{ID: g.nodes[u].id, Score: score})
	}
	for i := range out {
		out[i].Score /= best
	}
	slices.SortFunc(out, func(a, b Related) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// slots are the distinct slots of ids that are nodes.
func (g *Graph) slots(ids []string) []int32 {
	var out []int32
	for _, id := range ids {
		if u, ok := g.index[id]; ok && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// push runs forward push from seeds and returns the approximate
// personalized PageRank of each node it reached, by slot (the slots
// reached are listed in touched). A node's neighbours are its link
// targets and sources (a mutual link counts twice); a node without any
// keeps its residual.
func (g *Graph) push(seeds []int32) (p []float64, touched []int32) {
	p = make([]float64, len(g.nodes))
	r := make([]float64, len(g.nodes))
	queued := make([]bool, len(g.nodes))
	seen := make([]bool, len(g.nodes))
	queue := make([]int32, 0, 64)
	for _, s := range seeds {
		r[s] += 1 / float64(len(seeds))
		queue = append(queue, s)
		queued[s], seen[s] = true, true
		touched = append(touched, s)
	}
	for head := 0; head < len(queue); head++ {
		u := queue[head]
		queued[u] = false
		ru := r[u]
		nu := &g.nodes[u]
		deg := len(nu.out) + len(nu.in)
		r[u] = 0
		if deg == 0 {
			p[u] += ru
			continue
		}
		p[u] += relatedTeleport * ru
		share := (1 - relatedTeleport) * ru / float64(deg)
		for _, list := range [2][]int32{nu.out, nu.in} {
			for _, v := range list {
				r[v] += share
				if !seen[v] {
					seen[v] = true
					touched = append(touched, v)
				}
				d := len(g.nodes[v].out) + len(g.nodes[v].in)
				if !queued[v] && r[v] >= relatedEpsilon*float64(max(d, 1)) {
					queued[v] = true
					queue = append(queue, v)
				}
			}
		}
	}
	return p, touched
}

// RelatedWhy says, for each of ids, how it is linked with seeds: its
// distance from the nearest seed and the seeds' neighbours it shares.
func (g *Graph) RelatedWhy(seeds, ids []string) []Why {
	g.mu.RLock()
	defer g.mu.RUnlock()
	src := g.slots(seeds)
	near := map[int32]bool{} // the seeds' neighbours
	for _, s := range src {
		g.eachNeighbor(s, true, true, func(v int32) bool { near[v] = true; return true })
	}
	for _, s := range src {
		delete(near, s)
	}
	dist := g.distances(src, g.slots(ids))
	out := make([]Why, len(ids))
	for i, id := range ids {
		u, ok := g.index[id]
		if !ok {
			continue
		}
		out[i].Distance = dist[u]
		seen := map[int32]bool{}
		g.eachNeighbor(u, true, true, func(v int32) bool {
			if near[v] && !seen[v] && v != u {
				seen[v] = true
				out[i].Shared = append(out[i].Shared, g.nodes[v].id)
			}
			return true
		})
		slices.Sort(out[i].Shared)
	}
	return out
}

// distances walks breadth first from seeds over links in both directions
// until every target is reached or maxWhyDepth links, and returns the
// depth at which each target was reached.
func (g *Graph) distances(seeds, targets []int32) map[int32]int {
	want := map[int32]bool{}
	for _, t := range targets {
		want[t] = true
	}
	dist := map[int32]int{}
	seen := map[int32]bool{}
	frontier := slices.Clone(seeds)
	for _, s := range seeds {
		seen[s] = true
		delete(want, s)
	}
	for depth := 1; depth <= maxWhyDepth && len(want) > 0 && len(frontier) > 0; depth++ {
		var next []int32
		for _, u := range frontier {
			g.eachNeighbor(u, true, true, func(v int32) bool {
				if !seen[v] {
					seen[v] = true
					next = append(next, v)
					if want[v] {
						dist[v] = depth
						delete(want, v)
					}
				}
				return true
			})
		}
		frontier = next
	}
	return dist
}
