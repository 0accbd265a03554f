package mcp

// The search tool and vault_status on an Engine with an embedding model:
// the builtin one, and Ollama and OpenAI-compatible servers over real HTTP
// (httptest), through mcp-go's in-process client.

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// embedServer is a testutil.EmbedServer serving the model fake-embed.
type embedServer struct{ *testutil.EmbedServer }

func newEmbedServer(t *testing.T, openai bool) *embedServer {
	t.Helper()
	return &embedServer{testutil.NewEmbedServer(t, openai, "fake-embed")}
}

// embedder returns the embed.New provider for this server.
func (s *embedServer) embedder(t *testing.T) embed.Embedder {
	t.Helper()
	spec, base := "ollama:fake-embed", s.URL
	if s.OpenAI {
		spec, base = "openai:fake-embed", s.URL+"/v1"
	}
	p, err := embed.New(spec, embed.Options{BaseURL: base, Retries: -1, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("embed.New(%s) = %v", spec, err)
	}
	return p
}

// newEmbeddingServer serves a copy of testvault with p as the Engine's
// embedder, through the server NewServer builds (search registered), and
// connects a client to it.
func newEmbeddingServer(t *testing.T, p embed.Embedder) *testServer {
	t.Helper()
	ctx := context.Background()
	ts := &testServer{dir: copyTestVault(t), logs: &syncBuffer{}}
	ts.engine = vaultgraph.New(vaultgraph.Options{Vault: ts.dir, Index: filepath.Join(t.TempDir(), "index.db"), Embedder: p})
	if err := ts.engine.Open(ctx); err != nil {
		t.Fatalf("Open(%s) = %v", ts.dir, err)
	}
	t.Cleanup(func() { _ = ts.engine.Close() })
	log := slog.New(slog.NewTextHandler(ts.logs, nil))
	ts.server = NewServer(&Tools{Engine: ts.engine, Rand: rand.New(rand.NewPCG(1, 2))}, ServerOptions{Version: "test", Logger: log})
	c, err := client.NewInProcessClient(ts.server)
	if err != nil {
		t.Fatal(err)
	}
	ts.client = c
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatalf("client Start = %v", err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ClientInfo = mcpgo.Implementation{Name: "vaultgraph-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("Initialize = %v", err)
	}
	return ts
}

// checkRows checks a JSON search answer's rows: scores 0-1, best first,
// each with a snippet.
func checkRows(t *testing.T, args map[string]any, m map[string]any) {
	t.Helper()
	last := 2.0
	for i, n := range asSlice(m["nodes"]) {
		row, _ := n.(map[string]any)
		score, ok := row["score"].(float64)
		if !ok || score < 0 || score > 1 || score > last {
			t.Errorf("search(%v) row %d score %v, want 0-1 and not above %v", args, i, row["score"], last)
		}
		last = score
		if snip, _ := row["snippet"].(string); strings.TrimSpace(snip) == "" || strings.Contains(snip, "\n") {
			t.Errorf("search(%v) row %d snippet %q, want one line of text", args, i, row["snippet"])
		}
	}
}

func TestSearchWithEmbeddings(t *testing.T) {
	providers := []struct {
		name string
		make func(t *testing.T) (embed.Embedder, *embedServer)
	}{
		{"builtin", func(t *testing.T) (embed.Embedder, *embedServer) { return embed.NewBuiltin(), nil }},
		{"ollama", func(t *testing.T) (embed.Embedder, *embedServer) {
			s := newEmbedServer(t, false)
			return s.embedder(t), s
		}},
		{"openai", func(t *testing.T) (embed.Embedder, *embedServer) {
			s := newEmbedServer(t, true)
			return s.embedder(t), s
		}},
	}
	for _, pr := range providers {
		t.Run(pr.name, func(t *testing.T) {
			p, srv := pr.make(t)
			ts := newEmbeddingServer(t, p)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if err := ts.engine.WaitEmbeddings(ctx); err != nil {
				t.Fatalf("WaitEmbeddings = %v", err)
			}

			st := decode(t, mustStatus(t, ts))
			if st["embeddingCoverage"] != 1.0 || st["embeddingModel"] != p.Model() || st["embedding"] != "ready" {
				t.Errorf("vault_status embedding = coverage %v, model %v, %v; want 1, %s, ready", st["embeddingCoverage"], st["embeddingModel"], st["embedding"], p.Model())
			}
			if text, _ := ts.call(t, "vault_status", map[string]any{"format": "toon"}); !strings.Contains(text, "embeddingCoverage: 1\n") {
				t.Errorf("vault_status TOON lacks embeddingCoverage: 1:\n%s", text)
			}

			// Hybrid (the default): fused, scored 0-1, no warning.
			args := map[string]any{"query": "budget risk", "format": "json"}
			m := decode(t, mustCall(t, ts, args))
			if got := ids(m["nodes"]); len(got) == 0 || got[0] != "Projects/Alpha Plan.md" {
				t.Errorf("search(budget risk) = %q, want Projects/Alpha Plan.md first", got)
			}
			if m["warnings"] != nil {
				t.Errorf("search(budget risk) warnings = %v, want none", m["warnings"])
			}
			checkRows(t, args, m)
			if first, _ := asSlice(m["nodes"])[0].(map[string]any); !strings.Contains(first["snippet"].(string), "**Budget** **risk**") {
				t.Errorf("search(budget risk) first snippet = %q, want the matched words in bold", first["snippet"])
			}
			if pr.name == "builtin" {
				if first, _ := asSlice(m["nodes"])[0].(map[string]any); first["score"] != 1.0 {
					t.Errorf("search(budget risk) first score = %v, want 1 (first in both rankings)", first["score"])
				}
			}

			// Semantic: every note has vectors, so notes only the vectors
			// find come with the part of their best passage that has the
			// query's words. The builtin vectors find only notes similar
			// enough (none for words no note has, like quantum); the test servers' vectors
			// are all alike, so every note is found.
			for _, q := range []struct {
				query   string
				builtin int // notes builtin finds; others find 5
			}{{"archived first draft", 1}, {"quantum chromodynamics", 0}} {
				args := map[string]any{"query": q.query, "mode": "semantic", "format": "json", "limit": 5}
				m := decode(t, mustCall(t, ts, args))
				want := 5
				if pr.name == "builtin" {
					want = q.builtin
				}
				if got := ids(m["nodes"]); len(got) != want || (want < 5) != (m["total"] == float64(want)) {
					t.Errorf("search(%q, semantic, limit 5) = %q, total %v, want %d notes", q.query, got, m["total"], want)
				}
				for _, n := range asSlice(m["nodes"]) {
					row := n.(map[string]any)
					if q.query == "archived first draft" && row["id"] == "Archive/Alpha Plan.md" && !strings.Contains(row["snippet"].(string), "The **archived** **first** **draft**.") {
						t.Errorf("search(%q, semantic) snippet of %s = %q, want the query's words in bold", q.query, row["id"], row["snippet"])
					}
				}
				if m["warnings"] != nil {
					t.Errorf("search(%q, semantic) warnings = %v, want none", q.query, m["warnings"])
				}
				checkRows(t, args, m)
			}
			if pr.name == "builtin" {
				m := decode(t, mustCall(t, ts, map[string]any{"query": "archived first draft", "mode": "semantic", "format": "json"}))
				if got := ids(m["nodes"]); len(got) == 0 || got[0] != "Archive/Alpha Plan.md" {
					t.Errorf("search(archived first draft, semantic) = %q, want Archive/Alpha Plan.md first", got)
				}
			}

			// Every format.
			for _, f := range []struct{ format, start, has string }{
				{"toon", "nodes[", "{id,title,score,tags,snippet}:\n  Projects/Alpha Plan.md,Alpha Plan,"},
				{"markdown", "", "**Alpha Plan** Projects/Alpha Plan.md · score "},
				{"json", `{"nodes":[{"id":"Projects/Alpha Plan.md"`, `"score":`},
			} {
				text := mustCall(t, ts, map[string]any{"query": "budget risk", "format": f.format})
				if !strings.HasPrefix(text, f.start) || !strings.Contains(text, f.has) || strings.Contains(text, "unavailable") {
					t.Errorf("search(budget risk, %s) = %q, want it to start with %q and hold %q, no warning", f.format, text, f.start, f.has)
				}
			}

			if srv != nil {
				queries := strings.Join(srv.Queries(), "|")
				if !strings.Contains(queries, "budget risk") || !strings.Contains(queries, "archived first draft") {
					t.Errorf("the server embedded the queries %q, want the searches' queries", queries)
				}
			}
		})
	}
}

func mustStatus(t *testing.T, ts *testServer) string {
	t.Helper()
	text, isErr := ts.call(t, "vault_status", map[string]any{"format": "json", "detail": "full"})
	if isErr {
		t.Fatalf("vault_status = %s", text)
	}
	return text
}

// TestSearchProviderDown: with the embedding server failing, search
// answers by keyword with a warning and vault_status shows the error.
func TestSearchProviderDown(t *testing.T) {
	for _, openai := range []bool{false, true} {
		srv := newEmbedServer(t, openai)
		srv.Fail(http.StatusServiceUnavailable, `{"error":{"message":"overloaded"}}`)
		ts := newEmbeddingServer(t, srv.embedder(t))
		deadline := time.Now().Add(20 * time.Second)
		var st map[string]any
		for {
			st = decode(t, mustStatus(t, ts))
			if s, _ := st["embedding"].(string); strings.HasPrefix(s, "error:") || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if s, _ := st["embedding"].(string); !strings.HasPrefix(s, "error:") || !strings.Contains(s, "HTTP 503: overloaded") || st["embeddingCoverage"] != 0.0 {
			t.Errorf("vault_status with the server down: embedding %q, coverage %v; want error: ... HTTP 503: overloaded, 0", st["embedding"], st["embeddingCoverage"])
		}
		for _, mode := range []string{"hybrid", "semantic"} {
			args := map[string]any{"query": "cafe", "mode": mode, "format": "json"}
			m := decode(t, mustCall(t, ts, args))
			if got := ids(m["nodes"]); len(got) != 3 || got[0] != "Notes/Café Menu.md" {
				t.Errorf("search(cafe, %s) with the server down = %q, want the keyword answer", mode, got)
			}
			if w := strs(m["warnings"]); len(w) != 1 || !strings.HasPrefix(w[0], "vector search unavailable") || !strings.Contains(w[0], "HTTP 503") {
				t.Errorf("search(cafe, %s) warnings = %q, want vector search unavailable with the server's error", mode, w)
			}
			checkRows(t, args, m)
		}
	}
}
