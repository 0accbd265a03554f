package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer speaks the Ollama or OpenAI embeddings wire format over real
// HTTP. Each text's vector is [len(text), 1, 0] so tests can check order;
// script, if set, answers request number n (from 0) instead.
type fakeServer struct {
	t        *testing.T
	openai   bool
	mu       sync.Mutex
	requests []fakeRequest
	script   func(n int, w http.ResponseWriter, texts []string) bool // true: handled
}

type fakeRequest struct {
	path, auth string
	model      string
	texts      []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model          string   `json:"model"`
		Input          []string `json:"input"`
		EncodingFormat string   `json:"encoding_format"`
	}
	data, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(data, &body); err != nil {
		http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, fakeRequest{r.URL.Path, r.Header.Get("Authorization"), body.Model, body.Input})
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		f.t.Errorf("request %s with Content-Type %q", r.Method, r.Header.Get("Content-Type"))
	}
	if f.script != nil && f.script(n, w, body.Input) {
		return
	}
	writeVectors(w, f.openai, body.Input)
}

func writeVectors(w http.ResponseWriter, openai bool, texts []string) {
	vecs := make([][]float32, len(texts))
	for i, t := range texts {
		vecs[i] = []float32{float32(len(t)), 1, 0}
	}
	w.Header().Set("Content-Type", "application/json")
	if !openai {
		json.NewEncoder(w).Encode(map[string]any{"model": "m", "embeddings": vecs})
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Embedding []float32 `json:"embedding"`
		Index     int       `json:"index"`
	}
	items := make([]item, len(vecs))
	for i := range vecs { // answer in reverse order: the index must be used
		j := len(vecs) - 1 - i
		items[i] = item{"embedding", vecs[j], j}
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": items, "model": "m"})
}

func (f *fakeServer) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// newRemote starts a fake server and an embedder pointed at it whose
// retry waits are recorded instead of slept.
func newRemote(t *testing.T, openai bool, opts Options) (*fakeServer, *remote, *[]time.Duration) {
	t.Helper()
	f := &fakeServer{t: t, openai: openai}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	opts.BaseURL = srv.URL
	if openai {
		opts.BaseURL += "/v1"
	}
	spec := "ollama:nomic-embed-text"
	if openai {
		spec = "openai:text-embedding-3-small"
	}
	e, err := New(spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := e.(*remote)
	var mu sync.Mutex
	waits := &[]time.Duration{}
	r.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return ctx.Err()
	}
	return f, r, waits
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Repeat("x", i+1)
	}
	return out
}

// checkVectors checks the vector of text i is [i+1, 1, 0] normalised.
func checkVectors(t *testing.T, vecs [][]float32, n int) {
	t.Helper()
	if len(vecs) != n {
		t.Fatalf("got %d vectors, want %d", len(vecs), n)
	}
	for i, v := range vecs {
		want := Normalize([]float32{float32(i + 1), 1, 0})
		for j := range want {
			if d := v[j] - want[j]; d > 1e-6 || d < -1e-6 {
				t.Fatalf("vector %d = %v, want %v", i, v, want)
			}
		}
	}
}

func TestRemoteBatching(t *testing.T) {
	for _, openai := range []bool{false, true} {
		t.Run(fmt.Sprint("openai=", openai), func(t *testing.T) {
			f, e, _ := newRemote(t, openai, Options{BatchSize: 4, APIKey: "sekret"})
			if e.Dimension() != 0 {
				t.Errorf("Dimension before any answer = %d, want 0", e.Dimension())
			}
			vecs, err := e.Embed(context.Background(), texts(10))
			if err != nil {
				t.Fatal(err)
			}
			checkVectors(t, vecs, 10)
			if e.Dimension() != 3 {
				t.Errorf("Dimension = %d, want 3", e.Dimension())
			}
			var sizes []int
			for _, r := range f.requests {
				sizes = append(sizes, len(r.texts))
				wantPath := "/api/embed"
				if openai {
					wantPath = "/v1/embeddings"
				}
				if r.path != wantPath || r.auth != "Bearer sekret" {
					t.Errorf("request to %s with Authorization %q, want %s and the key", r.path, r.auth, wantPath)
				}
			}
			if fmt.Sprint(sizes) != "[4 4 2]" {
				t.Errorf("batch sizes = %v, want [4 4 2]", sizes)
			}
			if got, _ := e.Embed(context.Background(), nil); len(got) != 0 || f.count() != 3 {
				t.Errorf("Embed(nil) = %v and made a request", got)
			}
		})
	}
}

