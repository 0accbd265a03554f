package vaultgraph

// The background embedder when its provider is down or gone: keyword
// fallback, retries, a model switch meanwhile, and the old vectors kept.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/embed"
)

// shortRetry makes an engine's embedder retry a failed provider at once.
func shortRetry(o *Options) {
	test := defaultTestOptions()
	test.embedRetry = 20 * time.Millisecond
	o.test = &test
}

// checkKeywordFallback checks that hybrid and semantic searches answer
// with the keyword results and a warning that vectors are unavailable.
func checkKeywordFallback(t *testing.T, e *Engine, when string) {
	t.Helper()
	for _, query := range []string{"alpha plan", "budget risk"} {
		keyword, kw := mustSearch(t, e, SearchQuery{Query: query, Mode: SearchKeyword})
		for _, mode := range []SearchMode{SearchHybrid, SearchSemantic} {
			hits, warnings := mustSearch(t, e, SearchQuery{Query: query, Mode: mode})
			if len(hits) == 0 || !slices.Equal(hits, keyword) {
				t.Errorf("%s: Search(%q, %s) = %q, want the keyword answer %q", when, query, mode, searchIDs(hits), searchIDs(keyword))
			}
			if len(warnings) != len(kw)+1 || !strings.HasPrefix(warnings[0], "vector search unavailable") || !strings.HasSuffix(warnings[0], "; keyword results only") {
				t.Errorf("%s: Search(%q, %s) warnings = %q, want vector search unavailable, then %q", when, query, mode, warnings, kw)
			}
		}
	}
}

// TestEmbedProviderDown: with the embedding server down the engine opens
// and searches by keyword, saying why; when the server comes back the
// vectors are made and search uses them.
func TestEmbedProviderDown(t *testing.T) {
	ctx := context.Background()

	t.Run("connection refused, then up", func(t *testing.T) {
		// A port with nothing listening, where the server comes up later.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		p, err := embed.New("ollama:fake-embed", embed.Options{BaseURL: "http://" + addr, Retries: -1, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		e := openEmbedding(t, copyVaultForEmbed(t), filepath.Join(t.TempDir(), "index.db"), p, shortRetry)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Open took %v with the embedding server down, want no wait", d)
		}
		st := waitStatus(t, e, "an error", func(s *Status) bool { return strings.HasPrefix(s.Embedding, "error:") })
		if !strings.Contains(st.Embedding, "embedding server unavailable") || !strings.Contains(st.Embedding, "is Ollama running") || st.Embeddings != 0 || st.EmbeddingModel != "ollama:fake-embed" {
			t.Errorf("Status with the server down = %q, model %q, coverage %v; want error: ... embedding server unavailable ... is Ollama running, ollama:fake-embed, 0", st.Embedding, st.EmbeddingModel, st.Embeddings)
		}
		wctx, cancel := context.WithTimeout(ctx, embedWait)
		err = e.WaitEmbeddings(wctx)
		cancel()
		if !errors.Is(err, errNoVectors) || !strings.Contains(err.Error(), "embedding server unavailable") {
			t.Errorf("WaitEmbeddings with the server down = %v, want no embeddings: the provider's error", err)
		}
		checkKeywordFallback(t, e, "server down")

		srv := newFakeEmbedServer(t, false, addr)
		waitStatus(t, e, "ready", func(s *Status) bool { return s.Embedding == "ready" })
		waitEmbeddings(t, e)
		st, _ = e.Status(ctx)
		if st.Embedding != "ready" || st.Embeddings != 1 {
			t.Errorf("Status after the server came back = %q, coverage %v; want ready, 1", st.Embedding, st.Embeddings)
		}
		hits, warnings := mustSearch(t, e, SearchQuery{Query: "budget risk"})
		if len(warnings) != 0 || len(hits) == 0 || hits[0].ID != "Projects/Alpha Plan.md" || hits[0].KeywordRank != 1 || hits[0].VectorRank == 0 {
			t.Errorf("Search(budget risk) after the server came back = %+v, %q; want Projects/Alpha Plan.md first in both searches, no warning", hits, warnings)
		}

		// Down again once the vectors exist: queries cannot be embedded.
		srv.setStatus(http.StatusServiceUnavailable)
		checkKeywordFallback(t, e, "server down after the vectors were made")
	})

	for _, openai := range []bool{false, true} {
		name := "503 during the embedding, ollama"
		if openai {
			name = "503 during the embedding, openai"
		}
		t.Run(name, func(t *testing.T) {
			srv := newFakeEmbedServer(t, openai, "")
			p := srv.embedder(t, "fake-embed")
			if _, err := p.Embed(ctx, []string{"dimension"}); err != nil { // the model's dimension is known
				t.Fatal(err)
			}
			srv.setStatus(http.StatusServiceUnavailable)
			e := openEmbedding(t, copyVaultForEmbed(t), filepath.Join(t.TempDir(), "index.db"), p, shortRetry)
			st := waitStatus(t, e, "an error", func(s *Status) bool { return strings.HasPrefix(s.Embedding, "error:") })
			if !strings.Contains(st.Embedding, "HTTP 503") || !strings.Contains(st.Embedding, "model is loading") || st.Embeddings != 0 {
				t.Errorf("Status with 503s = %q, coverage %v; want error: ... HTTP 503: model is loading, 0", st.Embedding, st.Embeddings)
			}
			checkKeywordFallback(t, e, "503")
			srv.setStatus(0)
			waitStatus(t, e, "ready", func(s *Status) bool { return s.Embedding == "ready" })
			waitEmbeddings(t, e)
			if st, _ := e.Status(ctx); st.Embedding != "ready" || st.Embeddings != 1 || st.EmbeddingModel != p.Model() {
				t.Errorf("Status after the 503s = %q, coverage %v, model %q; want ready, 1, %s", st.Embedding, st.Embeddings, st.EmbeddingModel, p.Model())
			}
			if got, want := vectorModels(t, e), map[string]int{fmt.Sprintf("%s/%d", p.Model(), fakeDim): e.noteCountForTest()}; !maps.Equal(got, want) {
				t.Errorf("VectorModels = %v, want %v", got, want)
			}
		})
	}
}

