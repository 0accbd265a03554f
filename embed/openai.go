package embed

import (
	"encoding/json"
	"fmt"
)

// newOpenAI returns an embedder for an OpenAI-compatible POST
// {base}/embeddings (OpenAI, LM Studio, llama.cpp, vLLM):
// {"model":M,"input":[...]} → {"data":[{"embedding":[...],"index":i},...]}.
func newOpenAI(model string, opts Options) *remote {
	cfg := opts.remote(DefaultOpenAIURL, EnvEmbedKey, EnvOpenAIKey)
	return &remote{
		provider: "openai",
		model:    model,
		endpoint: cfg.base + "/embeddings",
		cfg:      cfg,
		encode:   encodeOpenAI,
		decode:   decodeOpenAI,
		hint:     "; is the server running at that URL?",
	}
}

func encodeOpenAI(model string, texts []string) ([]byte, error) {
	return json.Marshal(struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
	}{model, texts, "float"})
}

func decodeOpenAI(body []byte, n int) ([][]float32, error) {
	var r struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
			Index     *int      `json:"index"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("malformed JSON: %v", err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", errCount, len(r.Data), n)
	}
	out := make([][]float32, n)
	seen := make([]bool, n)
	for i, d := range r.Data {
		at := i // a server that leaves out the index answers in order
		if d.Index != nil {
			at = *d.Index
		}
		if at < 0 || at >= n || seen[at] {
			return nil, fmt.Errorf("vector index %d out of range or repeated", at)
		}
		seen[at] = true
		out[at] = d.Embedding
	}
	return out, nil
}
