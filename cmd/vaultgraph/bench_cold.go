package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph"
)

// coldParts are the parts of the index a bench-cold line gives, in order.
var coldParts = []string{"vectors", "fts", "text", "links", "notes", "other"}

// coldResult holds the figures of `bench --cold` for one vault.
type coldResult struct {
	notes         int
	parsed        int // notes in the vault when it was indexed
	markdownBytes int64
	run           childRun
	indexBytes    int64
	parts         map[string]int64
	serve         serveRSS
}

// line is the result as printed: markdown and index sizes, their ratio,
// the cold index's wall time, markdown megabytes (10^6 bytes) per second
// and peak RSS, the bytes of each part of the index, then the RSS of a
// server with its defaults on it (benchServeRSS).
func (r coldResult) line() string {
	var b strings.Builder
	ratio := 0.0
	if r.markdownBytes > 0 {
		ratio = float64(r.indexBytes) / float64(r.markdownBytes)
	}
	fmt.Fprintf(&b, "bench-cold notes=%d parsed=%d embed=builtin markdown=%s index_size=%s index_ratio=%.2f cold_index=%s md_mb_per_s=%.2f peak_rss=%s",
		r.notes, r.parsed, mib(r.markdownBytes), mib(r.indexBytes), ratio, secs(r.run.wall), perSecond(float64(r.markdownBytes)/1e6, r.run.wall), kib(r.run.rssKiB))
	for _, p := range coldParts {
		fmt.Fprintf(&b, " %s=%s", p, mib(r.parts[p]))
	}
	b.WriteString(" " + r.serve.fields())
	return b.String()
}

// benchCold indexes vaultDir into a new index with the default embedding
// model (builtin), in a child process, and measures it: wall time, peak
// RSS, the index file's size against the markdown's and where its bytes
// go.
func benchCold(ctx context.Context, exe string, n int, vaultDir, index string, stderr io.Writer) (coldResult, error) {
	r := coldResult{notes: n}
	paths, err := notePaths(vaultDir)
	if err != nil {
		return r, err
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			r.markdownBytes += fi.Size()
		}
	}
	fmt.Fprintf(stderr, "bench: cold index with the builtin embedder (%s of markdown)\n", mib(r.markdownBytes))
	var out string
	if r.run, out, err = indexChild(ctx, exe, vaultDir, index, "builtin"); err != nil {
		return r, err
	}
	m := summary.FindStringSubmatch(out)
	if m == nil || m[1] != m[2] {
		return r, fmt.Errorf("%s index printed %q, not the summary of a cold index", exe, out)
	}
	r.parsed, _ = strconv.Atoi(m[2]) // the watcher bench may have added notes
	r.indexBytes = indexSize(index)
	if r.parts, err = vaultgraph.IndexTableBytes(ctx, index); err != nil {
		return r, err
	}
	fmt.Fprintf(stderr, "bench: cold index: %s (CPU %s), peak RSS %s, index %s\n", secs(r.run.wall), secs(r.run.cpu), kib(r.run.rssKiB), mib(r.indexBytes))
	fmt.Fprintf(stderr, "bench: serve with its defaults on that index: RSS once ready, and after %d searches\n", rssSearches)
	r.serve, err = benchServeRSS(ctx, exe, vaultDir, index)
	return r, err
}

// coldIndexPath is where benchCold writes its index for a vault.
func coldIndexPath(indexDir string) string { return filepath.Join(indexDir, "cold.db") }
