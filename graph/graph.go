package graph

import (
	"slices"
	"strings"
	"sync"
)

// Direction of an edge relative to a node.
type Direction string

// Directions accepted by [Graph.Neighbors] and reported in [Neighbor].
const (
	// Out is a link from the node to the neighbour.
	Out Direction = "out"
	// In is a link from the neighbour to the node.
	In Direction = "in"
	// Both means links in both directions (a mutual link), or, as a query
	// direction, neighbours in either direction.
	Both Direction = "both"
)

// Graph is a directed link graph between notes, with tags on every note.
//
// The zero value is not usable; create graphs with [New]. A Graph is safe
// for use by many concurrent readers while a writer calls [Graph.Update].
type Graph struct {
	mu      sync.RWMutex
	index   map[string]int32 // node ID -> slot in nodes
	nodes   []node           // slots; removed slots are reused via free
	free    []int32          // removed slots, ready for reuse
	live    []int32          // slots of the nodes in the graph, unordered
	edges   int              // distinct directed edges
	tags    map[string]map[int32]struct{}
	version uint64 // incremented by every Update

	// Scratch marks for SetOut, used only under the write lock.
	markOld, markNew []uint32
	stamp            uint32

	rank rankCache
	bulk bool // inside Build: sources are appended, sorted at its end
}

// node is one slot of Graph.nodes.
type node struct {
	id        string
	livePos   int32    // position in Graph.live
	tags      []string // lowercase, sorted, unique
	out       []int32  // link targets in the order SetOut first saw them
	outSorted []int32  // the same targets sorted by ID
	in        []int32  // link sources sorted by ID
}

// New returns an empty graph.
func New() *Graph {
	return &Graph{
		index: make(map[string]int32),
		tags:  make(map[string]map[int32]struct{}),
	}
}

// cmp orders node slots by node ID.
func (g *Graph) cmp(a, b int32) int {
	return strings.Compare(g.nodes[a].id, g.nodes[b].id)
}

// hasEdge reports whether the edge s -> t exists.
func (g *Graph) hasEdge(s, t int32) bool {
	_, ok := slices.BinarySearchFunc(g.nodes[t].in, s, g.cmp)
	return ok
}

// names returns the IDs of the given slots.
func (g *Graph) names(slots []int32) []string {
	if len(slots) == 0 {
		return nil
	}
	ids := make([]string, len(slots))
	for i, u := range slots {
		ids[i] = g.nodes[u].id
	}
	return ids
}

// read returns get() under the read lock.
func read[T any](g *Graph, get func() T) T {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return get()
}

// Has reports whether id is a node of the graph.
func (g *Graph) Has(id string) bool {
	return nodeValue(g, id, func(*node) bool { return true })
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return read(g, func() int { return len(g.live) }) }

// EdgeCount returns the number of distinct directed edges.
func (g *Graph) EdgeCount() int { return read(g, func() int { return g.edges }) }

// IDs returns the IDs of all nodes, sorted.
func (g *Graph) IDs() []string {
	ids := read(g, func() []string { return g.names(g.live) })
	slices.Sort(ids)
	return ids
}

// Out returns the targets of id's outgoing edges in the order SetOut first
// saw them, or nil if id is not a node.
func (g *Graph) Out(id string) []string {
	return nodeValue(g, id, func(n *node) []string { return g.names(n.out) })
}

// In returns the sources of id's incoming edges sorted by ID, or nil if id
// is not a node.
func (g *Graph) In(id string) []string {
	return nodeValue(g, id, func(n *node) []string { return g.names(n.in) })
}

// InDegree returns the number of edges pointing at id, 0 if id is not a
// node.
func (g *Graph) InDegree(id string) int {
	return nodeValue(g, id, func(n *node) int { return len(n.in) })
}

// OutDegree returns the number of edges leaving id, 0 if id is not a node.
func (g *Graph) OutDegree(id string) int {
	return nodeValue(g, id, func(n *node) int { return len(n.out) })
}

// nodeValue returns get of the node id under the read lock, or the zero
// value if id is not a node.
func nodeValue[T any](g *Graph, id string, get func(*node) T) T {
	g.mu.RLock()
	defer g.mu.RUnlock()
	u, ok := g.index[id]
	if !ok {
		var zero T
		return zero
	}
	return get(&g.nodes[u])
}

// Neighbor is a node adjacent to another one.
type Neighbor struct {
	// ID is the neighbour's node ID.
	ID string
	// Direction is Out, In, or Both for a mutual link.
	Direction Direction
}

// Neighbors returns the nodes linked with id in direction dir, at most limit
// of them (limit <= 0 means no limit), or nil if id is not a node.
//
// Outgoing neighbours come first, in Out order, then incoming ones sorted by
// ID. With dir Out or In every neighbour is reported with that direction.
// With dir Both (or "") a mutual neighbour appears once, among the outgoing
// ones, with Direction Both, and the incoming ones are only those without
// an edge back. Any other dir returns nil.
func (g *Graph) Neighbors(id string, dir Direction, limit int) []Neighbor {
	g.mu.RLock()
	defer g.mu.RUnlock()
	u, ok := g.index[id]
	if !ok {
		return nil
	}
	if dir == "" {
		dir = Both
	}
	if dir != Out && dir != In && dir != Both {
		return nil
	}
	n := &g.nodes[u]
	if limit <= 0 {
		limit = len(n.out) + len(n.in)
	}
	res := make([]Neighbor, 0, min(limit, len(n.out)+len(n.in)))
	if dir == Out || dir == Both {
		for _, t := range n.out {
			if len(res) == limit {
				return res
			}
			d := Out
			if dir == Both && g.hasEdge(t, u) {
				d = Both
			}
			res = append(res, Neighbor{ID: g.nodes[t].id, Direction: d})
		}
	}
	if dir == In || dir == Both {
		for _, s := range n.in {
			if len(res) == limit {
				return res
			}
			if dir == Both && g.hasEdge(u, s) {
				continue
			}
			res = append(res, Neighbor{ID: g.nodes[s].id, Direction: In})
		}
	}
	return res
}
