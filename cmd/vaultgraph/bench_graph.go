package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

// benchGraphQueries is how many notes `bench` times get_related and the
// mention lookup for, per vault.
const benchGraphQueries = 200

// graphResult holds the related-notes and mention figures of one vault.
type graphResult struct {
	notes    int
	related  []time.Duration
	mentions []time.Duration
	found    int // mentions found over all the lookups
}

// line is the result as printed.
func (r graphResult) line() string {
	return fmt.Sprintf("bench-graph notes=%d queries=%d %s %s mentions_found=%d",
		r.notes, len(r.related), quantiles("related", r.related), quantiles("mentions", r.mentions), r.found)
}

// benchGraph opens an engine on the indexed vault and times, for
// benchGraphQueries notes picked at random (seed 1), a page of the notes
// related to it (Engine.RelatedPage, one seed, the default page size) and
// its unlinked mentions (Engine.Mentions), one call after another.
func benchGraph(ctx context.Context, n int, vaultDir, index string, stderr io.Writer) (graphResult, error) {
	r := graphResult{notes: n}
	fmt.Fprintf(stderr, "bench: timing get_related and mention lookups for %d notes\n", benchGraphQueries)
	e := vaultgraph.New(vaultgraph.Options{Vault: vaultDir, Index: index})
	if err := e.Open(ctx); err != nil {
		return r, err
	}
	defer e.Close()
	ids := e.Graph().IDs()
	if len(ids) == 0 {
		return r, fmt.Errorf("the vault has no notes")
	}
	rnd := rand.New(rand.NewPCG(1, 1))
	for range benchGraphQueries {
		id := ids[rnd.IntN(len(ids))]
		start := time.Now()
		if _, err := e.RelatedPage(ctx, vaultgraph.RelatedQuery{IDs: []string{id}, Limit: vaultgraph.DefaultRelatedLimit}); err != nil {
			return r, fmt.Errorf("related %s: %w", id, err)
		}
		r.related = append(r.related, time.Since(start))
		start = time.Now()
		ms, _, _, err := e.Mentions(ctx, id)
		if err != nil {
			return r, fmt.Errorf("mentions of %s: %w", id, err)
		}
		r.mentions = append(r.mentions, time.Since(start))
		r.found += len(ms)
	}
	return r, nil
}
