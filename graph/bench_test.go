package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

const benchNodes = 10_000

// powerLawLinks returns n nodes whose out-degrees follow a power law
// (Pareto, alpha 2.2, about 8 links on average) and whose targets are
// skewed towards a few popular nodes, as in a real vault.
func powerLawLinks(r *rand.Rand, n int) []link {
	const alpha, xmin = 2.2, 4.7
	links := make([]link, n)
	for i := range links {
		links[i].id = fmt.Sprintf("notes/note-%05d.md", i)
	}
	for i := range links {
		deg := int(xmin / math.Pow(1-r.Float64(), 1/alpha))
		deg = min(deg, n/20)
		links[i].out = make([]string, 0, deg)
		for range deg {
			links[i].out = append(links[i].out, links[popularTarget(r, n)].id)
		}
	}
	return links
}

// popularTarget picks a node index, favouring low indexes.
func popularTarget(r *rand.Rand, n int) int {
	return int(float64(n) * math.Pow(r.Float64(), 2.5))
}

func benchGraph(tb testing.TB) (*Graph, []link) {
	tb.Helper()
	links := powerLawLinks(rand.New(rand.NewPCG(1, 2)), benchNodes)
	return buildGraph(links...), links
}

func TestBenchGraphShape(t *testing.T) {
	g, _ := benchGraph(t)
	if got := g.Len(); got != benchNodes {
		t.Errorf("Len() = %d, want %d", got, benchNodes)
	}
	avg := float64(g.EdgeCount()) / float64(g.Len())
	if avg < 6 || avg > 10 {
		t.Errorf("average out-degree = %.2f, want about 8", avg)
	}
	t.Logf("edges %d, average out-degree %.2f, top hubs %v", g.EdgeCount(), avg, g.Hubs(InDegree, 3))
}

func BenchmarkNeighbors(b *testing.B) {
	g, links := benchGraph(b)
	r := rand.New(rand.NewPCG(3, 4))
	for b.Loop() {
		g.Neighbors(links[r.IntN(len(links))].id, Both, 0)
	}
}

func BenchmarkShortestPath(b *testing.B) {
	g, links := benchGraph(b)
	for _, directed := range []bool{false, true} {
		b.Run(fmt.Sprintf("directed=%v", directed), func(b *testing.B) {
			r := rand.New(rand.NewPCG(5, 6))
			for b.Loop() {
				src, dst := links[r.IntN(len(links))].id, links[r.IntN(len(links))].id
				g.ShortestPath(src, dst, directed)
			}
		})
	}
}

// BenchmarkPageRank computes the scores after each change of links:
// the first node links to the last or not, in turn.
func BenchmarkPageRank(b *testing.B) {
	g, links := benchGraph(b)
	last := links[len(links)-1].id
	i := 0
	for b.Loop() {
		out := links[0].out
		if i++; i%2 == 1 {
			out = append(slices.Clip(out), last)
		}
		g.Update(func(tx *Tx) { tx.SetOut(links[0].id, out) })
		g.PageRankOf(links[0].id)
	}
}

// BenchmarkPageRankTagsOnly asks for the scores after each update that
// changes only a node's tags, which keeps them.
func BenchmarkPageRankTagsOnly(b *testing.B) {
	g, links := benchGraph(b)
	i := 0
	for b.Loop() {
		i++
		g.Update(func(tx *Tx) { tx.PutNode(links[0].id, []string{fmt.Sprint("t", i%2)}) })
		g.PageRankOf(links[0].id)
	}
}

func BenchmarkUpdateOne(b *testing.B) {
	g, links := benchGraph(b)
	r := rand.New(rand.NewPCG(7, 8))
	fresh := powerLawLinks(rand.New(rand.NewPCG(9, 10)), benchNodes)
	for b.Loop() {
		i := r.IntN(len(links))
		g.Update(func(tx *Tx) { tx.SetOut(links[i].id, fresh[i].out) })
	}
}

// BenchmarkDecode decodes the graph cache's bytes of the bench graph,
// each node carrying three of 50 tags.
func BenchmarkDecode(b *testing.B) {
	g, links := benchGraph(b)
	g.Update(func(tx *Tx) {
		for i, l := range links {
			tx.PutNode(l.id, []string{fmt.Sprint("tag", i%50), fmt.Sprint("tag", i%7), fmt.Sprint("t", i%3)})
		}
	})
	enc := g.AppendBinary(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}
