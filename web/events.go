package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

// keepAlive is how often an idle event stream gets a comment line, so
// that proxies and browsers keep it open.
const keepAlive = 15 * time.Second

// broker fans the engine's changes out to the open event streams. The
// engine's callback must not block: a stream that falls behind loses
// changes and is told to reload everything.
type broker struct {
	mu   sync.Mutex
	subs map[chan vaultgraph.Change]struct{}
}

func newBroker() *broker { return &broker{subs: map[chan vaultgraph.Change]struct{}{}} }

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

func (b *broker) subscribe() (chan vaultgraph.Change, func()) {
	ch := make(chan vaultgraph.Change, 16)
	b.mu.Lock()
	b.subs[ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs, ch)
		b.mu.Unlock()
	}
}

// change is one server-sent event: the notes a sync added, removed or
// edited.
type change struct {
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	Edited  []string `json:"edited"`
}

// stream serves the changes as server-sent events ("change", JSON data)
// until the client or the server goes.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	flush, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	ch, done := s.events.subscribe()
	defer done()
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
