package embed

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// Embedder turns texts into vectors. Every implementation returns
// L2-normalised vectors (so cosine similarity is a dot product), except
// that a text with nothing to embed may give the zero vector. Embedders are
// safe for concurrent use.
type Embedder interface {
	// Embed returns one vector per text, in order, each of Dimension()
	// floats.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the model and its version, so that vectors made by
	// another model are never compared with these.
	Model() string
	// Dimension is the length of every vector, or 0 while it is not yet
	// known (a remote model's dimension is learned from its first answer).
	Dimension() int
}

// Errors returned by the providers, wrapped with details; test with
// errors.Is.
var (
	// ErrUnavailable: the embedding server could not be reached or kept
	// failing (connection refused, timeout, HTTP 429 or 5xx after the
	// retries). Search should fall back to keywords and say so.
	ErrUnavailable = errors.New("embedding server unavailable")
	// ErrRejected: the server refused the request (HTTP 4xx other than
	// 429: a wrong API key, an unknown model, a bad request). Retrying
	// will not help; the configuration must change.
	ErrRejected = errors.New("embedding request rejected")
	// ErrBadResponse: the server answered with something that is not the
	// expected embeddings (malformed JSON, a wrong number of vectors, a
	// changed dimension, NaN values).
	ErrBadResponse = errors.New("bad embedding response")
	// ErrUnknownProvider: the provider spec names no known provider.
	ErrUnknownProvider = errors.New("unknown embedding provider")
	// ErrModelNotFound: a model2vec model folder is missing or incomplete.
	ErrModelNotFound = errors.New("embedding model not found")
	// ErrFormat: a model file (safetensors, tokenizer.json) is malformed
	// or uses a feature this package does not support.
	ErrFormat = errors.New("unsupported or malformed model file")
)

// Defaults used when an Options field is zero.
const (
	DefaultOllamaURL  = "http://localhost:11434"
	DefaultOpenAIURL  = "https://api.openai.com/v1"
	DefaultBatchSize  = 32
	DefaultTimeout    = 60 * time.Second
	DefaultRetries    = 3
	DefaultOllama     = "nomic-embed-text"
	DefaultOpenAI     = "text-embedding-3-small"
	DefaultModel2Vec  = "minishlab/potion-base-8M"
	EnvEmbedURL       = "VAULTGRAPH_EMBED_URL"
	EnvEmbedKey       = "VAULTGRAPH_EMBED_KEY"
	EnvOpenAIKey      = "OPENAI_API_KEY"
	defaultMaxBackoff = 30 * time.Second
)

// Options configures New. Zero values take the defaults above.
type Options struct {
	// BaseURL of the server: ollama http://localhost:11434, openai
	// https://api.openai.com/v1 (or any OpenAI-compatible /v1 root). Empty
	// means $VAULTGRAPH_EMBED_URL, then the default.
	BaseURL string
	// APIKey sent as a bearer token. Empty means $VAULTGRAPH_EMBED_KEY,
	// then (openai only) $OPENAI_API_KEY; with no key no Authorization
	// header is sent (local servers need none).
	APIKey string
	// BatchSize is the number of texts per request (default 32).
	BatchSize int
	// Timeout bounds each HTTP request (default 60s; the first request to
	// Ollama may load the model).
	Timeout time.Duration
	// Retries is the number of retries after a failed request (default 3;
	// negative means none).
	Retries int
	// CacheDir holds pulled model2vec models (default
	// os.UserCacheDir()/vaultgraph/models).
	CacheDir string
	// HTTPClient for remote providers (default: a plain http.Client;
	// timeouts come from Timeout and the context).
	HTTPClient *http.Client
}

// New returns the Embedder a spec names:
//
//	""  or "builtin"        the offline hashing embedder (see Builtin)
//	"ollama:MODEL"          Ollama's /api/embed (MODEL default nomic-embed-text)
//	"openai:MODEL"          an OpenAI-compatible /embeddings endpoint
//	                        (MODEL default text-embedding-3-small)
//	"model2vec:PATH|NAME"   a model2vec folder, or a pulled model by its
//	                        Hugging Face name (default minishlab/potion-base-8M)
//	"none"                  no vectors: New returns nil, nil
//
// The provider name is case-insensitive. New does no network I/O; for
// model2vec it reads the model folder, so a missing model is reported at
// once (wrapping ErrModelNotFound) rather than at the first Embed.
func New(spec string, opts Options) (Embedder, error) {
	kind, arg, _ := strings.Cut(strings.TrimSpace(spec), ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	arg = strings.TrimSpace(arg)
	switch kind {
	case "", "builtin":
		if arg != "" {
			return nil, fmt.Errorf("embed spec %q: builtin takes no model: %w", spec, ErrUnknownProvider)
		}
		return NewBuiltin(), nil
	case "none":
		return nil, nil
	case "ollama", "openai":
		return newHTTPEmbedder(kind, arg, opts), nil
	case "model2vec":
		dir, err := ResolveModel2Vec(cmp.Or(arg, DefaultModel2Vec), opts.CacheDir)
		if err != nil {
			return nil, err
		}
		return LoadModel2Vec(dir)
	}
	return nil, fmt.Errorf("embed spec %q (want builtin, ollama:MODEL, openai:MODEL, model2vec:PATH or none): %w",
		spec, ErrUnknownProvider)
}

// remote returns o with the defaults and the environment applied: the
// base URL without a trailing slash, Retries 0 for none.
func (o Options) remote(defaultURL string, keyEnvs ...string) Options {
	o.BaseURL = strings.TrimRight(cmp.Or(o.BaseURL, os.Getenv(EnvEmbedURL), defaultURL), "/")
	for _, env := range keyEnvs {
		o.APIKey = cmp.Or(o.APIKey, os.Getenv(env))
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	return o
}
