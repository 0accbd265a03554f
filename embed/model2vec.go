package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Model2Vec is a static embedding model in the model2vec format (for
// example minishlab/potion-base-8M, MIT licensed): a folder with
// model.safetensors (an embedding matrix "embeddings" [vocab, dim] in F32,
// F16, BF16 or I8, optionally per-token "weights" and a token-to-row
// "mapping") and tokenizer.json. A text's vector is the mean of its
// tokens' rows, L2-normalised, as the reference implementation computes
// it: tokenized without special tokens, unknown and special tokens
// dropped, at most 512 tokens (the text first cut to 512 × the median
// token length in characters). It runs in pure Go, offline, at thousands
// of texts per second; unlike builtin it is semantic.
type Model2Vec struct {
	name      string
	tok       *Tokenizer
	emb       []float32 // rows × dim
	rows, dim int
	weights   []float32 // by token id; nil when absent
	mapping   []int32   // token id → row; nil when absent
	maxTokens int
	maxChars  int
}

var _ Embedder = (*Model2Vec)(nil)

// Files of a model2vec model folder.
const (
	model2vecWeights   = "model.safetensors"
	model2vecTokenizer = "tokenizer.json"
	model2vecConfig    = "config.json"
	model2vecMaxTokens = 512
)

// LoadModel2Vec loads a model2vec model from a folder. A missing folder or
// file wraps ErrModelNotFound; a malformed one wraps ErrFormat.
func LoadModel2Vec(dir string) (*Model2Vec, error) {
	for _, f := range []string{model2vecWeights, model2vecTokenizer} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%w: %s has no %s", ErrModelNotFound, dir, f)
			}
			return nil, err
		}
	}
	tok, err := LoadTokenizer(filepath.Join(dir, model2vecTokenizer))
	if err != nil {
		return nil, err
	}
	m := &Model2Vec{name: filepath.Base(filepath.Clean(dir)), tok: tok, maxTokens: model2vecMaxTokens}
	if err := m.loadWeights(filepath.Join(dir, model2vecWeights)); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, model2vecWeights), err)
	}
	m.maxChars = m.maxTokens * medianTokenLength(tok)
	return m, nil
}

func (m *Model2Vec) loadWeights(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	st, err := openSafetensors(f, fi.Size())
	if err != nil {
		return err
	}
	names := []string{"embeddings", "embedding.weight", "0"}
	i := slices.IndexFunc(names, st.has)
	if i < 0 {
		return fmt.Errorf("%w: no \"embeddings\" tensor", ErrFormat)
	}
	emb, shape, err := st.floats(names[i])
	if err != nil {
		return err
	}
	if len(shape) != 2 || shape[0] == 0 || shape[1] == 0 {
		return fmt.Errorf("%w: embeddings of shape %v, want [vocab, dim]", ErrFormat, shape)
	}
	m.emb, m.rows, m.dim = emb, shape[0], shape[1]
	if !checkFinite(emb) {
		return fmt.Errorf("%w: embeddings hold NaN or infinity", ErrFormat)
	}
	if st.has("weights") {
		if m.weights, err = vocabVector(st.floats, "weights"); err != nil {
			return err
		}
	}
	if st.has("mapping") {
		ids, err := vocabVector(st.ints, "mapping")
		if err != nil {
			return err
		}
		m.mapping = make([]int32, len(ids))
		for i, r := range ids {
			if r < 0 || r >= int64(m.rows) {
				return fmt.Errorf("%w: mapping sends token %d to row %d of %d", ErrFormat, i, r, m.rows)
			}
			m.mapping[i] = int32(r)
		}
	} else if n := m.tok.VocabSize(); n > m.rows {
		return fmt.Errorf("%w: tokenizer has %d tokens, embeddings only %d rows", ErrFormat, n, m.rows)
	}
	return nil
}

// medianTokenLength is the median length in bytes of the vocabulary's
// tokens (at least 1), used to cut very long texts before tokenizing.
func medianTokenLength(t *Tokenizer) int {
	lens := make([]int, 0, len(t.tokens))
	for _, s := range t.tokens {
		if s != "" {
			lens = append(lens, len(s))
		}
	}
	if len(lens) == 0 {
		return 1
	}
	slices.Sort(lens)
	return max(lens[len(lens)/2], 1)
}

// Model returns "model2vec:" and the model folder's name.
func (m *Model2Vec) Model() string { return "model2vec:" + m.name }

// Dimension is the width of the embedding matrix.
func (m *Model2Vec) Dimension() int { return m.dim }

// Embed returns one vector per text, spread across cores for large
// batches.
func (m *Model2Vec) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedLocal(ctx, texts, m.Vector)
}

// Vector embeds one text: the mean of its tokens' (weighted) rows,
// normalised; the zero vector when no token is known.
func (m *Model2Vec) Vector(text string) []float32 {
	n := 0
	for i := range text {
		if n == m.maxChars {
			text = text[:i]
			break
		}
		n++
	}
	out := make([]float32, m.dim)
	used := 0
	for _, id := range m.tok.Encode(text) {
		if id < 0 || id == m.tok.unk || m.tok.special[id] {
			continue
		}
		if used == m.maxTokens {
			break
		}
		row := id
		if m.mapping != nil {
			if id >= len(m.mapping) {
				continue
			}
			row = int(m.mapping[id])
		}
		if row >= m.rows {
			continue
		}
		w := float32(1)
		if m.weights != nil && id < len(m.weights) {
			w = m.weights[id]
		}
		vec := m.emb[row*m.dim : (row+1)*m.dim]
		for j, x := range vec {
			out[j] += w * x
		}
		used++
	}
	// The mean differs from the sum by a positive factor, which the
	// normalisation removes.
	return Normalize(out)
}

// vocabVector reads the one-dimensional tensor name (a value per token)
// with read.
func vocabVector[T any](read func(name string) ([]T, []int, error), name string) ([]T, error) {
	v, shape, err := read(name)
	if err != nil {
		return nil, err
	}
	if len(shape) != 1 {
		return nil, fmt.Errorf("%w: %s of shape %v, want [vocab]", ErrFormat, name, shape)
	}
	return v, nil
}