func TestRemoteModelNames(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"ollama:nomic-embed-text", "ollama:nomic-embed-text"},
		{"ollama", "ollama:nomic-embed-text"},
		{"OpenAI:text-embedding-3-large", "openai:text-embedding-3-large"},
		{"openai", "openai:text-embedding-3-small"},
	}
	for _, tt := range tests {
		e, err := New(tt.spec, Options{})
		if err != nil {
			t.Fatalf("New(%q): %v", tt.spec, err)
		}
		if e.Model() != tt.want {
			t.Errorf("New(%q).Model() = %q, want %q", tt.spec, e.Model(), tt.want)
		}
	}
}

func TestRemoteRetry503(t *testing.T) {
	for _, openai := range []bool{false, true} {
		f, e, waits := newRemote(t, openai, Options{})
		f.script = func(n int, w http.ResponseWriter, _ []string) bool {
			if n < 2 {
				http.Error(w, `{"error":"loading model"}`, http.StatusServiceUnavailable)
				return true
			}
			return false
		}
		vecs, err := e.Embed(context.Background(), texts(3))
		if err != nil {
			t.Fatal(err)
		}
		checkVectors(t, vecs, 3)
		if f.count() != 3 || len(*waits) != 2 {
			t.Fatalf("%d requests, %d waits, want 3 and 2", f.count(), len(*waits))
		}
		// Exponential backoff with jitter: [0.25s, 0.5s], then [0.5s, 1s].
		if w := (*waits)[0]; w < 250*time.Millisecond || w > 500*time.Millisecond {
			t.Errorf("first wait = %v", w)
		}
		if w := (*waits)[1]; w < 500*time.Millisecond || w > time.Second {
			t.Errorf("second wait = %v", w)
		}
	}
}

func TestRemote429RetryAfter(t *testing.T) {
	f, e, waits := newRemote(t, true, Options{})
	f.script = func(n int, w http.ResponseWriter, _ []string) bool {
		if n == 0 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"Rate limit reached","type":"requests"}}`)
			return true
		}
		return false
	}
	if _, err := e.Embed(context.Background(), texts(2)); err != nil {
		t.Fatal(err)
	}
	if len(*waits) != 1 || (*waits)[0] != 7*time.Second {
		t.Errorf("waits = %v, want [7s] from Retry-After", *waits)
	}
}

func TestRemoteRetryAfterReal(t *testing.T) {
	// One real wait, to show the default sleeper honours Retry-After.
	f, e, _ := newRemote(t, false, Options{})
	e.sleep = nil
	f.script = func(n int, w http.ResponseWriter, _ []string) bool {
		if n == 0 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		}
		return false
	}
	start := time.Now()
	if _, err := e.Embed(context.Background(), texts(1)); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("answered after %v, before the Retry-After of 1s", d)
	}
}

func TestRemoteErrors(t *testing.T) {
	tests := []struct {
		desc     string
		openai   bool
		script   func(n int, w http.ResponseWriter, texts []string) bool
		wantErr  error
		wantReqs int
		wantMsg  string
	}{
		{
			desc:   "401 is not retried",
			openai: true,
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				w.WriteHeader(http.StatusUnauthorized)
				io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
				return true
			},
			wantErr: ErrRejected, wantReqs: 1, wantMsg: "Incorrect API key provided",
		},
		{
			desc: "unknown model (404) is not retried",
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"error":"model \"nomic-embed-text\" not found, try pulling it first"}`)
				return true
			},
			wantErr: ErrRejected, wantReqs: 1, wantMsg: "try pulling it first",
		},
		{
			desc: "500 forever ends unavailable",
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				w.WriteHeader(http.StatusInternalServerError)
				return true
			},
			wantErr: ErrUnavailable, wantReqs: 4, wantMsg: "after 4 attempts",
		},
		{
			desc: "malformed JSON",
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				io.WriteString(w, `{"embeddings": [[1, 2`)
				return true
			},
			wantErr: ErrBadResponse, wantReqs: 1, wantMsg: "malformed JSON",
		},
		{
			desc:   "wrong count",
			openai: true,
			script: func(_ int, w http.ResponseWriter, texts []string) bool {
				writeVectors(w, true, texts[1:])
				return true
			},
			wantErr: ErrBadResponse, wantReqs: 1, wantMsg: "2 vectors for 3 texts",
		},
		{
			desc: "ragged dimensions",
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				io.WriteString(w, `{"embeddings": [[1, 2], [1, 2, 3], [1]]}`)
				return true
			},
			wantErr: ErrBadResponse, wantReqs: 1,
		},
		{
			desc:   "repeated index",
			openai: true,
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				io.WriteString(w, `{"data": [{"embedding":[1],"index":0},{"embedding":[1],"index":0},{"embedding":[1],"index":1}]}`)
				return true
			},
			wantErr: ErrBadResponse, wantReqs: 1,
		},
		{
			desc: "empty vector",
			script: func(_ int, w http.ResponseWriter, _ []string) bool {
				io.WriteString(w, `{"embeddings": [[], [], []]}`)
				return true
			},
			wantErr: ErrBadResponse, wantReqs: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			f, e, _ := newRemote(t, tt.openai, Options{})
			f.script = tt.script
			_, err := e.Embed(context.Background(), texts(3))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Embed error = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not say %q", err, tt.wantMsg)
			}
			if f.count() != tt.wantReqs {
				t.Errorf("%d requests, want %d", f.count(), tt.wantReqs)
			}
		})
	}
}

