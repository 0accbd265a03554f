package graph

import (
	"slices"
	"strings"
)

// rankOrder keeps the graph's nodes sorted by ID for PageRank, from one
// computation to the next: Graph.live follows the history of the graph
// (a removal moves the last node into the gap), and floating-point sums
// taken in its order would make the scores of one graph differ in their
// last bits with the way it was built. Rather than sort every node again
// at each computation, update keeps the nodes that are still there in
// their order and inserts the new ones. It reads
// the nodes in the order of Graph.live, close to the order of their
// slots, not in the order of IDs, which would jump all over Graph.nodes.
type rankOrder struct {
	slots []int32  // live slots, sorted by node ID
	idOf  []string // by slot: the ID slots holds it for, "" for none
	kept  []bool   // scratch, by slot: the node is in slots
	pos   []int32  // by slot: position in slots (see positions)
	// deg is by slot the number of links out of the node, which update
	// notes as it reads the node, for rankShape.fill.
	deg []int32
}

// update brings o up to date with g: afterwards o.slots holds every
// slot of g.live, sorted by node ID, and o.deg the degrees.
func (o *rankOrder) update(g *Graph) {
	o.idOf = grow(o.idOf, len(g.nodes))
	o.kept = grow(o.kept, len(g.nodes))
	o.deg = grow(o.deg, len(g.nodes))
	clear(o.kept)
	var fresh []int32
	for _, u := range g.live {
		n := &g.nodes[u]
		o.deg[u] = int32(len(n.out))
		// A reused slot holds another ID.
		if o.idOf[u] == n.id {
			o.kept[u] = true
		} else {
			fresh = append(fresh, u)
		}
	}
	if len(fresh) == 0 && len(o.slots) == len(g.live) {
		return
	}
	o.slots = slices.DeleteFunc(o.slots, func(u int32) bool {
		if !o.kept[u] {
			o.idOf[u] = "" // let the removed ID go
		}
		return !o.kept[u]
	})
	slices.SortFunc(fresh, g.cmp)
	o.insert(g, fresh)
}

// insert inserts fresh, sorted by ID, into o.
func (o *rankOrder) insert(g *Graph, fresh []int32) {
	// at[j] is where fresh[j] goes among the nodes already in o.
	at := make([]int, len(fresh))
	for j, u := range fresh {
		at[j], _ = slices.BinarySearchFunc(o.slots, g.nodes[u].id, func(v int32, id string) int {
			return strings.Compare(o.idOf[v], id)
		})
	}
	end := len(o.slots)
	o.slots = grow(o.slots, end+len(fresh))
	// From the back, move each block of old nodes once, to its place.
	for j := len(fresh) - 1; j >= 0; j-- {
		p := at[j]
		copy(o.slots[p+j+1:end+j+1], o.slots[p:end])
		o.slots[p+j] = fresh[j]
		o.idOf[fresh[j]] = g.nodes[fresh[j]].id
		end = p
	}
}

// positions returns the position in o.slots of each of them, by slot, in
// a slice of n slots that o reuses.
func (o *rankOrder) positions(n int) []int32 {
	o.pos = grow(o.pos, n)
	for i, u := range o.slots {
		o.pos[u] = int32(i)
	}
	return o.pos
}

// grow returns s with length n, keeping its first elements.
func grow[T any](s []T, n int) []T {
	if n <= len(s) {
		return s[:n]
	}
	return append(s, make([]T, n-len(s))...)
}
