package embed

import (
	"encoding/json"
	"fmt"
)

// newOllama returns an embedder for Ollama's POST /api/embed:
// {"model":M,"input":[...]} → {"embeddings":[[...],...]}.
func newOllama(model string, opts Options) *remote {
	cfg := opts.remote(DefaultOllamaURL, EnvEmbedKey)
	return &remote{
		provider: "ollama",
		model:    model,
		endpoint: cfg.base + "/api/embed",
		cfg:      cfg,
		encode:   encodeOllama,
		decode:   decodeOllama,
		hint:     "; is Ollama running (ollama serve)?",
	}
}

func encodeOllama(model string, texts []string) ([]byte, error) {
	return json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{model, texts})
}

func decodeOllama(body []byte, n int) ([][]float32, error) {
	var r struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("malformed JSON: %v", err)
	}
	if len(r.Embeddings) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", errCount, len(r.Embeddings), n)
	}
	return r.Embeddings, nil
}