func TestRemoteDimensionChange(t *testing.T) {
	f, e, _ := newRemote(t, false, Options{})
	if _, err := e.Embed(context.Background(), texts(1)); err != nil {
		t.Fatal(err)
	}
	f.script = func(_ int, w http.ResponseWriter, _ []string) bool {
		io.WriteString(w, `{"embeddings": [[1, 2, 3, 4]]}`)
		return true
	}
	if _, err := e.Embed(context.Background(), texts(1)); !errors.Is(err, ErrBadResponse) {
		t.Errorf("Embed after a dimension change = %v, want ErrBadResponse", err)
	}
}

func TestRemoteServerDown(t *testing.T) {
	// A port nobody listens on: connection refused.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, spec := range []string{"ollama:nomic-embed-text", "openai:m"} {
		e, err := New(spec, Options{BaseURL: "http://" + addr, Retries: 2})
		if err != nil {
			t.Fatal(err)
		}
		r := e.(*remote)
		waits := 0
		r.sleep = func(context.Context, time.Duration) error { waits++; return nil }
		_, err = e.Embed(context.Background(), []string{"hello"})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("%s: Embed error = %v, want ErrUnavailable", spec, err)
		}
		if waits != 2 || !strings.Contains(err.Error(), "after 3 attempts") {
			t.Errorf("%s: %d waits, error %q", spec, waits, err)
		}
		t.Log(err)
	}
}

func TestRemoteTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	e, _ := New("ollama:m", Options{BaseURL: srv.URL, Timeout: 50 * time.Millisecond, Retries: -1})
	start := time.Now()
	_, err := e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Embed error = %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timed out after %v", d)
	}
}

func TestRemoteCancel(t *testing.T) {
	f, e, _ := newRemote(t, false, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	f.script = func(_ int, w http.ResponseWriter, _ []string) bool {
		cancel()
		w.WriteHeader(http.StatusServiceUnavailable)
		return true
	}
	_, err := e.Embed(ctx, texts(1))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Embed error = %v, want context.Canceled", err)
	}
	if f.count() != 1 {
		t.Errorf("%d requests after cancel, want 1", f.count())
	}
}

func TestRemoteEnv(t *testing.T) {
	f := &fakeServer{t: t, openai: true}
	srv := httptest.NewServer(f)
	defer srv.Close()
	t.Setenv(EnvEmbedURL, srv.URL+"/v1/")
	t.Setenv(EnvEmbedKey, "")
	t.Setenv(EnvOpenAIKey, "from-openai-env")
	e, _ := New("openai:m", Options{})
	if _, err := e.Embed(context.Background(), texts(1)); err != nil {
		t.Fatal(err)
	}
	if r := f.requests[0]; r.path != "/v1/embeddings" || r.auth != "Bearer from-openai-env" || r.model != "m" {
		t.Errorf("request = %+v", r)
	}
	// VAULTGRAPH_EMBED_KEY wins; Ollama never gets OPENAI_API_KEY.
	t.Setenv(EnvEmbedKey, "vg")
	e, _ = New("openai:m", Options{})
	e.Embed(context.Background(), texts(1))
	if r := f.requests[1]; r.auth != "Bearer vg" {
		t.Errorf("Authorization = %q, want Bearer vg", r.auth)
	}
	t.Setenv(EnvEmbedKey, "")
	if o := newHTTPEmbedder("ollama", "m", Options{}); o.cfg.APIKey != "" {
		t.Errorf("ollama key = %q, want none", o.cfg.APIKey)
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		give string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"-1", 0},
		{"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.give, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tt.give, got, tt.want)
		}
	}
}
