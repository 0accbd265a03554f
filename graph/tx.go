package graph

import "slices"

// Update applies a batch of changes under one write lock, so readers never
// see half a batch. The [Tx] passed to fn must not be used after fn returns,
// and fn must not call methods of g (that would deadlock); use [Tx.Has] to
// look at the graph from inside the batch. If fn panics, the changes made
// so far stay applied. Every call to Update invalidates the cached PageRank
// scores.
func (g *Graph) Update(fn func(tx *Tx)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	tx := &Tx{g: g}
	defer func() {
		tx.g = nil
		g.version++
	}()
	fn(tx)
}

// Build is [Graph.Update] for filling a graph in bulk, such as a start-up
// that adds every node and edge at once: the edges into each node are
// gathered as they come and each node's sources are sorted once, by
// node ID, when fn returns, instead of one sorted insertion per edge. The
// graph is the same as Update would make.
func (g *Graph) Build(fn func(tx *Tx)) {
	g.Update(func(tx *Tx) {
		g.bulk = true
		defer func() {
			g.bulk = false
			g.sortIns()
		}()
		fn(tx)
	})
}

// sortIns sorts every node's sources by ID after a Build: the IDs are
// ranked once, then each list is sorted by rank.
func (g *Graph) sortIns() {
	order := slices.Clone(g.live)
	slices.SortFunc(order, g.cmp)
	rank := make([]int32, len(g.nodes))
	for r, u := range order {
		rank[u] = int32(r)
	}
	for _, u := range g.live {
		in := g.nodes[u].in
		if len(in) > 1 {
			slices.SortFunc(in, func(a, b int32) int { return int(rank[a] - rank[b]) })
		}
	}
}

// Tx is a batch of changes to a [Graph], valid only inside [Graph.Update]
// or [Graph.Build].
type Tx struct {
	g *Graph
}

func (tx *Tx) graph() *Graph {
	if tx.g == nil {
		panic("graph: Tx used outside of Graph.Update")
	}
	return tx.g
}

// Has reports whether id is a node of the graph, taking into account the
// changes made so far in the batch.
func (tx *Tx) Has(id string) bool {
	_, ok := tx.graph().index[id]
	return ok
}

// PutNode adds the node id, or replaces its tags if it already exists. The
// node's edges are kept. Tags are stored lowercase without a leading '#';
// duplicates and empty tags are dropped. An empty id is ignored.
func (tx *Tx) PutNode(id string, tags []string) {
	g := tx.graph()
	if id == "" {
		return
	}
	u, ok := g.index[id]
	if !ok {
		u = g.alloc(id)
	}
	g.untag(u)
	g.nodes[u].tags = normalizeTags(tags)
	for _, t := range g.nodes[u].tags {
		set := g.tags[t]
		if set == nil {
			set = make(map[int32]struct{})
			g.tags[t] = set
		}
		set[u] = struct{}{}
	}
}

// SetOut replaces the outgoing edges of id with links to targets. Repeated
// targets count once, a link from id to itself is ignored, and so are
// targets that are not nodes of the graph: add nodes before linking them.
// SetOut does nothing if id is not a node.
func (tx *Tx) SetOut(id string, targets []string) {
	g := tx.graph()
	u, ok := g.index[id]
	if !ok {
		return
	}
	s := g.nextStamp()
	n := &g.nodes[u]
	for _, t := range n.out {
		g.markOld[t] = s
	}
	var out []int32
	for _, name := range targets {
		t, ok := g.index[name]
		if !ok || t == u || g.markNew[t] == s {
			continue
		}
		g.markNew[t] = s
		out = append(out, t)
	}
	for _, t := range n.out {
		if g.markNew[t] != s {
			g.removeIn(t, u)
			g.edges--
		}
	}
	for _, t := range out {
		if g.markOld[t] != s {
			g.insertIn(t, u)
			g.edges++
		}
	}
	n.out = out
	n.outSorted = slices.Clone(out)
	slices.SortFunc(n.outSorted, g.cmp)
}

// Remove deletes the node id, its outgoing edges and every edge pointing at
// it. Re-adding the node later does not restore the edges pointing at it;
// their sources must call SetOut again. Remove does nothing if id is not a
// node.
func (tx *Tx) Remove(id string) {
	g := tx.graph()
	u, ok := g.index[id]
	if !ok {
		return
	}
	n := &g.nodes[u]
	for _, t := range n.out {
		g.removeIn(t, u)
	}
	for _, s := range n.in {
		src := &g.nodes[s]
		i := slices.Index(src.out, u)
		src.out = slices.Delete(src.out, i, i+1)
		j, _ := slices.BinarySearchFunc(src.outSorted, u, g.cmp)
		src.outSorted = slices.Delete(src.outSorted, j, j+1)
	}
	g.edges -= len(n.out) + len(n.in)
	g.untag(u)

	last := g.live[len(g.live)-1]
	g.live[n.livePos] = last
	g.nodes[last].livePos = n.livePos
	g.live = g.live[:len(g.live)-1]

	delete(g.index, id)
	*n = node{}
	g.free = append(g.free, u)
}

// alloc creates a node without tags or edges and returns its slot.
func (g *Graph) alloc(id string) int32 {
	var u int32
	if k := len(g.free); k > 0 {
		u = g.free[k-1]
		g.free = g.free[:k-1]
	} else {
		u = int32(len(g.nodes))
		g.nodes = append(g.nodes, node{})
		g.markOld = append(g.markOld, 0)
		g.markNew = append(g.markNew, 0)
	}
	g.nodes[u] = node{id: id, livePos: int32(len(g.live))}
	g.live = append(g.live, u)
	g.index[id] = u
	return u
}

// untag removes node u from the tag index.
func (g *Graph) untag(u int32) {
	for _, t := range g.nodes[u].tags {
		set := g.tags[t]
		delete(set, u)
		if len(set) == 0 {
			delete(g.tags, t)
		}
	}
	g.nodes[u].tags = nil
}

// nextStamp returns a fresh value for markOld and markNew, clearing them
// when the counter wraps around.
func (g *Graph) nextStamp() uint32 {
	g.stamp++
	if g.stamp == 0 {
		clear(g.markOld)
		clear(g.markNew)
		g.stamp = 1
	}
	return g.stamp
}

// insertIn records the edge s -> t in t's sorted list of sources.
func (g *Graph) insertIn(t, s int32) {
	if g.bulk { // sorted at the end of the Build
		g.nodes[t].in = append(g.nodes[t].in, s)
		return
	}
	in := g.nodes[t].in
	i, _ := slices.BinarySearchFunc(in, s, g.cmp)
	g.nodes[t].in = slices.Insert(in, i, s)
}

// removeIn deletes the edge s -> t from t's sorted list of sources.
func (g *Graph) removeIn(t, s int32) {
	in := g.nodes[t].in
	if g.bulk {
		slices.SortFunc(in, g.cmp) // a Build's list may be unsorted yet
	}
	if i, ok := slices.BinarySearchFunc(in, s, g.cmp); ok {
		g.nodes[t].in = slices.Delete(in, i, i+1)
	}
}
