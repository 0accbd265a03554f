package vaultgraph

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// queryRetry is how long searches skip a model whose query embedding
// failed.
const queryRetry = 30 * time.Second

// storedVectorsHint names, for an engine without an embedding model, the
// models whose vectors the index holds and the --embed that would use
// them ("" when there are none). It is looked up once.
func (e *Engine) storedVectorsHint(ctx context.Context) string {
	e.vectorsHintOnce.Do(func() {
		if e.store == nil {
			return
		}
		models, err := e.store.VectorModels(ctx)
		if err != nil || len(models) == 0 {
			return
		}
		var parts []string
		for _, key := range slices.Sorted(maps.Keys(models)) {
			m := modelOf(key)
			spec := m
			if strings.HasPrefix(m, "builtin") {
				spec = "builtin"
			}
			parts = append(parts, fmt.Sprintf("pass --embed %s to use the vectors of %s stored in the index (%d notes)", spec, m, models[key]))
		}
		e.vectorsHint = "; " + strings.Join(parts, "; ")
	})
	return e.vectorsHint
}

// modelOf returns the model of a key of the stored vectors ("model/dim").
func modelOf(key string) string { return key[:max(0, strings.LastIndex(key, "/"))] }

// QuantizeAboveChunks is the number of stored chunk vectors above which
// the in-memory vector index holds them as int8 (one scale per row):
// a quarter of the memory of float32, scores within 0.01, scans about
// 1.5× slower. Below it, float32.
const QuantizeAboveChunks = 100_000

// newVectorIndex returns an empty vector index with room for the vectors
// stored for model and dim, int8 when there are more than
// QuantizeAboveChunks of them.
func (e *Engine) newVectorIndex(ctx context.Context, model string, dim int) *embed.Index {
	n := 0
	if e.store != nil {
		var err error
		if n, err = e.store.VectorCount(ctx, model, dim); err != nil {
			n = 0 // only a hint
			e.log.Debug("count stored vectors", "model", model, "err", err)
		}
	}
	idx := embed.NewIndex(dim, n > e.opts.testOptions().quantizeAbove)
	if vectorCodec(model) == store.Sparse {
		idx = embed.NewSparseIndex(dim, store.SparseTerms)
	}
	idx.Grow(n)
	return idx
}

// EmbeddingStatus describes the background embedder.
type EmbeddingStatus struct {
	Model    string  `json:"model"`
	Coverage float64 `json:"coverage"` // share of notes with up-to-date vectors
	State    string  `json:"state"`
}

// embeddingStatus reports the embedder's state; zero without one.
func (e *Engine) embeddingStatus(notes int) EmbeddingStatus {
	em := e.emb
	if em == nil {
		// No embedder here (a CLI read): report the vectors the index
		// holds, e.g. those a server made.
		s := EmbeddingStatus{State: "off"}
		if e.store != nil && notes > 0 {
			if models, err := e.store.VectorModels(context.Background()); err == nil {
				for key, n := range models {
					if c := math.Min(1, float64(n)/float64(notes)); c > s.Coverage {
						s.Model, s.Coverage = modelOf(key), c
					}
				}
			}
		}
		return s
	}
	em.mu.Lock()
	defer em.mu.Unlock()
	s := EmbeddingStatus{Model: em.model, State: em.state}
	if s.Model == "" {
		s.Model = em.provider.Model()
	}
	if notes > 0 {
		s.Coverage = math.Min(1, float64(len(em.have))/float64(notes))
	}
	return s
}

