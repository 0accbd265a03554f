package main

// search, index and vault-status with --embed and --embed-url against
// Ollama and OpenAI-compatible servers over real HTTP (httptest).

import (
	"context"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// runEmbedCLI is runCLI with buffers safe for concurrent writers
// (serve_test.go): the engine's background embedder logs to stderr while
// the command runs.
func runEmbedCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runEmbedCLIWith(t, runOptions{}, args...)
}

// runEmbedCLIWith is runEmbedCLI with o in place of the defaults.
func runEmbedCLIWith(t *testing.T, o runOptions, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut lockedBuffer
	code = runWith(context.Background(), args, o, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestSearchEmbedFlags(t *testing.T) {
	t.Setenv("VAULTGRAPH_EMBED_URL", "")
	t.Setenv("VAULTGRAPH_EMBED_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	for _, openai := range []bool{false, true} {
		kind := "ollama"
		if openai {
			kind = "openai"
		}
		t.Run(kind, func(t *testing.T) {
			srv := testutil.NewEmbedServer(t, openai, "")
			vault := testVault(t)
			index := filepath.Join(t.TempDir(), "index.db")
			search := func(args ...string) searchAnswer {
				t.Helper()
				args = append([]string{"search", "--vault", vault, "--index", index, "--format", "json"}, args...)
				out, errOut, code := runEmbedCLI(t, args...)
				if code != 0 {
					t.Fatalf("%q = exit %d, stderr %q", args, code, errOut)
				}
				return decode[searchAnswer](t, out)
			}
			embedArgs := []string{"--embed", kind + ":nomic-test", "--embed-url", srv.BaseURL()}

			// The first search embeds every note, then the query.
			a := search(append([]string{"budget", "risk"}, embedArgs...)...)
			if got := a.ids(); len(got) == 0 || got[0] != "Projects/Alpha Plan.md" {
				t.Errorf("search budget risk --embed %s = %q, want Projects/Alpha Plan.md first", kind, got)
			}
			if len(a.Warnings) != 0 {
				t.Errorf("search budget risk --embed %s warnings = %q, want none", kind, a.Warnings)
			}
			for i, n := range a.Nodes {
				if n.Score == nil || *n.Score < 0 || *n.Score > 1 || n.Snippet == "" || (i > 0 && *n.Score > *a.Nodes[i-1].Score) {
					t.Errorf("search budget risk row %d = %+v, want a score in 0-1, best first, and a snippet", i, n)
				}
			}
			models, texts, auth := srv.Seen()
			if !slices.Equal(models, []string{"nomic-test"}) || !slices.Equal(auth, []string{""}) {
				t.Errorf("the server was asked for models %q with Authorization %q, want nomic-test and none", models, auth)
			}
			if len(texts) < 13 || texts[len(texts)-1] != "budget risk" {
				t.Errorf("the server embedded %d texts ending %q, want the probe, every note's chunks, then the query", len(texts), texts[len(texts)-1:])
			}

			// Semantic: vectors only, from the server.
			a = search(append([]string{"archived", "draft", "--mode", "semantic", "--limit", "3"}, embedArgs...)...)
			if len(a.Nodes) != 3 || len(a.Warnings) != 0 {
				t.Errorf("search --mode semantic --limit 3 = %q, %q; want 3 notes, no warning", a.ids(), a.Warnings)
			}
			// The vectors are stored: the next search embeds the probe and
			// the query only.
			if _, texts, _ := srv.Seen(); !slices.Equal(texts, []string{"dimension", "archived draft"}) {
				t.Errorf("the second search embedded %q, want the dimension probe and the query", texts)
			}

			// --embed none: keyword only, no request.
			keyword := search("budget", "risk", "--embed", "none", "--mode", "keyword")
			if len(keyword.Warnings) != 0 || len(keyword.Nodes) == 0 {
				t.Errorf("search --embed none --mode keyword = %q, %q; want notes, no warning", keyword.ids(), keyword.Warnings)
			}
			a = search("budget", "risk", "--embed", "none")
			if got := a.ids(); !slices.Equal(got, keyword.ids()) {
				t.Errorf("search budget risk --embed none = %q, want the keyword answer %q", got, keyword.ids())
			}
			if len(a.Warnings) != 1 || !strings.HasPrefix(a.Warnings[0], "vector search unavailable") || !strings.Contains(a.Warnings[0], "--embed") {
				t.Errorf("search --embed none warnings = %q, want vector search unavailable naming --embed", a.Warnings)
			}
			if _, texts, _ := srv.Seen(); len(texts) != 0 {
				t.Errorf("--embed none sent %q to the server, want nothing", texts)
			}

			// The base URL and the key from the environment.
			t.Setenv("VAULTGRAPH_EMBED_URL", srv.BaseURL())
			t.Setenv("VAULTGRAPH_EMBED_KEY", "sekret")
			a = search("budget", "risk", "--embed", kind+":nomic-test")
			if len(a.Warnings) != 0 || len(a.Nodes) == 0 {
				t.Errorf("search with $VAULTGRAPH_EMBED_URL = %q, %q; want notes, no warning", a.ids(), a.Warnings)
			}
			if _, texts, auth := srv.Seen(); len(texts) == 0 || !slices.Equal(auth, []string{"Bearer sekret"}) {
				t.Errorf("with $VAULTGRAPH_EMBED_URL and _KEY the server got %q with Authorization %q, want the query with Bearer sekret", texts, auth)
			}
		})
	}
}

func TestSearchEmbedInvalid(t *testing.T) {
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	for _, give := range [][]string{
		{"search", "x", "--embed", "bogus:x"},
		{"search", "x", "--embed", "builtin:big"},
		{"index", "--embed", "bogus:x"},
		{"serve", "--embed", "bogus:x"},
	} {
		args := append(give, "--vault", vault, "--index", index)
		out, errOut, code := runEmbedCLI(t, args...)
		if code != 1 || out != "" || !strings.HasPrefix(errOut, "vaultgraph: INVALID_PARAMS: ") || !strings.Contains(errOut, "--embed") {
			t.Errorf("%q = exit %d, stdout %q, stderr %q; want 1, nothing, INVALID_PARAMS naming --embed", give, code, out, errOut)
		}
	}
}

// TestSearchEmbedServerDown: with nothing listening at --embed-url the
// search still answers by keyword, with a warning; index fails.
func TestSearchEmbedServerDown(t *testing.T) {
	t.Setenv("VAULTGRAPH_EMBED_URL", "")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")

	out, errOut, code := runEmbedCLI(t, "search", "budget", "risk", "--vault", vault, "--index", index, "--format", "json", "--embed", "ollama:nomic-test", "--embed-url", url)
	if code != 0 {
		t.Fatalf("search with the server down = exit %d, stderr %q", code, errOut)
	}
	a := decode[searchAnswer](t, out)
	if got, want := a.ids(), []string{"Projects/Alpha Plan.md", "Projects/Beta.md"}; !slices.Equal(got, want) {
		t.Errorf("search with the server down = %q, want the keyword answer %q", got, want)
	}
	if len(a.Warnings) != 1 || !strings.HasPrefix(a.Warnings[0], "vector search unavailable") || !strings.Contains(a.Warnings[0], "is Ollama running") {
		t.Errorf("search with the server down warnings = %q, want vector search unavailable, is Ollama running", a.Warnings)
	}
	if !strings.Contains(errOut, "embeddings incomplete") {
		t.Errorf("search with the server down stderr = %q, want a warning that embeddings are incomplete", errOut)
	}

	out, errOut, code = runEmbedCLI(t, "index", "--vault", vault, "--index", index, "--embed", "ollama:nomic-test", "--embed-url", url)
	if code != 1 || out != "" || !strings.Contains(errOut, "vaultgraph: PROVIDER_ERROR: ") || !strings.Contains(errOut, "embedding server unavailable") {
		t.Errorf("index with the server down = exit %d, stdout %q, stderr %q; want 1, nothing, PROVIDER_ERROR: ... embedding server unavailable", code, out, errOut)
	}
}

// TestNoEmbedFlagNoEmbedding: commands without --embed (get-node,
// vault-status, update-node, ...) make no vectors, whatever
// $VAULTGRAPH_EMBED says.
func TestNoEmbedFlagNoEmbedding(t *testing.T) {
	srv := testutil.NewEmbedServer(t, false, "")
	t.Setenv(EnvEmbed, "ollama:nomic-test")
	t.Setenv("VAULTGRAPH_EMBED_URL", srv.BaseURL())
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	for _, give := range [][]string{
		{"get-node", "Home"},
		{"list-tags"},
		{"vault-status"},
	} {
		out, errOut, code := runEmbedCLI(t, append(give, "--vault", vault, "--index", index)...)
		if code != 0 || out == "" || errOut != "" {
			t.Errorf("%q = exit %d, stderr %q; want 0, an answer, nothing on stderr", give, code, errOut)
		}
		if _, texts, _ := srv.Seen(); len(texts) != 0 {
			t.Errorf("%q sent %d texts to the embedding server, want none (the command has no --embed)", give, len(texts))
		}
	}
}

// TestSearchKeepsOtherVectors: a plain search (builtin) on a vault whose
// vectors another model made (index --embed ollama:...) leaves them in the
// index and names the flag to use them.
func TestSearchKeepsOtherVectors(t *testing.T) {
	t.Setenv(EnvEmbed, "")
	t.Setenv("VAULTGRAPH_EMBED_URL", "")
	srv := testutil.NewEmbedServer(t, false, "")
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	base := []string{"--vault", vault, "--index", index}
	embedArgs := []string{"--embed", "ollama:fake", "--embed-url", srv.BaseURL()}
	if out, errOut, code := runEmbedCLI(t, append(append([]string{"index"}, base...), embedArgs...)...); code != 0 {
		t.Fatalf("index --embed ollama:fake = exit %d, %q, stderr %q", code, out, errOut)
	}
	srv.Seen()

	out, errOut, code := runEmbedCLI(t, append([]string{"search", "plan", "--format", "json"}, base...)...)
	if code != 0 {
		t.Fatalf("search plan = exit %d, stderr %q", code, errOut)
	}
	a := decode[searchAnswer](t, out)
	want := "pass --embed ollama:fake to search with them"
	if !slices.ContainsFunc(a.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "the index also holds vectors of ollama:fake (") && strings.HasSuffix(w, want)
	}) {
		t.Errorf("search plan (builtin) warnings = %q, want one naming ollama:fake and ending %q", a.Warnings, want)
	}
	if _, texts, _ := srv.Seen(); len(texts) != 0 {
		t.Errorf("search plan (builtin) sent %q to the ollama server, want nothing", texts)
	}

	// The ollama vectors are still there: only the probe and the query
	// are embedded, and no warning.
	out, errOut, code = runEmbedCLI(t, append(append([]string{"search", "plan", "--format", "json"}, base...), embedArgs...)...)
	if code != 0 {
		t.Fatalf("search plan --embed ollama:fake = exit %d, stderr %q", code, errOut)
	}
	if a := decode[searchAnswer](t, out); len(a.Warnings) != 0 || len(a.Nodes) == 0 {
		t.Errorf("search plan --embed ollama:fake = %q, warnings %q; want notes, no warning", a.ids(), a.Warnings)
	}
	if _, texts, _ := srv.Seen(); !slices.Equal(texts, []string{"dimension", "plan"}) {
		t.Errorf("search plan --embed ollama:fake after a builtin search embedded %q, want the probe and the query: the vectors were kept", texts)
	}
}

