package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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
	notes, err := notePaths(vaultDir)
	if err != nil || len(notes) == 0 {
		return r, fmt.Errorf("serve RSS bench: no notes in %s: %v", vaultDir, err)
	}
	id, err := filepath.Rel(vaultDir, notes[0])
	if err != nil {
		return r, fmt.Errorf("serve RSS bench: %w", err)
	}
	s, err := startServe(ctx, exe, vaultDir, index, filepath.ToSlash(id), `msg="embeddings ready"`)
	if err != nil {
		return r, err
	}
	defer s.close()
	select {
	case <-s.marked:
	case <-time.After(10 * time.Minute):
		return r, errors.New("serve: the embeddings were not ready in 10 minutes")
	}
	time.Sleep(time.Second)
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
