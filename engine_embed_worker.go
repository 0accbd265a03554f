package vaultgraph

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// embedBatch is how many notes are embedded and stored per step.
const embedBatch = 64

// embedYield is the longest the background embedder waits for a gap in
// the writes before it embeds or stores a batch anyway (so that it still
// gets on under a steady stream of writes), and embedYieldPoll how often
// it looks.
const (
	embedYield     = 250 * time.Millisecond
	embedYieldPoll = 2 * time.Millisecond
)

// defaultEmbedRetry is the wait before trying again after the embedding
// provider failed.
const defaultEmbedRetry = 30 * time.Second

// embedder keeps note vectors in step with the notes in the background:
// it embeds every note whose vectors are missing or stale, stores them in
// the index and answers vector searches from an in-memory matrix.
type embedder struct {
	e        *Engine
	provider embed.Embedder

	mu      sync.Mutex
	index   *embed.Index // nil until loaded, and with Options.StoreVectorsOnly
	loaded  bool         // load has run
	dropped bool         // other models' vectors are gone from the index (finish)
	model   string
	dim     int
	// have holds the notes whose vectors are made from their current
	// content (a set: the hashes are the engine's, not kept twice).
	have    map[string]struct{}
	pending map[string]bool
	state   string // starting, embedding, ready, or the last error
	// old answers queries while a new model's vectors are incomplete: the
	// vectors of the previous built-in model, still in the index.
	old      *embed.Index
	oldModel embed.Embedder
	// others are the models other than builtin whose vectors the index
	// also holds, most notes first: with Options.KeepOtherVectors,
	// searches name them.
	others []otherModel

	// queryDown is when a query's embedding last failed (UnixNano, 0:
	// never): for queryRetry after it, searches use keywords at once.
	queryDown atomic.Int64

	wake   chan struct{}
	cancel context.CancelFunc
	done   chan struct{}
}

// otherModel is a model with vectors in the index, and how many notes
// have them.
type otherModel struct {
	model string
	notes int
}

// startEmbedding starts the background embedder (Options.Embedder).
func (e *Engine) startEmbedding() {
	p := e.opts.Embedder
	if p == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	em := &embedder{e: e, provider: p, have: map[string]struct{}{}, pending: map[string]bool{},
		state: "starting", wake: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	e.emb = em
	e.OnChange(func(c Change) {
		em.mu.Lock()
		for _, id := range c.Removed {
			delete(em.pending, id)
			delete(em.have, id)
			if em.index != nil {
				em.index.Remove(id)
			}
		}
		for _, id := range append(slices.Clone(c.Added), c.Edited...) {
			em.pending[id] = true
		}
		em.mu.Unlock()
		em.poke()
	})
	go em.run(ctx)
}

// stopEmbedding stops the background embedder and waits for it.
func (e *Engine) stopEmbedding() {
	if e.emb == nil {
		return
	}
	e.emb.cancel()
	<-e.emb.done
}

func (em *embedder) poke() {
	select {
	case em.wake <- struct{}{}:
	default:
	}
}

func (em *embedder) setState(s string) {
	em.mu.Lock()
	em.state = s
	em.mu.Unlock()
}

// run loads stored vectors, then embeds what is missing, then follows
// changes until ctx ends.
func (em *embedder) run(ctx context.Context) {
	defer close(em.done)
	log := em.e.log
	embedRetry := em.e.opts.testOptions().embedRetry
	// The previous built-in model's vectors answer queries until the new
	// model's are complete, even while its server is down.
	if !em.e.opts.StoreVectorsOnly {
		em.loadOld(ctx, em.e.noteHashIDs())
	}
	for ctx.Err() == nil {
		if err := em.load(ctx); err != nil {
			em.setState("error: " + err.Error())
			em.mu.Lock()
			old := em.old
			em.mu.Unlock()
			if old != nil && old.Len() > 0 {
				log.Warn("embedding model unavailable; semantic search uses the builtin vectors stored before", "model", em.provider.Model(), "err", err)
			} else {
				log.Warn("embedding model unavailable; search uses keywords only", "model", em.provider.Model(), "err", err)
			}
			if !sleep(ctx, embedRetry, em.wake) {
				return
			}
			continue
		}
		break
	}
	for ctx.Err() == nil {
		err := em.embedPending(ctx)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			em.setState("error: " + err.Error())
			log.Warn("embedding failed; will retry", "model", em.model, "err", err, "retry", embedRetry)
			if !sleep(ctx, embedRetry, em.wake) {
				return
			}
			continue
		}
		em.finish(ctx)
		select {
		case <-ctx.Done():
			return
		case <-em.wake:
		}
	}
}

