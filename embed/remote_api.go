package embed

import (
	"cmp"
	"encoding/json"
	"fmt"
)

// remoteAPI is what one HTTP embedding API differs in. Both take the same
// request body (embedRequest); batching, timeouts, retries and checks are
// the remote embedder's.
type remoteAPI struct {
	defaultURL   string
	defaultModel string
	path         string   // appended to the base URL
	keyEnvs      []string // the variables that give the API key, in order
	format       string   // the request's encoding_format; "" sends none
	decode       func(body []byte, n int) ([][]float32, error)
	hint         string // added to ErrUnavailable messages
}

// remoteAPIs are the HTTP embedding APIs by provider name.
var remoteAPIs = map[string]remoteAPI{
	// Ollama's POST /api/embed:
	// {"model":M,"input":[...]} → {"embeddings":[[...],...]}.
	"ollama": {
		defaultURL: DefaultOllamaURL, defaultModel: DefaultOllama, path: "/api/embed",
		keyEnvs: []string{EnvEmbedKey}, decode: decodeOllama,
		hint: "; is Ollama running (ollama serve)?",
	},
	// An OpenAI-compatible POST {base}/embeddings (OpenAI, LM Studio,
	// llama.cpp, vLLM):
	// {"model":M,"input":[...]} → {"data":[{"embedding":[...],"index":i},...]}.
	"openai": {
		defaultURL: DefaultOpenAIURL, defaultModel: DefaultOpenAI, path: "/embeddings",
		keyEnvs: []string{EnvEmbedKey, EnvOpenAIKey}, format: "float", decode: decodeOpenAI,
		hint: "; is the server running at that URL?",
	},
}

// newHTTPEmbedder returns an embedder for the API remoteAPIs names provider;
// model "" is the API's default model.
func newHTTPEmbedder(provider, model string, opts Options) *remote {
	api := remoteAPIs[provider]
	cfg := opts.remote(api.defaultURL, api.keyEnvs...)
	return &remote{
		provider: provider,
		model:    cmp.Or(model, api.defaultModel),
		endpoint: cfg.BaseURL + api.path,
		cfg:      cfg,
		api:      api,
	}
}

// embedRequest is the request body of both APIs.
type embedRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format,omitempty"`
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
