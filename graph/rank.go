package graph

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"strings"
	"sync"
)

// Metric ranks nodes for [Graph.Hubs].
type Metric string

// Metrics accepted by [Graph.Hubs].
const (
	// InDegree scores a node by the number of edges pointing at it.
	InDegree Metric = "in_degree"
	// OutDegree scores a node by the number of edges leaving it.
	OutDegree Metric = "out_degree"
	// PageRank scores a node by its PageRank (see [Graph.PageRankOf]).
	PageRank Metric = "pagerank"
)

// PageRank parameters.
const (
	damping       = 0.85
	maxIterations = 100
	tolerance     = 1e-9 // L1 change between iterations
)

// Hub is a node with its score under some [Metric].
type Hub struct {
	// ID is the node ID.
	ID string
	// Score is the node's value for the metric.
	Score float64
}

// rankCache holds the PageRank scores of one graph version.
type rankCache struct {
	mu      sync.Mutex
	valid   bool
	version uint64
	scores  []float64 // by node slot; never modified once stored
	runs    int       // number of computations, for tests
	// shape is the link structure the scores were computed from; spare
	// holds the arrays of the one before, reused for the next.
	shape, spare rankShape
	// order keeps the nodes sorted by ID from one computation to the
	// next.
	order rankOrder
}

// rankShape is the link structure PageRank reads, compacted into arrays
// indexed by position in the order of node IDs: the node at position i
// is slot live[i] and its targets are targets[start[i]:start[i+1]]
// (positions). Two equal shapes give the same scores, bit for bit: a
// graph version that changed only tags, or replaced links by the same
// links, keeps the scores of the one before. Since the positions follow
// the IDs, every sum PageRank takes adds the same numbers in the same
// order for the same graph, however it was built.
type rankShape struct {
	slots       int // len(Graph.nodes)
	live, start []int32
	targets     []int32
}

// fill makes s the shape of g, reusing its arrays; o is brought up to
// date with g and gives the order. The nodes are read in the order of
// Graph.live (see rankOrder).
func (s *rankShape) fill(g *Graph, o *rankOrder) {
	o.update(g)
	pos := o.positions(len(g.nodes))
	n := len(o.slots)
	s.slots = len(g.nodes)
	s.live = append(s.live[:0], o.slots...)
	s.start = grow(s.start, n+1)
	s.start[0] = 0
	for i, u := range s.live {
		s.start[i+1] = s.start[i] + o.deg[u]
	}
	s.targets = grow(s.targets, int(s.start[n]))
	for _, u := range g.live {
		w := s.start[pos[u]]
		for k, t := range g.nodes[u].out {
			s.targets[int(w)+k] = pos[t]
		}
	}
}

// equal reports whether s and o are the same shape.
func (s *rankShape) equal(o *rankShape) bool {
	return s.slots == o.slots && slices.Equal(s.live, o.live) &&
		slices.Equal(s.start, o.start) && slices.Equal(s.targets, o.targets)
}

// Hubs returns the top limit nodes by metric m (all nodes when limit <= 0),
// by descending score, ties broken by ascending ID. It returns nil for an
// unknown metric.
func (g *Graph) Hubs(m Metric, limit int) []Hub {
	g.mu.RLock()
	defer g.mu.RUnlock()
	var score func(u int32) float64
	switch m {
	case InDegree:
		score = func(u int32) float64 { return float64(len(g.nodes[u].in)) }
	case OutDegree:
		score = func(u int32) float64 { return float64(len(g.nodes[u].out)) }
	case PageRank:
		scores := g.pageRank()
		score = func(u int32) float64 { return scores[u] }
	default:
		return nil
	}
	if limit <= 0 || limit > len(g.live) {
		limit = len(g.live)
	}
	// Keep the best limit hubs in a heap whose root is the worst of them.
	h := make(hubHeap, 0, limit)
	for _, u := range g.live {
		hub := Hub{ID: g.nodes[u].id, Score: score(u)}
		switch {
		case len(h) < limit:
			heap.Push(&h, hub)
		case limit > 0 && better(hub, h[0]):
			h[0] = hub
			heap.Fix(&h, 0)
		}
	}
	res := make([]Hub, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		res[i] = heap.Pop(&h).(Hub)
	}
	return res
}

