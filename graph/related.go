package graph

import (
	"container/heap"
	"slices"
	"sync"
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
// many short paths lead to it from the seeds. It returns the best limit
// nodes the walk reaches (all of them when limit <= 0), best first (ties
// by ID), and how many it reaches, without the seeds and, with
// excludeLinked, without the seeds' direct neighbours. Unknown seeds are
// ignored; with none, the result is nil.
//
// Scores are computed by forward push (Andersen, Chung and Lang 2006),
// which touches only the part of the graph near the seeds: its work
// does not grow with the graph.
func (g *Graph) Related(seeds []string, excludeLinked bool, limit int) ([]Related, int) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	src := g.slots(seeds)
	if len(src) == 0 {
		return nil, 0
	}
	sc := g.pushScratch()
	defer sc.release()
	g.push(sc, src)
	for _, s := range src {
		sc.skip[s] = true
		if excludeLinked {
			g.eachNeighbor(s, true, true, func(v int32) bool { sc.skip[v] = true; return true })
		}
	}
	total, best := 0, 0.0
	for _, u := range sc.touched {
		if !sc.skip[u] && sc.p[u] > 0 {
			total++
			best = max(best, sc.p[u])
		}
	}
	if limit <= 0 || limit > total {
		limit = total
	}
	h := make(hubHeap, 0, limit) // the best limit, the worst at the root
	for _, u := range sc.touched {
		if sc.skip[u] || sc.p[u] <= 0 || limit == 0 {
			continue
		}
		hub := Hub{ID: g.nodes[u].id, Score: sc.p[u] / best}
		switch {
		case len(h) < limit:
			heap.Push(&h, hub)
		case better(hub, h[0]):
			h[0] = hub
			heap.Fix(&h, 0)
		}
	}
	out := make([]Related, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		hub := heap.Pop(&h).(Hub)
		out[i] = Related{ID: hub.ID, Score: hub.Score}
	}
	return out, total
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

// pushState is the working memory of one forward push, by node slot.
// Only the slots in touched are set; release clears them, so that the
// next push (of a graph with as many slots) can reuse it.
type pushState struct {
	p, r           []float64
	queued, skip   []bool
	touched, queue []int32
}

var pushPool sync.Pool

// pushScratch returns a cleared pushState sized for g.
func (g *Graph) pushScratch() *pushState {
	n := len(g.nodes)
	if sc, ok := pushPool.Get().(*pushState); ok && len(sc.p) == n {
		return sc
	}
	return &pushState{p: make([]float64, n), r: make([]float64, n), queued: make([]bool, n), skip: make([]bool, n)}
}

// release clears what the push set (the seeds and their neighbours,
// skipped, are among the touched slots) and returns sc to the pool.
func (sc *pushState) release() {
	for _, u := range sc.touched {
		sc.p[u], sc.r[u], sc.queued[u], sc.skip[u] = 0, 0, false, false
	}
	sc.touched, sc.queue = sc.touched[:0], sc.queue[:0]
	pushPool.Put(sc)
}

// push runs forward push from seeds: sc.p holds the approximate
// personalized PageRank of each node it reached (listed in sc.touched).
// A node's neighbours are its link targets and sources (a mutual link
// counts twice); a node without any keeps its residual.
func (g *Graph) push(sc *pushState, seeds []int32) {
	p, r, queued := sc.p, sc.r, sc.queued
	touch := func(v int32) {
		if !queued[v] && r[v] == 0 && p[v] == 0 {
			sc.touched = append(sc.touched, v)
		}
	}
	for _, s := range seeds {
		touch(s)
		r[s] += 1 / float64(len(seeds))
		sc.queue = append(sc.queue, s)
		queued[s] = true
	}
	for head := 0; head < len(sc.queue); head++ {
		u := sc.queue[head]
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
				touch(v)
				r[v] += share
				d := len(g.nodes[v].out) + len(g.nodes[v].in)
				if !queued[v] && r[v] >= relatedEpsilon*float64(max(d, 1)) {
					queued[v] = true
					sc.queue = append(sc.queue, v)
				}
			}
		}
	}
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
