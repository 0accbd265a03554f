package testutil

import (
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// EmbedServer is an embedding server over real HTTP speaking Ollama's
// /api/embed or, with OpenAI set, OpenAI's /v1/embeddings. Each text's
// vector counts its words by hash in 8 dimensions. It records the model,
// texts and Authorization header of every request it answers.
type EmbedServer struct {
	*httptest.Server
	// OpenAI chooses the wire format.
	OpenAI bool
	// Model, when set, is the only model served: a request for another
	// model, like one to another path, is refused with 400 Bad Request.
	// When empty, every model is served and a request to another path is
	// refused with 404 Not Found.
	Model string

	mu      sync.Mutex
	status  int
	models  []string
	texts   []string
	auth    []string
	queries []string
}

// NewEmbedServer starts an EmbedServer serving model (every model when
// empty); it is closed when the test ends.
func NewEmbedServer(t testing.TB, openai bool, model string) *EmbedServer {
	t.Helper()
	s := &EmbedServer{OpenAI: openai, Model: model}
	s.Server = httptest.NewServer(s)
	t.Cleanup(s.Close)
	return s
}

// BaseURL is the base URL an embedding client is given.
func (s *EmbedServer) BaseURL() string {
	if s.OpenAI {
		return s.URL + "/v1"
	}
	return s.URL
}

// SetStatus makes every later request fail with the HTTP status code
// (0: answer again).
func (s *EmbedServer) SetStatus(code int) {
	s.mu.Lock()
	s.status = code
	s.mu.Unlock()
}

// Seen returns the distinct models asked for and Authorization headers
// sent, and the texts embedded, since the last call.
func (s *EmbedServer) Seen() (models, texts, auth []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	models = slices.Compact(slices.Sorted(slices.Values(s.models)))
	auth = slices.Compact(slices.Sorted(slices.Values(s.auth)))
	texts = s.texts
	s.models, s.texts, s.auth = nil, nil, nil
	return models, texts, auth
}

// Queries returns the texts of the one-text requests answered so far.
func (s *EmbedServer) Queries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

// ServeHTTP answers one embedding request.
func (s *EmbedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := "/api/embed"
	if s.OpenAI {
		path = "/v1/embeddings"
	}
	var body struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	data, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || r.URL.Path != path || json.Unmarshal(data, &body) != nil || (s.Model != "" && body.Model != s.Model) {
		if s.Model != "" {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		} else {
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		}
		return
	}
	s.mu.Lock()
	status := s.status
	if status == 0 {
		s.models = append(s.models, body.Model)
		s.texts = append(s.texts, body.Input...)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		if len(body.Input) == 1 {
			s.queries = append(s.queries, body.Input[0])
		}
	}
	s.mu.Unlock()
	if status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, `{"error":{"message":"overloaded"}}`)
		return
	}
	s.answer(w, body.Model, body.Input)
}

// answer writes the vectors of texts in the server's wire format.
func (s *EmbedServer) answer(w http.ResponseWriter, model string, texts []string) {
	vecs := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, 8)
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%8]++
		}
		v[7] += 0.1
		vecs[i] = v
	}
	w.Header().Set("Content-Type", "application/json")
	if !s.OpenAI {
		json.NewEncoder(w).Encode(map[string]any{"model": model, "embeddings": vecs})
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	items := make([]item, len(vecs))
	for i, v := range vecs {
		items[i] = item{i, v}
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": items})
}
