package vaultgraph

import (
	"context"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// RescoreCandidates is how many notes the builtin model's vector search
// takes from the sparse vectors in memory (by the partial score of their
// best chunk) and scores exactly, by embedding that chunk again from the
// note's file. The builtin model is cheap and deterministic, so its
// index keeps 32 components a chunk (store.Sparse: 65 bytes instead of
// 513) and a search pays for this many chunk embeddings instead. Chosen
// by measured recall on a 10,000-note generated vault (100 queries):
// with 100 candidate chunks the best note was always among them, with
// 200 99% of the ten best; semantic search counts at most this many
// notes.
const RescoreCandidates = 200

// vectorCodec is the stored form of model's vectors: sparse for the
// builtin model, whose searches score their candidates again exactly
// (rescore); int8 for every other model, whose vectors cannot be made
// again cheaply.
func vectorCodec(model string) store.Codec {
	if model == embed.BuiltinModel {
		return store.Sparse
	}
	return store.Int8
}

// chunkChars is the size limit of the chunks notes are embedded in.
func (e *Engine) chunkChars() int {
	if e.opts.EmbedChunkChars > 0 {
		return e.opts.EmbedChunkChars
	}
	return embed.DefaultChunkChars
}

// rescore scores each candidate chunk by the cosine similarity of query
// with the chunk embedded again by provider, and returns the k notes
// whose best candidate chunk scores highest, best first (ties by note
// ID). A chunk whose note is gone, or no longer has that chunk (it
// changed since, and is embedded again soon), is left out. The score is
// then the same in every process, whatever the sparse form kept.
func (e *Engine) rescore(ctx context.Context, provider embed.Embedder, query []float32, cands []embed.Hit, k int) []vectorHit {
	var notes []string
	chunks := map[string][]int{}
	for _, c := range cands {
		if _, ok := chunks[c.NoteID]; !ok {
			notes = append(notes, c.NoteID)
		}
		chunks[c.NoteID] = append(chunks[c.NoteID], c.Chunk)
	}
	best := make([]vectorHit, len(notes))
	chars := e.chunkChars()
	embed.Each(ctx, len(notes), 4, func(i int) {
		best[i] = e.rescoreNote(ctx, provider, query, notes[i], chunks[notes[i]], chars)
	})
	out := slices.DeleteFunc(best, func(h vectorHit) bool { return h.ID == "" })
	slices.SortFunc(out, func(a, b vectorHit) int {
		switch {
		case a.Similarity > b.Similarity:
			return -1
		case a.Similarity < b.Similarity:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out[:min(k, len(out))]
}

// rescoreNote embeds the given chunks of note id again, from its file,
// and returns the best of them scored against query (its ID "" when the
// note or every chunk is gone).
func (e *Engine) rescoreNote(ctx context.Context, provider embed.Embedder, query []float32, id string, chunks []int, chars int) vectorHit {
	if err := e.readLock(); err != nil {
		return vectorHit{}
	}
	ns, ok := e.notes[id]
	var title string
	var file noteFile
	if ok {
		title, file = ns.note.Title, noteFile{path: ns.path, bodyStart: ns.note.BodyStart}
	}
	e.mu.RUnlock()
	if !ok {
		return vectorHit{}
	}
	body, err := readBody(file.path, file.bodyStart)
	if err != nil {
		return vectorHit{}
	}
	cs := embed.Chunks(title, body, chars)
	var texts []string
	var nums []int
	for _, c := range chunks {
		if c >= 0 && c < len(cs) {
			texts, nums = append(texts, cs[c].Text), append(nums, c)
		}
	}
	if len(texts) == 0 {
		return vectorHit{}
	}
	vecs, err := provider.Embed(ctx, texts)
	if err != nil || len(vecs) != len(texts) {
		return vectorHit{}
	}
	var hit vectorHit
	for i, v := range vecs {
		if s := float64(embed.Dot(query, v)); hit.ID == "" || s > hit.Similarity {
			hit = vectorHit{ID: id, Chunk: nums[i], Similarity: s}
		}
	}
	return hit
}
