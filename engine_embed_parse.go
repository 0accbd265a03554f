package vaultgraph

import (
	"context"
	"strings"
	"sync"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// inlineEmbed makes the vectors of notes while a start-up pass parses
// them, on the parse workers, from the bytes just read: a local model
// (builtin, model2vec) costs about what parsing does, so parsing and
// embedding of one chunk of notes share the cores while the chunk before
// is written, and notes and their vectors go to the index in the same
// transaction. The background embedder then finds them stored (by
// content hash) and has nothing left to do. A remote model is left to the
// background embedder: a slow or failing server must not hold up the
// index.
type inlineEmbed struct {
	provider embed.Embedder
	model    string
	dim      int
	chars    int
	bufs     sync.Pool // of *[]float32 of length dim (writeVectors)
}

// inlineEmbedder returns the inline embedder of a start-up pass, or nil
// when the engine has no local embedding model or no index to keep the
// vectors in (the background embedder then holds them in memory).
func (e *Engine) inlineEmbedder() *inlineEmbed {
	p := e.opts.Embedder
	if e.opts.NoIndex {
		return nil
	}
	switch p.(type) {
	case *embed.Builtin, *embed.Model2Vec:
	default:
		return nil
	}
	dim := p.Dimension()
	if dim <= 0 {
		return nil
	}
	return &inlineEmbed{provider: p, model: p.Model(), dim: dim, chars: e.chunkChars()}
}

// vectors returns the chunk vectors of a note with title whose body is
// content (the text the background embedder would read: readBody), in
// their stored form. It returns nil when the model fails or gives vectors
// of another dimension: the background embedder then tries.
func (ie *inlineEmbed) vectors(ctx context.Context, title, content string) [][]byte {
	if w, ok := ie.provider.(vectorWriter); ok {
		return ie.writeVectors(ctx, w, title, content)
	}
	chunks := embed.Chunks(title, content, ie.chars)
	out := make([][]byte, len(chunks))
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	vecs, err := ie.provider.Embed(ctx, texts)
	if err != nil || len(vecs) != len(texts) {
		return nil
	}
	for i, v := range vecs {
		if len(v) != ie.dim {
			return nil
		}
		out[i] = vectorCodec(ie.model).Encode(v)
	}
	return out
}

// writeVectors is vectors for a model that writes each vector into a
// buffer: each is encoded before the next is made, so one buffer (kept
// for the next note) and one chunk text at a time serve them all.
func (ie *inlineEmbed) writeVectors(ctx context.Context, w vectorWriter, title, content string) [][]byte {
	buf, _ := ie.bufs.Get().(*[]float32)
	if buf == nil || len(*buf) != ie.dim {
		b := make([]float32, ie.dim)
		buf = &b
	}
	defer ie.bufs.Put(buf)
	var out [][]byte
	stopped := false
	embed.EachChunkText(title, content, ie.chars, func(text string) {
		if stopped = stopped || ctx.Err() != nil; !stopped {
			out = append(out, vectorCodec(ie.model).Encode(w.VectorTo(*buf, text)))
		}
	})
	if stopped {
		return nil
	}
	return out
}

// embedContent is bodyOf(src, bodyStart), cut from body when body is
// store.IndexedBody of the same file and holds it (the same text but for
// the leading line breaks), so that a note's text is not copied once more
// for its vectors.
func embedContent(src []byte, bodyStart int, body string) string {
	if body != "" {
		return strings.TrimLeft(body, "\r\n")
	}
	return bodyOf(src, bodyStart)
}

// vectorWriter is a local model that writes a vector into a buffer of
// its dimension (embed.Builtin).
type vectorWriter interface {
	VectorTo(dst []float32, text string) []float32
}

var _ vectorWriter = (*embed.Builtin)(nil)

// batchVectors adds the vectors made while parsing to the batch that
// stores the notes.
func (ie *inlineEmbed) batchVectors(b *store.Batch, id, hash string, vecs [][]byte) {
	if ie == nil || vecs == nil {
		return
	}
	b.VectorModel, b.VectorDim = ie.model, ie.dim
	b.Vectors = append(b.Vectors, store.NoteVectors{Note: id, Hash: hash, Blobs: vecs})
}
