package graph

import (
	"slices"
	"sync"
)

// bfsSide is the state of one direction of a bidirectional search.
type bfsSide struct {
	seen     []uint32 // seen[u] == stamp when u was reached from this side
	parent   []int32  // the node u was reached from; -1 at the start
	frontier []int32  // nodes of the last completed layer
	next     []int32  // nodes of the layer being built
	out, in  bool     // follow outgoing and/or incoming edges
}

// bfsScratch holds the reusable buffers of one ShortestPath call.
type bfsScratch struct {
	stamp         uint32
	fwd, bwd      bfsSide
	parentScratch []int32 // path reconstruction buffer
}

var bfsPool = sync.Pool{New: func() any { return new(bfsScratch) }}

// reset sizes the buffers for n slots and returns a fresh stamp.
func (sc *bfsScratch) reset(n int) uint32 {
	for _, s := range []*bfsSide{&sc.fwd, &sc.bwd} {
		if len(s.seen) < n {
			s.seen = make([]uint32, n)
			s.parent = make([]int32, n)
			sc.stamp = 0
		}
		s.frontier = s.frontier[:0]
		s.next = s.next[:0]
	}
	sc.stamp++
	if sc.stamp == 0 {
		clear(sc.fwd.seen)
		clear(sc.bwd.seen)
		sc.stamp = 1
	}
	return sc.stamp
}

// ShortestPath returns a shortest path [src ... dst] found by breadth-first
// search, following edges in both directions unless directed is true. It
// returns [src] when src == dst, and nil when there is no path or either
// node is missing.
//
// The search is bidirectional and explores neighbours in ID order, so among
// paths of equal length the same one is returned every time for the same
// graph.
func (g *Graph) ShortestPath(src, dst string, directed bool) []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	s, okS := g.index[src]
	t, okT := g.index[dst]
	if !okS || !okT {
		return nil
	}
	if s == t {
		return []string{src}
	}

	sc := bfsPool.Get().(*bfsScratch)
	defer bfsPool.Put(sc)
	stamp := sc.reset(len(g.nodes))
	fwd, bwd := &sc.fwd, &sc.bwd
	fwd.out, fwd.in = true, !directed
	bwd.out, bwd.in = !directed, true

	fwd.seen[s], fwd.parent[s] = stamp, -1
	bwd.seen[t], bwd.parent[t] = stamp, -1
	fwd.frontier = append(fwd.frontier, s)
	bwd.frontier = append(bwd.frontier, t)

	for len(fwd.frontier) > 0 && len(bwd.frontier) > 0 {
		side, other := fwd, bwd
		if len(bwd.frontier) < len(fwd.frontier) {
			side, other = bwd, fwd
		}
		if meet := g.expand(side, other, stamp); meet >= 0 {
			return g.joinPath(sc, meet)
		}
	}
	return nil
}

// expand extends side by one full layer. It returns the first newly reached
// node that the other side has already reached, or -1.
//
// Because no node was reached by both sides before this layer, every such
// meeting node closes a path of the same, shortest, length.
func (g *Graph) expand(side, other *bfsSide, stamp uint32) int32 {
	for _, u := range side.frontier {
		meet := int32(-1)
		g.eachNeighbor(u, side.out, side.in, func(v int32) bool {
			if side.seen[v] == stamp {
				return true
			}
			side.seen[v], side.parent[v] = stamp, u
			if other.seen[v] == stamp {
				meet = v
				return false
			}
			side.next = append(side.next, v)
			return true
		})
		if meet >= 0 {
			return meet
		}
	}
	side.frontier, side.next = side.next, side.frontier[:0]
	return -1
}

// eachNeighbor calls fn for the neighbours of u along outgoing edges, if
// out, and incoming edges, if in, in ID order and each once, until fn
// returns false.
func (g *Graph) eachNeighbor(u int32, out, in bool, fn func(v int32) bool) {
	var a, b []int32
	if out {
		a = g.nodes[u].outSorted
	}
	if in {
		b = g.nodes[u].in
	}
	for len(a) > 0 || len(b) > 0 {
		var v int32
		switch {
		case len(b) == 0:
			v, a = a[0], a[1:]
		case len(a) == 0:
			v, b = b[0], b[1:]
		default:
			switch c := g.cmp(a[0], b[0]); {
			case c < 0:
				v, a = a[0], a[1:]
			case c > 0:
				v, b = b[0], b[1:]
			default:
				v, a, b = a[0], a[1:], b[1:]
			}
		}
		if !fn(v) {
			return
		}
	}
}

// joinPath builds the path through meet from the parents recorded by the
// forward and backward searches.
func (g *Graph) joinPath(sc *bfsScratch, meet int32) []string {
	slots := sc.parentScratch[:0]
	for u := meet; u >= 0; u = sc.fwd.parent[u] {
		slots = append(slots, u)
	}
	slices.Reverse(slots)
	for u := sc.bwd.parent[meet]; u >= 0; u = sc.bwd.parent[u] {
		slots = append(slots, u)
	}
	sc.parentScratch = slots
	return g.names(slots)
}