func (e *Engine) noteCountForTest() int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.notes)
}

// TestEmbedSwitchWhileProviderDown: builtin vectors in the index and the
// new model's server down at start: semantic search still answers from
// the builtin vectors.
func TestEmbedSwitchWhileProviderDown(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	a := openEmbedding(t, dir, index, embed.NewBuiltin(), shortRetry)
	waitEmbeddings(t, a)
	q := SearchQuery{Query: "archived first draft", Mode: SearchSemantic}
	want, _ := mustSearch(t, a, q)
	a.Close()

	srv := newFakeEmbedServer(t, false, "")
	srv.setStatus(http.StatusServiceUnavailable)
	b := openEmbedding(t, dir, index, srv.embedder(t, "fake-embed"), shortRetry)
	waitStatus(t, b, "an error", func(s *Status) bool { return strings.HasPrefix(s.Embedding, "error:") })
	hits, warnings := mustSearch(t, b, q)
	if !slices.Equal(hits, want) {
		t.Errorf("Search(%q, semantic) with the new model's server down = %q, %q; want the builtin answer %q", q.Query, searchIDs(hits), warnings, searchIDs(want))
	}
}

// TestEmbedProviderDownSearchLatency: with the provider's default retries
// and its server down, once a search has found that out the next ones
// answer (by keyword) at once rather than after the retries' backoff.
func TestEmbedProviderDownSearchLatency(t *testing.T) {
	srv := newFakeEmbedServer(t, false, "")
	p, err := embed.New("ollama:fake-embed", embed.Options{BaseURL: srv.URL}) // default retries, as serve and the CLI
	if err != nil {
		t.Fatal(err)
	}
	e := openEmbedding(t, copyVaultForEmbed(t), filepath.Join(t.TempDir(), "index.db"), p, shortRetry)
	waitEmbeddings(t, e)
	srv.setStatus(http.StatusServiceUnavailable)
	// The first search finds out (it waits for the retries); the next
	// ones do not wait.
	mustSearch(t, e, SearchQuery{Query: "budget"})
	start := time.Now()
	hits, warnings := mustSearch(t, e, SearchQuery{Query: "budget risk"})
	if d := time.Since(start); d > time.Second || len(hits) == 0 || len(warnings) == 0 {
		t.Errorf("Search(budget risk) with the server down took %v (%q, %q), want keyword results within 1s", d, searchIDs(hits), warnings)
	}
}

// TestEmbedServerGoneOldVectors: with builtin vectors in the index and
// the new model's server gone (an HTTP server closed) at start, semantic
// search answers from the builtin vectors and says so.
func TestEmbedServerGoneOldVectors(t *testing.T) {
	dir := copyVaultForEmbed(t)
	index := filepath.Join(t.TempDir(), "index.db")
	a := openEmbedding(t, dir, index, embed.NewBuiltin(), shortRetry)
	waitEmbeddings(t, a)
	st, _ := a.Status(context.Background())
	semantic := SearchQuery{Query: "archived first draft", Mode: SearchSemantic}
	want, _ := mustSearch(t, a, semantic)
	a.Close()

	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	p, err := embed.New("ollama:fake-embed", embed.Options{BaseURL: url, Retries: -1, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	b := openEmbedding(t, dir, index, p, shortRetry)
	waitStatus(t, b, "an error", func(s *Status) bool { return strings.HasPrefix(s.Embedding, "error:") })
	for _, q := range []SearchQuery{semantic, {Query: "archived first draft", Mode: SearchHybrid}} {
		hits, warnings := mustSearch(t, b, q)
		if len(hits) == 0 || hits[0].VectorRank != 1 || q.Mode == SearchSemantic && !slices.Equal(hits, want) {
			t.Errorf("Search(%q, %s) with the model's server gone = %+v, want the builtin vectors' answer %+v", q.Query, q.Mode, hits, want)
		}
		ok := slices.ContainsFunc(warnings, func(w string) bool {
			return strings.HasPrefix(w, "embedding model ollama:fake-embed is unavailable (") && strings.Contains(w, "embedding server unavailable") &&
				strings.HasSuffix(w, fmt.Sprintf("): semantic results come from the vectors of %s stored before (%d notes)", embed.BuiltinModel, st.Notes))
		})
		if !ok {
			t.Errorf("Search(%q, %s) with the model's server gone warnings = %q, want one saying ollama:fake-embed is unavailable and the %s vectors answer",
				q.Query, q.Mode, warnings, embed.BuiltinModel)
		}
	}
}