// WaitEmbeddings waits until every note has up-to-date vectors, the
// embedder fails, or ctx ends. Without an embedder it returns at once.
func (e *Engine) WaitEmbeddings(ctx context.Context) error {
	em := e.emb
	if em == nil {
		return nil
	}
	for {
		em.mu.Lock()
		state, ready := em.state, em.loaded && len(em.pending) == 0 && em.state == "ready"
		em.mu.Unlock()
		if ready {
			return nil
		}
		if len(state) > 6 && state[:6] == "error:" {
			return fmt.Errorf("%w: %s", errNoVectors, state)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// vectorSearch embeds the query and returns the k notes whose best chunk
// is nearest, among those keep accepts, and whether the builtin model
// answered. While the vectors cover only part of the vault it says so in
// a warning; while a new model's vectors are being made, or its server is
// down, it answers from the previous built-in model's vectors and says
// so.
func (e *Engine) vectorSearch(ctx context.Context, query string, k int, keep func(id string) bool) ([]vectorHit, bool, []string, error) {
	em := e.emb
	if em == nil {
		return nil, false, nil, fmt.Errorf("%w: no embedding model is configured (--embed)%s", errNoVectors, e.storedVectorsHint(ctx))
	}
	em.mu.Lock()
	idx, provider := em.index, em.provider
	pending, have, loaded := len(em.pending), len(em.have), em.loaded
	if (idx == nil || pending > 0) && em.old != nil {
		idx, provider = em.old, em.oldModel
	}
	state, others := em.state, em.others
	em.mu.Unlock()
	if idx == nil || idx.Len() == 0 {
		return nil, false, nil, fmt.Errorf("%w (%s)", errNoVectors, state)
	}
	if provider == em.provider && strings.HasPrefix(state, "error:") {
		// The model's server is failing: do not make every search wait
		// for its retries.
		return nil, false, nil, fmt.Errorf("the embedding model is failing (%s)", strings.TrimPrefix(state, "error: "))
	}
	if down := em.queryDown.Load(); down != 0 && time.Since(time.Unix(0, down)) < queryRetry {
		return nil, false, nil, fmt.Errorf("the embedding model failed a moment ago; keyword results until it answers again")
	}
	var warnings []string
	switch {
	case provider != em.provider && strings.HasPrefix(state, "error:"):
		warnings = append(warnings, fmt.Sprintf("embedding model %s is unavailable (%s): semantic results come from the vectors of %s stored before (%d notes)",
			em.provider.Model(), strings.TrimPrefix(state, "error: "), provider.Model(), idx.NoteCount()))
	case provider != em.provider && !loaded:
		warnings = append(warnings, fmt.Sprintf("embedding model %s is starting: semantic results come from the vectors of %s stored before (%d notes)",
			em.provider.Model(), provider.Model(), idx.NoteCount()))
	case provider != em.provider:
		warnings = append(warnings, fmt.Sprintf("vectors of %s are being made (%d of %d notes): semantic results come from %s meanwhile", em.provider.Model(), have, have+pending, provider.Model()))
	case pending > 0:
		warnings = append(warnings, fmt.Sprintf("embeddings cover %d of %d notes so far: semantic results may miss the rest", have, have+pending))
	}
	for _, o := range others {
		warnings = append(warnings, fmt.Sprintf("the index also holds vectors of %s (%d notes), which this search does not use (it uses %s): pass --embed %s to search with them",
			o.model, o.notes, provider.Model(), o.model))
	}
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	qv, err := provider.Embed(qctx, []string{query})
	if err != nil {
		if ctx.Err() == nil {
			em.queryDown.Store(time.Now().UnixNano()) // spare the next searches the wait
		}
		return nil, false, warnings, fmt.Errorf("the embedding model did not answer: %v", err)
	}
	em.queryDown.Store(0)
	if len(qv) != 1 {
		return nil, false, warnings, fmt.Errorf("%w: the model answered %d vectors for the query", errNoVectors, len(qv))
	}
	var out []vectorHit
	if idx.Sparse() {
		out = e.rescore(ctx, provider, qv[0], idx.SearchChunks(qv[0], RescoreCandidates, keep), k)
	} else {
		for _, h := range idx.Search(qv[0], k, keep) {
			out = append(out, vectorHit{ID: h.NoteID, Similarity: float64(h.Score), Chunk: h.Chunk})
		}
	}
	return out, provider.Model() == embed.BuiltinModel, warnings, nil
}

// idHash is a note's ID, the engine's own string, and its content hash.
type idHash struct{ id, hash string }

// noteHashIDs returns every note's ID and content hash by its ID: the
// embedder keeps the engine's ID strings, not the copies a read of the
// index allocates (one a note).
func (e *Engine) noteHashIDs() map[string]idHash {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make(map[string]idHash, len(e.notes))
	for id, ns := range e.notes {
		out[id] = idHash{id: id, hash: ns.note.Hash}
	}
	return out
}
