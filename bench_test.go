package vaultgraph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// benchNotes is the size of the benchmark vault.
const benchNotes = 10_000

// bench holds the generated benchmark vault and an engine open on it,
// made once per test binary run and only when a benchmark asks.
var bench struct {
	vaultOnce  sync.Once
	engineOnce sync.Once
	tmp        string // removed by TestMain
	dir        string
	err        error
	engine     *vaultgraph.Engine
	ids        []string
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.tmp != "" {
		_ = os.RemoveAll(bench.tmp)
	}
	os.Exit(code)
}

// benchVault generates the 10,000-note vault (seed 1) on first use.
func benchVault(b *testing.B) string {
	b.Helper()
	bench.vaultOnce.Do(func() {
		bench.tmp, bench.err = os.MkdirTemp("", "vaultgraph-bench-")
		if bench.err != nil {
			return
		}
		bench.dir = filepath.Join(bench.tmp, "vault")
		_, bench.err = vaultgen.Generate(bench.dir, vaultgen.Config{Notes: benchNotes, Seed: 1})
	})
	if bench.err != nil {
		b.Fatalf("generate the benchmark vault: %v", bench.err)
	}
	return bench.dir
}

// benchEngine returns an engine open on the benchmark vault and its note
// IDs, sorted.
func benchEngine(b *testing.B) (*vaultgraph.Engine, []string) {
	b.Helper()
	dir := benchVault(b)
	bench.engineOnce.Do(func() {
		e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
		if bench.err = e.Open(context.Background()); bench.err != nil {
			return
		}
		bench.engine, bench.ids = e, e.Graph().IDs()
	})
	if bench.err != nil {
		b.Fatalf("open the benchmark vault: %v", bench.err)
	}
	if len(bench.ids) != benchNotes {
		b.Fatalf("the benchmark vault has %d notes, want %d", len(bench.ids), benchNotes)
	}
	return bench.engine, bench.ids
}

// BenchmarkLoad10k parses the whole vault on every core and builds the
// graph, with no index (what every start costs without one).
func BenchmarkLoad10k(b *testing.B) {
	benchOpen(b, vaultgraph.Options{NoIndex: true})
}

// BenchmarkWarmOpen10k opens the vault from an up-to-date index: nothing
// is parsed, every file is only stat'ed.
func BenchmarkWarmOpen10k(b *testing.B) {
	benchOpen(b, vaultgraph.Options{Index: filepath.Join(b.TempDir(), "index.db")})
}

func benchOpen(b *testing.B, opts vaultgraph.Options) {
	opts.Vault = benchVault(b)
	ctx := context.Background()
	if opts.Index != "" { // fill the index before timing warm opens
		e := vaultgraph.New(opts)
		if err := e.Open(ctx); err != nil {
			b.Fatal(err)
		}
		_ = e.Close()
	}
	b.ReportAllocs()
	b.ResetTimer()
	notes := 0
	for range b.N {
		e := vaultgraph.New(opts)
		if err := e.Open(ctx); err != nil {
			b.Fatal(err)
		}
		notes = e.Graph().Len()
		_ = e.Close()
	}
	b.ReportMetric(float64(notes)*float64(b.N)/b.Elapsed().Seconds(), "notes/s")
}

func BenchmarkNeighbors10k(b *testing.B) {
	e, ids := benchEngine(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, _, err := e.Neighbors(ctx, ids[r.IntN(len(ids))], graph.Both, 20); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFindPath10k(b *testing.B) {
	e, ids := benchEngine(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	b.ReportAllocs()
	b.ResetTimer()
	found := 0
	for range b.N {
		p, _, err := e.FindPath(ctx, ids[r.IntN(len(ids))], ids[r.IntN(len(ids))], false)
		if err != nil {
			b.Fatal(err)
		}
		if p != nil {
			found++
		}
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}

func BenchmarkPageRank10k(b *testing.B) {
	e, _ := benchEngine(b)
	ctx := context.Background()
	g := e.Graph()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		g.Update(func(*graph.Tx) {}) // a new graph version: the scores are computed again
		hubs, err := e.Hubs(ctx, graph.PageRank, 10)
		if err != nil || len(hubs) != 10 {
			b.Fatalf("Hubs(pagerank) = %d hubs, %v", len(hubs), err)
		}
	}
}

func BenchmarkListNodes10k(b *testing.B) { benchListNodes(b, "-inDegree") }

// BenchmarkListNodesModified10k lists pages 1 to 5 of the notes last
// modified first, as the load test's clients do.
func BenchmarkListNodesModified10k(b *testing.B) { benchListNodes(b, "-modified") }

// benchListNodes lists pages 1 to 5 of 20 notes sorted by key.
func benchListNodes(b *testing.B, key string) {
	e, _ := benchEngine(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		res, err := e.ListNodes(ctx, vaultgraph.ListQuery{SortBy: []string{key}, Page: 1 + i%5, Limit: 20})
		if err != nil || res.Total != benchNotes || len(res.Nodes) != 20 {
			b.Fatalf("ListNodes = %v, %v", res, err)
		}
	}
}

func BenchmarkGetNode10k(b *testing.B) {
	e, ids := benchEngine(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		id := ids[r.IntN(len(ids))]
		n, err := e.GetNode(ctx, id, true)
		if err != nil || n == nil {
			b.Fatal(fmt.Sprintf("GetNode(%q) = %v, %v", id, n, err))
		}
	}
}

// BenchmarkGetNodeMissing10k looks up an ID that no note has, which
// tries every note's title and aliases (what a client polling for a note
// not yet written pays).
func BenchmarkGetNodeMissing10k(b *testing.B) {
	e, _ := benchEngine(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		id := fmt.Sprintf("Inbox/No Such Note %d.md", i%100)
		if n, err := e.GetNode(ctx, id, false); err != nil || n != nil {
			b.Fatal(fmt.Sprintf("GetNode(%q) = %v, %v", id, n, err))
		}
	}
}

// BenchmarkRelated10k ranks the notes related to a random note (one
// seed, a page of 10, with why each is related).
func BenchmarkRelated10k(b *testing.B) {
	e, ids := benchEngine(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		id := ids[r.IntN(len(ids))]
		if _, err := e.RelatedPage(ctx, vaultgraph.RelatedQuery{IDs: []string{id}, Limit: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMentions10k looks up the unlinked mentions of a random note,
// on an engine with its SQLite index (the full-text index offers the
// candidates).
func BenchmarkMentions10k(b *testing.B) {
	dir := benchVault(b)
	_, ids := benchEngine(b)
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(b.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(9, 10))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, _, err := e.Mentions(ctx, ids[r.IntN(len(ids))]); err != nil {
			b.Fatal(err)
		}
	}
}
