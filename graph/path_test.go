package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestShortestPath(t *testing.T) {
	// a -> b -> c -> d, a -> x -> d (a tie with a b-route of equal length
	// is resolved by ID order), e -> a, island f <-> g.
	g := buildGraph(
		link{"a", []string{"x", "b"}},
		link{"b", []string{"c"}},
		link{"c", []string{"d"}},
		link{"x", []string{"y"}},
		link{"y", []string{"d"}},
		link{"d", nil},
		link{"e", []string{"a"}},
		link{"f", []string{"g"}},
		link{"g", []string{"f"}},
	)
	tests := []struct {
		desc     string
		src, dst string
		directed bool
		want     []string
	}{
		{desc: "same node", src: "a", dst: "a", want: []string{"a"}},
		{desc: "same node directed", src: "d", dst: "d", directed: true, want: []string{"d"}},
		{desc: "one hop", src: "a", dst: "b", directed: true, want: []string{"a", "b"}},
		{desc: "tie broken by ID", src: "a", dst: "d", directed: true, want: []string{"a", "b", "c", "d"}},
		{desc: "directed against edges", src: "d", dst: "a", directed: true, want: nil},
		{desc: "undirected against edges", src: "d", dst: "a", want: []string{"d", "c", "b", "a"}},
		{desc: "undirected through source", src: "e", dst: "d", want: []string{"e", "a", "b", "c", "d"}},
		{desc: "undirected between siblings", src: "b", dst: "x", want: []string{"b", "a", "x"}},
		{desc: "directed siblings", src: "b", dst: "x", directed: true, want: nil},
		{desc: "disconnected", src: "a", dst: "f", want: nil},
		{desc: "mutual pair", src: "g", dst: "f", directed: true, want: []string{"g", "f"}},
		{desc: "missing source", src: "zz", dst: "a", want: nil},
		{desc: "missing target", src: "a", dst: "zz", want: nil},
		{desc: "both missing and equal", src: "zz", dst: "zz", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := g.ShortestPath(tt.src, tt.dst, tt.directed)
			if !slices.Equal(got, tt.want) {
				t.Errorf("ShortestPath(%q, %q, %v) = %v, want %v", tt.src, tt.dst, tt.directed, got, tt.want)
			}
		})
	}
}

func TestShortestPathAfterRemove(t *testing.T) {
	g := buildGraph(
		link{"a", []string{"b", "m"}},
		link{"b", []string{"c"}},
		link{"m", []string{"c"}},
		link{"c", nil},
	)
	tests := []struct {
		desc   string
		remove string
		want   []string
	}{
		{desc: "nothing removed", want: []string{"a", "b", "c"}},
		{desc: "detour", remove: "b", want: []string{"a", "m", "c"}},
		{desc: "cut", remove: "m", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g.Update(func(tx *Tx) { tx.Remove(tt.remove) })
			if got := g.ShortestPath("a", "c", true); !slices.Equal(got, tt.want) {
				t.Errorf("ShortestPath(a, c, true) = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestShortestPathDeterministic builds the same random graph twice, adding
// nodes and links in different orders, and expects identical paths.
func TestShortestPathDeterministic(t *testing.T) {
	links := randomLinks(rand.New(rand.NewPCG(7, 7)), 200, 3)
	reversed := slices.Clone(links)
	slices.Reverse(reversed)
	for i := range reversed {
		reversed[i].out = slices.Clone(reversed[i].out)
		slices.Reverse(reversed[i].out)
	}
	g1, g2 := buildGraph(links...), buildGraph(reversed...)
	r := rand.New(rand.NewPCG(8, 8))
	for range 300 {
		src, dst := links[r.IntN(len(links))].id, links[r.IntN(len(links))].id
		for _, directed := range []bool{false, true} {
			p1 := g1.ShortestPath(src, dst, directed)
			p2 := g2.ShortestPath(src, dst, directed)
			if !slices.Equal(p1, p2) {
				t.Fatalf("ShortestPath(%q, %q, %v) = %v on one graph, %v on the same graph built in reverse",
					src, dst, directed, p1, p2)
			}
		}
	}
}

// TestShortestPathMatchesBFS compares path lengths with a plain BFS over a
// map model and checks every step is an edge.
func TestShortestPathMatchesBFS(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	links := randomLinks(r, 300, 2)
	g := buildGraph(links...)
	adj := map[string][]string{}
	for _, l := range links {
		adj[l.id] = l.out
	}
	for range 500 {
		src, dst := links[r.IntN(len(links))].id, links[r.IntN(len(links))].id
		for _, directed := range []bool{false, true} {
			got := g.ShortestPath(src, dst, directed)
			want := bfsDistance(adj, src, dst, directed)
			if len(got)-1 != want {
				t.Fatalf("ShortestPath(%q, %q, %v) = %v (%d hops), want %d hops", src, dst, directed, got, len(got)-1, want)
			}
			if err := checkPath(adj, got, src, dst, directed); err != nil {
				t.Fatalf("ShortestPath(%q, %q, %v) = %v: %v", src, dst, directed, got, err)
			}
		}
	}
}

// randomLinks returns n nodes with about avg random outgoing links each.
func randomLinks(r *rand.Rand, n, avg int) []link {
	links := make([]link, n)
	for i := range links {
		links[i].id = fmt.Sprintf("node-%04d", i)
	}
	for i := range links {
		for range r.IntN(2*avg + 1) {
			links[i].out = append(links[i].out, links[r.IntN(n)].id)
		}
	}
	return links
}

// bfsDistance returns the number of hops from src to dst in adj, -1 if dst
// is unreachable.
func bfsDistance(adj map[string][]string, src, dst string, directed bool) int {
	next := map[string][]string{}
	for u, out := range adj {
		for _, v := range out {
			if v == u {
				continue
			}
			next[u] = append(next[u], v)
			if !directed {
				next[v] = append(next[v], u)
			}
		}
	}
	dist := map[string]int{src: 0}
	queue := []string{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == dst {
			return dist[u]
		}
		for _, v := range next[u] {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return -1
}

// checkPath returns an error unless path is nil or runs from src to dst
// along edges of adj.
func checkPath(adj map[string][]string, path []string, src, dst string, directed bool) error {
	if path == nil {
		return nil
	}
	if path[0] != src || path[len(path)-1] != dst {
		return fmt.Errorf("path does not run from %q to %q", src, dst)
	}
	for i := 1; i < len(path); i++ {
		u, v := path[i-1], path[i]
		if !slices.Contains(adj[u], v) && (directed || !slices.Contains(adj[v], u)) {
			return fmt.Errorf("no edge between %q and %q", u, v)
		}
	}
	return nil
}

func TestScratchStampWraparound(t *testing.T) {
	sc := new(bfsScratch)
	sc.reset(4)
	sc.fwd.seen[2], sc.bwd.seen[3] = 7, 7
	sc.stamp = math.MaxUint32
	if got := sc.reset(4); got != 1 {
		t.Errorf("reset after the last stamp = %d, want 1", got)
	}
	if got := slices.Max(append(sc.fwd.seen, sc.bwd.seen...)); got != 0 {
		t.Errorf("largest mark after wraparound = %d, want 0", got)
	}
	if got := sc.reset(8); got != 1 || len(sc.fwd.seen) != 8 {
		t.Errorf("reset(8) = %d with %d marks, want 1 with 8", got, len(sc.fwd.seen))
	}
}
