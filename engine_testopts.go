package vaultgraph

import (
	"time"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// testOptions are settings only tests change. They live in an Engine's
// Options, not in package variables, so tests that change them can run in
// parallel.
type testOptions struct {
	// embedRetry is the wait before trying again after the embedding
	// provider failed (defaultEmbedRetry).
	embedRetry time.Duration
	// quantizeAbove is the number of stored chunk vectors above which the
	// vector index holds them as int8 (QuantizeAboveChunks).
	quantizeAbove int
	// chunkSize is how many notes an index pass parses and writes per
	// transaction (indexChunkNotes).
	chunkSize int
	// tuning, when set, replaces the keyword search's field weights and
	// graph prior (store.DefaultFieldWeights, defaultGraphPrior); a test
	// may change it between searches.
	tuning *searchTuning
}

// searchTuning holds the weights of keyword ranking that the evaluation
// sets choose (search_eval_tune_test.go).
type searchTuning struct {
	// Weights are the full-text fields' bm25 weights.
	Weights store.FieldWeights
	// Prior is the weight of the graph prior (defaultGraphPrior).
	Prior float64
}

// defaultTestOptions are the settings of an Engine whose Options set none.
func defaultTestOptions() testOptions {
	return testOptions{embedRetry: defaultEmbedRetry, quantizeAbove: QuantizeAboveChunks, chunkSize: indexChunkNotes}
}

// testOptions returns a copy of o's test settings, or the defaults.
func (o *Options) testOptions() testOptions {
	if o.test != nil {
		return *o.test
	}
	return defaultTestOptions()
}

// chunkSize is how many notes an index pass of e parses and writes per
// transaction.
func (e *Engine) chunkSize() int { return e.opts.testOptions().chunkSize }

// searchTuning returns the field weights keyword searches use (nil: the
// store's defaults) and the weight of the graph prior.
func (e *Engine) searchTuning() (*store.FieldWeights, float64) {
	if t := e.opts.testOptions().tuning; t != nil {
		w := t.Weights
		return &w, t.Prior
	}
	return nil, defaultGraphPrior
}
