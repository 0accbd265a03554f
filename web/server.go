package web

import (
	"compress/gzip"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

//go:embed assets
var assets embed.FS

// pageCSP is the Content-Security-Policy of every answer: scripts and
// styles only from this server (no inline script, no eval), images from
// here (and the blob: URLs the page makes of them), the layout worker from
// a blob: URL, no plug-ins, no frames.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; " +
	"worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Options configure a Server.
type Options struct {
	// Guard wraps the API (/api/), the caller's token check; nil lets all
	// in. The page and its scripts are public: they hold no note.
	Guard func(http.Handler) http.Handler
	// Logger receives faults. Nil discards them.
	Logger *slog.Logger
}

// Server is the web app: the page at "/" and its read-only API under "/api/".
type Server struct {
	e      *vaultgraph.Engine
	log    *slog.Logger
	mux    *http.ServeMux
	events *broker
}

// New returns the web app for e; it does no I/O.
func New(e *vaultgraph.Engine, o Options) *Server {
	s := &Server{e: e, log: o.Logger, mux: http.NewServeMux(), events: &broker{subs: map[chan vaultgraph.Change]struct{}{}}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	guard := o.Guard
	if guard == nil {
		guard = func(h http.Handler) http.Handler { return h }
	}
	api := http.NewServeMux()
	for path, h := range map[string]apiFunc{
		"/api/status":  s.status,
		"/api/search":  s.search,
		"/api/note":    s.note,
		"/api/graph":   s.graph,
		"/api/around":  s.around,
		"/api/local":   s.local,
		"/api/path":    s.path,
		"/api/hubs":    s.hubs,
		"/api/tags":    s.tags,
		"/api/tag":     s.tag,
		"/api/folders": s.folders,
		"/api/file":    s.file,
	} {
		api.Handle("GET "+path, s.handle(h))
	}
	api.HandleFunc("GET /api/events", s.stream)
	api.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API call: "+r.URL.Path)
	})
	s.mux.Handle("/api/", guard(api))
	static, _ := fs.Sub(assets, "assets")
	s.mux.Handle("/", http.FileServerFS(static))
	e.OnChange(s.events.publish)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		// 404 as for any address nothing serves: the app only reads.
		writeError(w, http.StatusNotFound, "not found: the web app answers GET only")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// errNotFound is an API answer of 404.
var errNotFound = errors.New("not found")

// apiFunc answers an API call: its answer, or nil when it wrote it itself.
type apiFunc func(http.ResponseWriter, *http.Request) (any, error)

// handle writes an API function's answer as JSON, or its error: 400 for
// a caller's mistake, 404 for a missing note, 500 for a fault.
func (s *Server) handle(f apiFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := f(w, r)
		if err == nil && v != nil {
			err = writeJSON(w, v)
		}
		switch {
		case err == nil:
		case errors.Is(err, vaultgraph.ErrInvalid):
			writeError(w, http.StatusBadRequest, err.Error())
		case errors.Is(err, errNotFound), errors.Is(err, vaultgraph.ErrNotFound):
			writeError(w, http.StatusNotFound, err.Error())
		case r.Context().Err() != nil:
		default:
			s.log.Error("web api", "path", r.URL.Path, "err", err)
			writeError(w, http.StatusInternalServerError, err.Error())
		}
	})
}

// writeJSON writes v as the JSON answer, gzipped if Content-Encoding says so.
func writeJSON(w http.ResponseWriter, v any) error {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	if h.Get("Content-Encoding") != "gzip" {
		return json.NewEncoder(w).Encode(v)
	}
	zw := gzip.NewWriter(w)
	if err := json.NewEncoder(zw).Encode(v); err != nil {
		return err
	}
	return zw.Close()
}

func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// list splits a comma-separated query parameter, dropping empty items.
func list(r *http.Request, name string) []string {
	return vaultgraph.SplitList([]string{r.URL.Query().Get(name)})
}

// keepAlive is how often an idle event stream gets a line, to stay open.
const keepAlive = 15 * time.Second

// broker fans the engine's changes out to the open event streams. The
// engine's callback must not block: a stream that falls behind loses
// changes and is told to reload everything.
type broker struct {
	mu   sync.Mutex
	subs map[chan vaultgraph.Change]struct{}
}

func (b *broker) publish(c vaultgraph.Change) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- c:
		default:
		}
	}
}

// change is one server-sent event: the notes a sync changed.
type change struct {
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	Edited  []string `json:"edited"`
}

// stream serves the changes as server-sent events until the client goes.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	flush, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	ch, b := make(chan vaultgraph.Change, 16), s.events
	b.mu.Lock()
	b.subs[ch] = struct{}{}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.subs, ch)
		b.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	fmt.Fprint(w, ": vaultgraph events\n\n")
	flush.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case c := <-ch:
			data, _ := json.Marshal(change{Added: nonNil(c.Added), Removed: nonNil(c.Removed), Edited: nonNil(c.Edited)})
			fmt.Fprintf(w, "event: change\ndata: %s\n\n", data)
		}
		flush.Flush()
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
