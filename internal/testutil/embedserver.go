package testutil

import (
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
	"unicode"
)

// EmbedDim is the length of the vectors EmbedServer answers with.
const EmbedDim = 8

// EmbedServer is an embedding server over real HTTP speaking Ollama's
// /api/embed or, with OpenAI set, OpenAI's /v1/embeddings, answering with
// a deterministic embedding (answer). It records what it answers.
type EmbedServer struct {
	*httptest.Server
	// OpenAI chooses the wire format.
	OpenAI bool
	// Model, when set, is the only model served.
	Model string

	mu       sync.Mutex
	status   int           // non-zero: answer with this HTTP status
	failBody string        // and this body
	gate     chan struct{} // non-nil: hold requests until it is closed
	held     chan struct{} // told when a request is held
	texts    int           // embedded, the probe included
	models   []string      // the model of each request answered
	queries  []string      // the texts of one-text requests answered
	seen     struct{ models, texts, auth []string }
}

// NewEmbedServer starts an EmbedServer serving model (every model when
// empty); it is closed when the test ends.
func NewEmbedServer(t testing.TB, openai bool, model string) *EmbedServer {
	t.Helper()
	return NewEmbedServerAt(t, openai, model, "")
}

// NewEmbedServerAt is NewEmbedServer listening on addr ("": a free port).
func NewEmbedServerAt(t testing.TB, openai bool, model, addr string) *EmbedServer {
	t.Helper()
	s := &EmbedServer{OpenAI: openai, Model: model, held: make(chan struct{}, 1)}
	s.Server = httptest.NewUnstartedServer(s)
	if addr != "" {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("listen on %s again: %v", addr, err)
		}
		s.Server.Listener.Close()
		s.Server.Listener = l
	}
	s.Start()
	t.Cleanup(func() {
		s.Release()
		s.Close()
	})
	return s
}

// BaseURL is the base URL an embedding client is given.
func (s *EmbedServer) BaseURL() string {
	if s.OpenAI {
		return s.URL + "/v1"
	}
	return s.URL
}

// Fail makes every later request fail with the HTTP status code and the
// JSON body; a code of 0 makes the server answer again.
func (s *EmbedServer) Fail(code int, body string) {
	s.mu.Lock()
	s.status, s.failBody = code, body
	s.mu.Unlock()
}

// Hold holds every request but the dimension probe until Release.
func (s *EmbedServer) Hold() {
	s.mu.Lock()
	s.gate = make(chan struct{})
	s.mu.Unlock()
}

// Release lets held requests (and later ones) through.
func (s *EmbedServer) Release() {
	s.mu.Lock()
	if s.gate != nil {
		close(s.gate)
		s.gate = nil
	}
	s.mu.Unlock()
}

// Held is told (without blocking) when a request is held.
func (s *EmbedServer) Held() <-chan struct{} { return s.held }

// Counts returns the requests answered and the texts embedded so far.
func (s *EmbedServer) Counts() (requests, texts int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.models), s.texts
}

// Models returns the model of each request answered so far.
func (s *EmbedServer) Models() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.models)
}

// Queries returns the texts of the one-text requests answered so far.
func (s *EmbedServer) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

// Seen returns the distinct models asked for and Authorization headers
// sent, and the texts embedded, since the last call of Seen.
func (s *EmbedServer) Seen() (models, texts, auth []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	models = slices.Compact(slices.Sorted(slices.Values(s.seen.models)))
	auth = slices.Compact(slices.Sorted(slices.Values(s.seen.auth)))
	texts = s.seen.texts
	s.seen.models, s.seen.texts, s.seen.auth = nil, nil, nil
	return models, texts, auth
}

// ServeHTTP answers one embedding request. A request to another path is
// refused with 404 Not Found; one with no model, no text, or (when Model
// is set) another model, with 400 Bad Request.
func (s *EmbedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := "/api/embed"
	if s.OpenAI {
		path = "/v1/embeddings"
	}
	if r.Method != http.MethodPost || r.URL.Path != path {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	var body struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	data, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(data, &body); err != nil || body.Model == "" || len(body.Input) == 0 || (s.Model != "" && body.Model != s.Model) {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	status, failBody, gate := s.status, s.failBody, s.gate
	s.mu.Unlock()
	if status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, failBody)
		return
	}
	if gate != nil && !slices.Equal(body.Input, []string{"dimension"}) {
		select {
		case s.held <- struct{}{}:
		default:
		}
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	s.mu.Lock()
	s.texts += len(body.Input)
	s.models = append(s.models, body.Model)
	if len(body.Input) == 1 {
		s.queries = append(s.queries, body.Input[0])
	}
	s.seen.models = append(s.seen.models, body.Model)
	s.seen.texts = append(s.seen.texts, body.Input...)
	s.seen.auth = append(s.seen.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	s.answer(w, body.Model, body.Input)
}

// answer writes the vectors of texts (OpenAI's in reverse order, as its
// index fields allow): each lower-cased word adds 1 to the dimension its
// hash picks, and the last gets 0.1 so that none is the zero vector.
func (s *EmbedServer) answer(w http.ResponseWriter, model string, texts []string) {
	vecs := make([][]float32, len(texts))
	for i, text := range texts {
		vecs[i] = make([]float32, EmbedDim)
		for _, word := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
			h := fnv.New32a()
			h.Write([]byte(word))
			vecs[i][h.Sum32()%EmbedDim]++
		}
		vecs[i][EmbedDim-1] += 0.1
	}
	w.Header().Set("Content-Type", "application/json")
	if !s.OpenAI {
		json.NewEncoder(w).Encode(map[string]any{"model": model, "embeddings": vecs})
		return
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	items := make([]item, len(vecs))
	for i, v := range vecs {
		items[len(vecs)-1-i] = item{"embedding", i, v}
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": model, "data": items})
}
