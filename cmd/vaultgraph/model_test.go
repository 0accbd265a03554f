package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/embed"
)

// TestModelPull downloads a tiny model2vec model (testdata/model2vec-synth,
// written in the real formats) from a local server standing in for
// Hugging Face, and checks the cached copy loads.
func TestModelPull(t *testing.T) {
	src := filepath.Join("testdata", "model2vec-synth")
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		name, ok := strings.CutPrefix(r.URL.Path, "/test/synth/resolve/main/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(src, filepath.Base(name)))
	}))
	defer srv.Close()
	t.Setenv(embed.EnvHubEndpoint, srv.URL)
	cache := t.TempDir()
	out, errOut, code := runCLI(t, "model", "pull", "test/synth", "--cache", cache)
	if code != 0 {
		t.Fatalf("model pull: exit %d: %s (server saw %v)", code, errOut, asked)
	}
	dir := strings.TrimSpace(out)
	if !strings.HasPrefix(dir, cache) {
		t.Fatalf("model pull printed %q, want a folder in %s", dir, cache)
	}
	for _, f := range []string{"model.safetensors", "tokenizer.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not downloaded: %v", f, err)
		}
	}
	m, err := embed.LoadModel2Vec(dir)
	if err != nil {
		t.Fatalf("the pulled model does not load: %v", err)
	}
	if m.Dimension() != 4 {
		t.Errorf("dimension = %d, want 4", m.Dimension())
	}
	// A bad name is INVALID_PARAMS, and nothing is asked of the server.
	if _, errOut, code := runCLI(t, "model", "pull", "../etc", "--cache", cache); code != 1 || !strings.Contains(errOut, "INVALID_PARAMS") {
		t.Errorf("model pull ../etc: exit %d, %s", code, errOut)
	}
}
