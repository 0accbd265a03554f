package vaultgraph

// Test doubles for the embedding tests: an in-process embedder that counts
// its calls, and an embedding server over real HTTP whose behaviour can be
// switched while it runs.

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
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

// fakeDim is the length of the fake servers' vectors.
const fakeDim = testutil.EmbedDim

// fakeEmbedServer is a testutil.EmbedServer serving every model, whose
// failures say the model is loading.
type fakeEmbedServer struct {
	*testutil.EmbedServer
	held <-chan struct{} // told when a request is held
}

// newFakeEmbedServer starts a fake server, on addr if not empty.
func newFakeEmbedServer(t *testing.T, openai bool, addr string) *fakeEmbedServer {
	t.Helper()
	s := testutil.NewEmbedServerAt(t, openai, "", addr)
	return &fakeEmbedServer{EmbedServer: s, held: s.Held()}
}

// baseURL is the base URL to give embed.Options.
func (f *fakeEmbedServer) baseURL() string { return f.BaseURL() }

// spec is the embed.New spec of model on this server.
func (f *fakeEmbedServer) embedder(t *testing.T, model string) embed.Embedder {
	t.Helper()
	kind := "ollama"
	if f.OpenAI {
		kind = "openai"
	}
	p, err := embed.New(kind+":"+model, embed.Options{BaseURL: f.baseURL(), Retries: -1, Timeout: 5 * time.Second, BatchSize: 16})
	if err != nil {
		t.Fatalf("embed.New(%s:%s) = %v", kind, model, err)
	}
	return p
}

// setStatus makes every later request fail with the HTTP status code (0:
// answer again).
func (f *fakeEmbedServer) setStatus(code int) { f.Fail(code, `{"error":"model is loading"}`) }

// hold makes the server hold every request but the dimension probe.
func (f *fakeEmbedServer) hold() { f.Hold() }

// release lets held requests (and later ones) through.
func (f *fakeEmbedServer) release() { f.Release() }

// counts returns the requests answered and texts embedded so far.
func (f *fakeEmbedServer) counts() (requests, texts int) { return f.Counts() }