// better reports whether a ranks before b: higher score, then lower ID.
func better(a, b Hub) bool {
	if c := cmp.Compare(a.Score, b.Score); c != 0 {
		return c > 0
	}
	return strings.Compare(a.ID, b.ID) < 0
}

// hubHeap is a heap of hubs with the worst-ranked hub at the root.
type hubHeap []Hub

// Len implements heap.Interface.
func (h hubHeap) Len() int { return len(h) }

// Less implements heap.Interface: the worse hub is smaller.
func (h hubHeap) Less(i, j int) bool { return better(h[j], h[i]) }

// Swap implements heap.Interface.
func (h hubHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push implements heap.Interface.
func (h *hubHeap) Push(x any) { *h = append(*h, x.(Hub)) }

// Pop implements heap.Interface.
func (h *hubHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// PageRankOf returns the PageRank of id, or 0 if id is not a node. Scores
// use damping 0.85; nodes without outgoing edges spread their rank evenly
// over all nodes; power iteration stops when the L1 change falls below 1e-9
// or after 100 iterations; the scores of all nodes sum to 1. The same
// graph gets the same scores, bit for bit, whatever order its nodes and
// links were added and removed in.
//
// Scores are cached until the next [Graph.Update] and computed at most once
// per graph version, however many goroutines ask.
func (g *Graph) PageRankOf(id string) float64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	u, ok := g.index[id]
	if !ok {
		return 0
	}
	return g.pageRank()[u]
}

// pageRank returns the cached scores by slot, computing them if the graph
// changed since. The caller must hold g.mu for reading, which keeps the
// version fixed; c.mu makes concurrent readers wait for one computation.
// A version whose link structure is the one the scores were computed
// from keeps them (see rankShape).
func (g *Graph) pageRank() []float64 {
	c := &g.rank
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid && c.version == g.version {
		return c.scores
	}
	c.spare.fill(g, &c.order)
	if !c.valid || !c.spare.equal(&c.shape) {
		c.scores = c.spare.pageRank()
		c.runs++
		c.shape, c.spare = c.spare, c.shape
	}
	c.version, c.valid = g.version, true
	return c.scores
}

// pageRank runs the power iteration on shape s and returns scores by
// slot.
func (s *rankShape) pageRank() []float64 {
	scores := make([]float64, s.slots)
	n := len(s.live)
	if n == 0 {
		return scores
	}
	start, targets := s.start, s.targets
	rank := make([]float64, n)
	next := make([]float64, n)
	var dangles []int32 // positions without links out, in order
	for i := range rank {
		rank[i] = 1 / float64(n)
		if start[i] == start[i+1] {
			dangles = append(dangles, int32(i))
		}
	}
	for range maxIterations {
		dangling := 0.0
		for _, i := range dangles {
			dangling += rank[i]
		}
		base := (1-damping)/float64(n) + damping*dangling/float64(n)
		for i := range next {
			next[i] = base
		}
		for i := range n {
			lo, hi := start[i], start[i+1]
			if lo == hi {
				continue
			}
			share := damping * rank[i] / float64(hi-lo)
			for _, t := range targets[lo:hi] {
				next[t] += share
			}
		}
		diff := 0.0
		for i := range rank {
			diff += math.Abs(next[i] - rank[i])
		}
		rank, next = next, rank
		if diff < tolerance {
			break
		}
	}

	sum := 0.0
	for _, r := range rank {
		sum += r
	}
	for i, u := range s.live {
		scores[u] = rank[i] / sum
	}
	return scores
}

// Ranked returns how many notes score above 0 by metric m: the notes with
// a link in (InDegree) or out (OutDegree); every note for PageRank, whose
// scores are all positive.
func (g *Graph) Ranked(m Metric) int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	n := 0
	for _, u := range g.live {
		switch m {
		case InDegree:
			if len(g.nodes[u].in) > 0 {
				n++
			}
		case OutDegree:
			if len(g.nodes[u].out) > 0 {
				n++
			}
		default:
			n++
		}
	}
	return n
}
