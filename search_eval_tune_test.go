package vaultgraph_test

import (
	"context"
	"flag"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

var evalTune = flag.Bool("eval-tune", false, "TestSearchEvalTune: choose the field weights and the graph prior on the tuning halves of the evaluation sets")

// evalRun is an evaluation set with its engine.
type evalRun struct {
	set evalSet
	e   *vaultgraph.Engine
}

// tuneHalf keeps the queries of set's tuning half only.
func tuneHalf(set evalSet) evalSet {
	out := set
	out.Queries = nil
	for i, q := range set.Queries {
		if q.Half == "tune" || q.Half == "" && i%2 == 0 {
			out.Queries = append(out.Queries, q)
		}
	}
	return out
}

// tuneObjective is what the tuning maximises over the tuning halves:
// per set, hybrid MRR and recall@5 plus half of keyword's.
func tuneObjective(ctx context.Context, t *testing.T, runs []evalRun) float64 {
	t.Helper()
	sum := 0.0
	for _, r := range runs {
		total, _, _ := runEval(ctx, t, r.e, r.set)
		hr, hm := total[vaultgraph.SearchHybrid].mean()
		kr, km := total[vaultgraph.SearchKeyword].mean()
		sum += hr + hm + 0.5*(kr+km)
	}
	return sum
}

// TestSearchEvalTune chooses the field weights and the graph prior by
// coordinate ascent on the tuning halves of the evaluation sets (never
// the test halves), and logs the best. Run with -eval-tune; the chosen
// values are then written into store.DefaultFieldWeights and
// defaultGraphPrior by hand.
func TestSearchEvalTune(t *testing.T) {
	if !*evalTune {
		t.Skip("run with -eval-tune")
	}
	ctx := context.Background()
	tv := readEvalSet(t, "testvault.json")
	dir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: evalGenNotes, Seed: evalGenSeed}); err != nil {
		t.Fatal(err)
	}
	gs := readEvalSet(t, "vaultgen.json")
	ks := readEvalSet(t, "kepano.json")
	tuning := vaultgraph.DefaultSearchTuning()
	tuned := func(o *vaultgraph.Options) { vaultgraph.WithSearchTuning(o, tuning) }
	runs := []evalRun{
		{tuneHalf(tv), evalEngine(t, "testvault", tuned)},
		{tuneHalf(gs), evalEngine(t, dir, tuned)},
		{tuneHalf(ks), evalEngine(t, filepath.Join(evalDir, ks.Vault), tuned)},
	}
	w := &tuning.Weights
	prior := tuning.Prior
	params := []struct {
		name string
		p    *float64
		grid []float64
	}{
		{"title", &w.Title, []float64{2, 3, 5, 8, 12}},
		{"headings", &w.Headings, []float64{0.5, 1, 2, 4}},
		{"tags", &w.Tags, []float64{0.5, 1, 2, 4}},
		{"props", &w.Props, []float64{0.5, 1, 2, 4}},
		{"stems", &w.Stems, []float64{0, 0.1, 0.25, 0.5, 1}},
		{"anchortext", &w.AnchorText, []float64{0, 0.5, 1, 2, 3, 5}},
		{"anchorcontext", &w.AnchorContext, []float64{0, 0.25, 0.5, 1, 2}},
		{"prior", &prior, []float64{0, 0.05, 0.1, 0.2, 0.4}},
	}
	eval := func() float64 {
		tuning.Prior = prior
		return tuneObjective(ctx, t, runs)
	}
	best := eval()
	t.Logf("start %+v prior=%.2f objective=%.4f", *w, prior, best)
	for round := range 2 {
		for _, p := range params {
			keep := *p.p
			for _, v := range p.grid {
				*p.p = v
				if got := eval(); got > best+1e-9 {
					best, keep = got, v
				}
			}
			*p.p = keep
			t.Logf("round %d %s=%.2f objective=%.4f", round, p.name, keep, best)
		}
	}
	t.Logf("chosen %+v prior=%.2f objective=%.4f", *w, prior, best)
	logPriorChanges(ctx, t, runs, tuning, prior)
}

// logPriorChanges logs the queries of runs whose first expected note
// moves in hybrid mode when the graph prior goes from 0 to prior, with
// the first hit's in-degree: a hub that crowds out a specific answer
// shows as a query whose expected note moves down.
func logPriorChanges(ctx context.Context, t *testing.T, runs []evalRun, tuning *vaultgraph.SearchTuning, prior float64) {
	t.Helper()
	firstRank := func(e *vaultgraph.Engine, q evalQuery) (int, string) {
		hits, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: q.Query, Mode: vaultgraph.SearchHybrid, Limit: evalLimit})
		if err != nil {
			t.Fatal(err)
		}
		top := ""
		if len(hits) > 0 {
			top = hits[0].ID
		}
		for i, h := range hits {
			if slices.Contains(q.Expected, h.ID) {
				return i + 1, top
			}
		}
		return 0, top
	}
	for _, r := range runs {
		for _, q := range r.set.Queries {
			tuning.Prior = 0
			r0, top0 := firstRank(r.e, q)
			tuning.Prior = prior
			r1, top1 := firstRank(r.e, q)
			if r0 != r1 {
				g := r.e.Graph()
				t.Logf("prior moves %s %q: rank %d -> %d, first %s (in %d) -> %s (in %d)",
					r.set.Vault, q.Query, r0, r1, top0, g.InDegree(top0), top1, g.InDegree(top1))
			}
		}
	}
}