// sleep waits d or until woken; false when ctx ended.
func sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-wake:
	}
	return true
}

// load learns the model's dimension and loads the stored vectors that
// still match their notes.
func (em *embedder) load(ctx context.Context) error {
	dim := em.provider.Dimension()
	if dim == 0 { // a remote model tells its dimension with its first answer
		v, err := em.provider.Embed(ctx, []string{"dimension"})
		if err != nil {
			return err
		}
		if len(v) != 1 || len(v[0]) == 0 {
			return fmt.Errorf("embedding model %s answered no vector", em.provider.Model())
		}
		dim = len(v[0])
	}
	model := em.provider.Model()
	hashes := em.e.noteHashIDs()
	have := make(map[string]struct{}, len(hashes))
	st := em.e.store
	var idx *embed.Index
	if em.e.opts.StoreVectorsOnly {
		if st != nil {
			stored, err := st.VectorHashes(ctx, model, dim)
			if err != nil {
				return err
			}
			for id, h := range stored {
				if n, ok := hashes[id]; ok && n.hash == h {
					have[n.id] = struct{}{}
				}
			}
		}
	} else if idx = em.e.newVectorIndex(ctx, model, dim); st != nil {
		sparse := vectorCodec(model) == store.Sparse
		err := st.Vectors(ctx, model, dim, func(nv store.NoteVectors) error {
			if n, ok := hashes[nv.Note]; ok && n.hash == nv.Hash && nv.Hash != "" {
				// Searched at once; made again (cheap for the builtin
				// model) when stored in a form older than the model's.
				idx.Replace(n.id, nv.Vecs)
				if !sparse || !nv.Dense {
					have[n.id] = struct{}{}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var others []otherModel
	if st != nil && em.e.opts.KeepOtherVectors {
		others = em.otherModels(ctx, model)
	}
	em.mu.Lock()
	em.index, em.model, em.dim, em.have, em.loaded, em.others = idx, model, dim, have, true, others
	for _, h := range hashes {
		if _, ok := have[h.id]; !ok {
			em.pending[h.id] = true
		}
	}
	n := len(em.pending)
	em.mu.Unlock()
	em.e.log.Info("embeddings", "model", model, "dim", dim, "stored", len(have), "to embed", n)
	return nil
}

// otherModels lists the models other than model and builtin whose
// vectors the index holds, most notes first.
func (em *embedder) otherModels(ctx context.Context, model string) []otherModel {
	models, err := em.e.store.VectorModels(ctx)
	if err != nil {
		return nil // only a hint
	}
	var out []otherModel
	for key, n := range models {
		m := modelOf(key)
		if m != model && !strings.HasPrefix(m, "builtin") {
			out = append(out, otherModel{model: m, notes: n})
		}
	}
	slices.SortFunc(out, func(a, b otherModel) int {
		return cmp.Or(b.notes-a.notes, strings.Compare(a.model, b.model))
	})
	return out
}

// loadOld keeps the previous built-in model's vectors for queries while
// the new model's are being made (a model switch must not leave search
// without vectors for the hours a large vault may take).
func (em *embedder) loadOld(ctx context.Context, hashes map[string]idHash) {
	st := em.e.store
	if st == nil {
		return
	}
	b, err := embed.New("builtin", embed.Options{})
	if err != nil || b == nil || b.Model() == em.provider.Model() {
		return
	}
	idx := em.e.newVectorIndex(ctx, b.Model(), b.Dimension())
	err = st.Vectors(ctx, b.Model(), b.Dimension(), func(nv store.NoteVectors) error {
		if n, ok := hashes[nv.Note]; ok && n.hash == nv.Hash && nv.Hash != "" {
			idx.Replace(n.id, nv.Vecs)
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		// Those loaded before the error still answer queries.
		em.e.log.Warn("could not load the vectors stored before", "model", b.Model(), "err", err)
	}
	if idx.Len() == 0 {
		return
	}
	em.mu.Lock()
	em.old, em.oldModel = idx, b
	em.mu.Unlock()
}

// embedPending embeds the pending notes a batch at a time.
func (em *embedder) embedPending(ctx context.Context) error {
	for {
		em.mu.Lock()
		var batch []string
		for id := range em.pending {
			batch = append(batch, id)
			if len(batch) == embedBatch {
				break
			}
		}
		total := len(em.pending) + len(em.have)
		if len(batch) > 0 {
			em.state = fmt.Sprintf("embedding: %d of %d notes", len(em.have), total)
		}
		em.mu.Unlock()
		if len(batch) == 0 {
			return nil
		}
		if err := em.embedNotes(ctx, batch); err != nil {
			return err
		}
	}
}

// embedNotes embeds and stores the chunks of some notes.
func (em *embedder) embedNotes(ctx context.Context, ids []string) error {
	var texts []string
	var items []store.NoteVectors
	var counts []int
	chars := em.e.chunkChars()
	for _, id := range ids {
		n, err := em.e.GetNode(ctx, id, true)
		if err != nil {
			return err
		}
		if n == nil { // gone since: nothing to embed
			em.mu.Lock()
			delete(em.pending, id)
			em.mu.Unlock()
			continue
		}
		chunks := embed.Chunks(n.Title, n.Content, chars)
		for _, c := range chunks {
			texts = append(texts, c.Text)
		}
		counts = append(counts, len(chunks))
		items = append(items, store.NoteVectors{Note: id, Hash: n.Hash})
	}
	if len(texts) == 0 {
		return nil
	}
	em.yield(ctx)
	vecs, err := em.provider.Embed(ctx, texts)
	if err != nil {
		return err
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embedding model %s answered %d vectors for %d texts", em.model, len(vecs), len(texts))
	}
	at := 0
	for i := range items {
		items[i].Vecs = vecs[at : at+counts[i]]
		at += counts[i]
		for _, v := range items[i].Vecs {
			if len(v) != em.dim {
				return fmt.Errorf("embedding model %s changed dimension from %d to %d: restart to re-embed", em.model, em.dim, len(v))
			}
		}
	}
	if st := em.e.store; st != nil {
		codec := vectorCodec(em.model)
		for i, it := range items {
			items[i].Blobs = make([][]byte, len(it.Vecs))
			for j, v := range it.Vecs {
				items[i].Blobs[j] = codec.Round(v) // searched now as they will be read back
			}
		}
		em.yield(ctx)
		if err := st.PutVectors(ctx, em.model, em.dim, items); err != nil {
			return err
		}
	}
	em.settle(items)
	return nil
}

// settle takes in the vectors of items, just embedded: a note edited or
// deleted while its batch was embedded keeps (or loses) its place, as its
// current hash decides.
func (em *embedder) settle(items []store.NoteVectors) {
	current := em.e.hashesOf(items)
	em.mu.Lock()
	for _, it := range items {
		switch h, ok := current[it.Note]; {
		case !ok: // deleted meanwhile
			if em.index != nil {
				em.index.Remove(it.Note)
			}
			delete(em.have, it.Note)
			delete(em.pending, it.Note)
		case h != it.Hash: // edited meanwhile: embed it again
			em.pending[it.Note] = true
		default:
			if em.index != nil {
				em.index.Replace(it.Note, it.Vecs)
			}
			em.have[it.Note] = struct{}{}
			delete(em.pending, it.Note)
		}
	}
	em.mu.Unlock()
}

// yield waits, at most embedYield, while group writes are under way: the
// embedder's CPU and its vector transaction would otherwise slow every
// write's fsyncs and index transaction.
func (em *embedder) yield(ctx context.Context) {
	deadline := time.Now().Add(embedYield)
	for em.e.writesBusy() && time.Now().Before(deadline) {
		t := time.NewTimer(embedYieldPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// hashesOf returns the current content hash of each item's note (absent
// when the note is gone).
func (e *Engine) hashesOf(items []store.NoteVectors) map[string]string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make(map[string]string, len(items))
	for _, it := range items {
		if ns, ok := e.notes[it.Note]; ok {
			out[it.Note] = ns.note.Hash
		}
	}
	return out
}

// finish marks the vectors complete: the previous model's vectors are
// dropped from memory and, unless Options.KeepOtherVectors, from the
// index.
func (em *embedder) finish(ctx context.Context) {
	em.mu.Lock()
	done := len(em.pending) == 0
	em.mu.Unlock()
	if !done {
		return
	}
	// Drop the previous model's vectors before saying ready, so that a
	// caller waiting for ready (the CLI) does not close the index under
	// the drop.
	// Once: the model is the engine's for its lifetime, and counting the
	// stored vectors by model reads the whole table.
	if st := em.e.store; st != nil && !em.dropped && !em.e.opts.KeepOtherVectors {
		if models, err := st.VectorModels(ctx); err == nil && len(models) > 1 {
			if err := st.DropOtherVectors(ctx, em.model, em.dim); err != nil && ctx.Err() == nil {
				em.e.log.Warn("could not drop old vectors", "err", err)
			} else if err == nil {
				em.dropped = true
			}
		} else if err == nil {
			em.dropped = true
		}
	}
	em.mu.Lock()
	if len(em.pending) == 0 {
		em.state = "ready"
		em.old, em.oldModel = nil, nil
	}
	em.mu.Unlock()
}
