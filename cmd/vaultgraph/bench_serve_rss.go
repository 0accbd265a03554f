package main

import (
	"context"
	"fmt"
	"time"
)

// serveRSS holds a server's RSS with its defaults (the builtin model, the
// watcher) on a vault whose index has its vectors: once its embeddings
// are ready, and once idle again after searches.
type serveRSS struct {
	ready    int64 // KiB, a second after it logs that its embeddings are ready
	searched int64 // KiB, idleAfterSearch after rssSearches searches
}

// fields are the figures as printed on the bench-cold line.
func (r serveRSS) fields() string {
	return fmt.Sprintf("idle_rss_serve=%s idle_rss_searched=%s", kib(r.ready), kib(r.searched))
}

// rssSearches is how many searches the server answers before its RSS is
// taken again, idleAfterSearch after the last one.
const (
	rssSearches     = 100
	idleAfterSearch = 3 * time.Second
)

// benchServeRSS starts `serve` with its defaults on vaultDir and index,
// and takes its RSS when its embeddings are ready, then after searches
// (two of a few common words, as an agent would ask).
func benchServeRSS(ctx context.Context, exe, vaultDir, index string) (serveRSS, error) {
	var r serveRSS
	id, err := firstNote(vaultDir)
	if err != nil {
		return r, err
	}
	s, err := serveUntil(ctx, exe, vaultDir, index, id, `msg="embeddings ready"`, 10*time.Minute)
	if err != nil {
		return r, err
	}
	defer s.close()
	r.ready = processRSS(s.cmd.Process.Pid)
	words := []string{"project", "meeting", "plan", "garden", "music", "travel", "budget", "review"}
	for i := range rssSearches {
		q := words[i%len(words)] + " " + words[(i/len(words)+i+1)%len(words)]
		if err := rpc(s.in, s.rd, 10+i, "tools/call", map[string]any{"name": "search", "arguments": map[string]any{"query": q}}); err != nil {
			return r, err
		}
	}
	time.Sleep(idleAfterSearch)
	r.searched = processRSS(s.cmd.Process.Pid)
	return r, nil
}