// TestSearchEmbedWaitBounded: when the vectors take longer than
// oneShotEmbedWait to make, search answers (here by keyword: none is
// made) and says so, rather than waiting for them all.
func TestSearchEmbedWaitBounded(t *testing.T) {
	t.Setenv("VAULTGRAPH_EMBED_URL", "")
	// Answers the dimension probe; holds every batch of notes.
	srv := testutil.NewEmbedServer(t, false, "")
	srv.Hold()
	vault := testVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	start := time.Now()
	out, errOut, code := runEmbedCLIWith(t, runOptions{embedWait: 200 * time.Millisecond}, "search", "budget", "risk", "--vault", vault, "--index", index, "--format", "json",
		"--embed", "ollama:slow", "--embed-url", srv.URL)
	if d := time.Since(start); code != 0 || d > 5*time.Second {
		t.Fatalf("search with a slow model = exit %d after %v, stderr %q; want an answer within 5s", code, d, errOut)
	}
	a := decode[searchAnswer](t, out)
	if got := a.ids(); len(got) == 0 || got[0] != "Projects/Alpha Plan.md" {
		t.Errorf("search with a slow model = %q, want the keyword answer", got)
	}
	if len(a.Warnings) != 1 || !strings.HasPrefix(a.Warnings[0], "vector search unavailable: no embeddings yet (embedding: 0 of ") {
		t.Errorf("search with a slow model warnings = %q, want vector search unavailable: no embeddings yet", a.Warnings)
	}
	if !strings.Contains(errOut, "embeddings incomplete: answering with the vectors made so far") {
		t.Errorf("search with a slow model stderr = %q, want a warning that it answers with the vectors made so far", errOut)
	}
}
