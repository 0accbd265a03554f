package vaultgraph

import (
	"context"
	"os"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// RescoreCandidates is how many notes the builtin model's vector search
// takes from the sparse vectors in memory (by the partial score of their
// best chunk) and scores exactly, by embedding that chunk again from the
// note's file. The builtin model is cheap and deterministic, so its
// index keeps 32 components a chunk (store.Sparse: 65 bytes instead of
// 513) and a search pays for this many chunk embeddings instead, chosen
// for recall; semantic search counts at most this many notes.
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

// rescoreNote scores the given chunks of note id against query, and
// returns the best of them (its ID "" when the note or every chunk is
// gone). A chunk's vector is taken from e.chunkVecs when kept there for
// the note as the engine has it; the others are embedded again from the
// note's file, and kept if the file is still that version.
func (e *Engine) rescoreNote(ctx context.Context, provider embed.Embedder, query []float32, id string, chunks []int, chars int) vectorHit {
	if err := e.readLock(); err != nil {
		return vectorHit{}
	}
	ns, ok := e.notes[id]
	var title, path string
	var key chunkKey
	var bodyStart int
	if ok {
		title, path, bodyStart = ns.note.Title, ns.path, ns.note.BodyStart
		key = chunkKey{model: provider.Model(), id: id, hash: ns.note.Hash, chars: chars}
	}
	e.mu.RUnlock()
	if !ok {
		return vectorHit{}
	}
	vecs := make([][]float32, len(chunks))
	var missing []int
	for i, c := range chunks {
		key.chunk = c
		var kept bool
		if vecs[i], kept = e.chunkVecs.get(key); !kept {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 && !e.embedChunks(ctx, provider, key, title, path, bodyStart, chunks, missing, vecs) {
		return vectorHit{}
	}
	var hit vectorHit
	for i, v := range vecs {
		if v == nil {
			continue
		}
		if s := float64(embed.Dot(query, v)); hit.ID == "" || s > hit.Similarity {
			hit = vectorHit{ID: id, Chunk: chunks[i], Similarity: s}
		}
	}
	return hit
}

// embedChunks embeds again, from the note's file, the chunks[i] for i in
// missing, into vecs[i] (nil for a chunk the file no longer has), and
// keeps them in e.chunkVecs under key when the file is the version key
// names. It reports false when the file or the model fails.
func (e *Engine) embedChunks(ctx context.Context, provider embed.Embedder, key chunkKey, title, path string, bodyStart int,
	chunks, missing []int, vecs [][]float32) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	cs := embed.Chunks(title, bodyOf(src, bodyStart), key.chars)
	var texts []string
	var at []int
	for _, i := range missing {
		if c := chunks[i]; c >= 0 && c < len(cs) {
			texts, at = append(texts, cs[c].Text), append(at, i)
		}
	}
	if len(texts) == 0 {
		return true
	}
	made, err := provider.Embed(ctx, texts)
	if err != nil || len(made) != len(texts) {
		return false
	}
	same := vault.Hash(src) == key.hash
	for j, i := range at {
		vecs[i] = made[j]
		if same {
			key.chunk = chunks[i]
			e.chunkVecs.put(key, made[j])
		}
	}
	return true
}
