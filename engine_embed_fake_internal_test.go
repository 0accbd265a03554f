package vaultgraph

// Test doubles for the embedding tests: an in-process embedder that counts
// its calls, and an embedding server over real HTTP whose behaviour can be
// switched while it runs.

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/vaultgraph/vaultgraph/embed"
)

// countingEmbedder is the builtin embedder counting the texts it embeds;
// with a gate it blocks each Embed of more than one text (a batch, not a
// query) until the gate is closed, telling started when it begins.
type countingEmbedder struct {
	embed.Embedder
	gate    chan struct{}
	started chan struct{}

	mu    sync.Mutex
	texts []string
	calls int
}

var _ embed.Embedder = (*countingEmbedder)(nil)

func newCountingEmbedder() *countingEmbedder {
	return &countingEmbedder{Embedder: embed.NewBuiltin()}
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c.gate != nil && len(texts) > 1 {
		select {
		case c.started <- struct{}{}:
		default:
		}
		select {
		case <-c.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c.mu.Lock()
	c.texts = append(c.texts, texts...)
	c.calls++
	c.mu.Unlock()
	return c.Embedder.Embed(ctx, texts)
}

// embedded returns the texts embedded so far, sorted, and forgets them.
func (c *countingEmbedder) embedded() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Sorted(slices.Values(c.texts))
	c.texts = nil
	return out
}

// fakeDim is the dimension of fakeVector.
const fakeDim = 8

// fakeVector is a deterministic embedding for the fake servers: each
// lower-cased word adds 1 to the dimension its hash picks.
func fakeVector(text string) []float32 {
	v := make([]float32, fakeDim)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		h := fnv.New32a()
		h.Write([]byte(w))
		v[h.Sum32()%fakeDim]++
	}
	v[fakeDim-1] += 0.1 // never the zero vector
	return v
}

// fakeEmbedServer is an embedding server over real HTTP speaking the
// Ollama (/api/embed) or the OpenAI (/v1/embeddings) wire format. Its
// behaviour can be switched while it runs: fail with an HTTP status, or
// hold every request but the dimension probe until released.
type fakeEmbedServer struct {
	*httptest.Server
	openai bool

	mu       sync.Mutex
	status   int           // non-zero: answer with this HTTP status
	gate     chan struct{} // non-nil: hold requests until it is closed
	requests int           // answered with vectors
	texts    []string      // embedded, the probe included
	models   []string      // the model of each request
	held     chan struct{} // told when a request is held
}

// newFakeEmbedServer starts a fake server, on addr if not empty.
func newFakeEmbedServer(t *testing.T, openai bool, addr string) *fakeEmbedServer {
	t.Helper()
	f := &fakeEmbedServer{openai: openai, held: make(chan struct{}, 1)}
	f.Server = httptest.NewUnstartedServer(f)
	if addr != "" {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("listen on %s again: %v", addr, err)
		}
		f.Server.Listener.Close()
		f.Server.Listener = l
	}
	f.Start()
	t.Cleanup(func() {
		f.release()
		f.Close()
	})
	return f
}

// URL is the base URL to give embed.Options.
func (f *fakeEmbedServer) baseURL() string {
	if f.openai {
		return f.URL + "/v1"
	}
	return f.URL
}

// spec is the embed.New spec of model on this server.
func (f *fakeEmbedServer) embedder(t *testing.T, model string) embed.Embedder {
	t.Helper()
	kind := "ollama"
	if f.openai {
		kind = "openai"
	}
	p, err := embed.New(kind+":"+model, embed.Options{BaseURL: f.baseURL(), Retries: -1, Timeout: 5 * time.Second, BatchSize: 16})
	if err != nil {
		t.Fatalf("embed.New(%s:%s) = %v", kind, model, err)
	}
	return p
}

func (f *fakeEmbedServer) setStatus(code int) {
	f.mu.Lock()
	f.status = code
	f.mu.Unlock()
}

// hold makes the server hold every request but the dimension probe.
func (f *fakeEmbedServer) hold() {
	f.mu.Lock()
	f.gate = make(chan struct{})
	f.mu.Unlock()
}

// release lets held requests (and later ones) through.
func (f *fakeEmbedServer) release() {
	f.mu.Lock()
	if f.gate != nil {
		close(f.gate)
		f.gate = nil
	}
	f.mu.Unlock()
}

// counts returns the requests answered and texts embedded so far.
func (f *fakeEmbedServer) counts() (requests, texts int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests, len(f.texts)
}

func (f *fakeEmbedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	want := "/api/embed"
	if f.openai {
		want = "/v1/embeddings"
	}
	if r.Method != http.MethodPost || r.URL.Path != want {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	var body struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	data, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(data, &body); err != nil || body.Model == "" || len(body.Input) == 0 {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	status, gate := f.status, f.gate
	f.mu.Unlock()
	if status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, `{"error":"model is loading"}`)
		return
	}
	if gate != nil && !slices.Equal(body.Input, []string{"dimension"}) {
		select {
		case f.held <- struct{}{}:
		default:
		}
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	f.mu.Lock()
	f.requests++
	f.texts = append(f.texts, body.Input...)
	f.models = append(f.models, body.Model)
	f.mu.Unlock()
	vecs := make([][]float32, len(body.Input))
	for i, s := range body.Input {
		vecs[i] = fakeVector(s)
	}
	w.Header().Set("Content-Type", "application/json")
	if !f.openai {
		json.NewEncoder(w).Encode(map[string]any{"model": body.Model, "embeddings": vecs})
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	items := make([]item, len(vecs))
	for i, v := range vecs { // in reverse order: the index says which is which
		items[len(vecs)-1-i] = item{"embedding", i, v}
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": body.Model, "data": items})
}
