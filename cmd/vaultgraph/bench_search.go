package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/embed"
)

// benchSearchQueries is how many queries `bench --search` times per mode.
const benchSearchQueries = 200

// benchSearchModes are the search modes timed, in the order printed.
var benchSearchModes = []vaultgraph.SearchMode{vaultgraph.SearchKeyword, vaultgraph.SearchSemantic, vaultgraph.SearchHybrid}

// searchResult holds the search figures of one vault.
type searchResult struct {
	notes    int // the vault size asked for
	embedded int // notes in the vault when embedded (the watcher test adds some)
	chunks   int64
	embed    time.Duration
	queries  []string
	// lat holds each mode's latencies, in the order of queries.
	lat map[vaultgraph.SearchMode][]time.Duration
}

func (r searchResult) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "bench-search notes=%d embedded=%d chunks=%d embed_time=%s embed_notes_per_s=%.0f embed_chunks_per_s=%.0f queries=%d",
		r.notes, r.embedded, r.chunks, secs(r.embed), perSecond(float64(r.embedded), r.embed), perSecond(float64(r.chunks), r.embed), len(r.queries))
	for _, m := range benchSearchModes {
		b.WriteString(" " + quantiles(string(m), r.lat[m]))
	}
	return b.String()
}

// slowest writes the n slowest queries of each mode to w, slowest first.
func (r searchResult) slowest(w io.Writer, n int) {
	for _, m := range benchSearchModes {
		order := make([]int, len(r.lat[m]))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Compare(r.lat[m][b], r.lat[m][a]) })
		for _, i := range order[:min(n, len(order))] {
			fmt.Fprintf(w, "bench: slow %s %s %q\n", m, fineMillis(r.lat[m][i]), r.queries[i])
		}
	}
}

// runBenchSearchOnly takes the bench-search line of an existing vault and
// index (`bench --vault DIR --index FILE --search`), made if missing, else
// reused; verbose adds the slowest queries on stderr.
func runBenchSearchOnly(ctx context.Context, vaultDir, index string, verbose bool, stdout, stderr io.Writer) error {
	notes, err := notePaths(vaultDir)
	if err != nil {
		return fmt.Errorf("bench --vault %s: %w", vaultDir, err)
	}
	r, err := benchSearch(ctx, len(notes), vaultDir, index, stderr)
	if err != nil {
		return fmt.Errorf("bench --vault %s: %w", vaultDir, err)
	}
	fmt.Fprintln(stdout, r.line())
	if verbose {
		r.slowest(stderr, 20)
	}
	return nil
}

func perSecond(n float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return n / d.Seconds()
}

// fineMillis is milliseconds with two decimals: keyword queries take
// less than one.
func fineMillis(d time.Duration) string {
	return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
}

// quantiles is "NAME_p50=… NAME_p99=…" of ds, in fineMillis.
func quantiles(name string, ds []time.Duration) string {
	return fmt.Sprintf("%s_p50=%s %s_p99=%s", name, fineMillis(percentile(ds, 0.50)), name, fineMillis(percentile(ds, 0.99)))
}

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	embed.Embedder
	texts atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts.Add(int64(len(texts)))
	return c.Embedder.Embed(ctx, texts)
}

// benchSearch takes the bench-search line bench's help describes: the
// vault opened with a new index (so that the vector table is empty).
func benchSearch(ctx context.Context, n int, vaultDir, index string, stderr io.Writer) (searchResult, error) {
	r := searchResult{notes: n, lat: map[vaultgraph.SearchMode][]time.Duration{}}
	say := func(format string, args ...any) { fmt.Fprintf(stderr, "bench: "+format+"\n", args...) }
	builtin, err := embed.New("builtin", embed.Options{})
	if err != nil {
		return r, err
	}
	em := &countingEmbedder{Embedder: builtin}
	e := vaultgraph.New(vaultgraph.Options{Vault: vaultDir, Index: index, Embedder: em})
	start := time.Now()
	if err := e.Open(ctx); err != nil {
		return r, err
	}
	defer e.Close()
	say("search: indexed the vault again into an empty index in %s; embedding with %s", secs(time.Since(start)), builtin.Model())
	start = time.Now()
	if err := e.WaitEmbeddings(ctx); err != nil {
		return r, fmt.Errorf("embeddings: %w", err)
	}
	r.embed = time.Since(start)
	r.embedded, r.chunks = e.Graph().Len(), em.texts.Load()
	say("search: embedded %d notes (%d chunks) in %s", r.embedded, r.chunks, secs(r.embed))

	queries, err := benchQueries(vaultDir, benchSearchQueries)
	if err != nil {
		return r, err
	}
	r.queries = queries
	warm := min(10, len(queries)) // queries run first, untimed, to warm up
	for _, m := range benchSearchModes {
		for k, q := range slices.Concat(queries[:warm], queries) {
			start := time.Now()
			if _, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: q, Mode: m}); err != nil {
				return r, fmt.Errorf("search %q (%s): %w", q, m, err)
			}
			if k >= warm {
				r.lat[m] = append(r.lat[m], time.Since(start))
			}
		}
		say("search: %d %s queries, p50 %s, p99 %s", len(queries), m, fineMillis(percentile(r.lat[m], 0.5)), fineMillis(percentile(r.lat[m], 0.99)))
	}
	return r, nil
}

// benchQueries derives up to n queries from notes spread evenly over the
// vault, in four kinds in turn: the title's words reversed; a question
// around the title; three longer words of the body; six in a row.
func benchQueries(vaultDir string, n int) ([]string, error) {
	notes, err := notePaths(vaultDir)
	if err != nil {
		return nil, err
	}
	if len(notes) == 0 {
		return nil, fmt.Errorf("%s has no notes", vaultDir)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var out []string
	for i := range min(n, len(notes)) {
		p := notes[i*len(notes)/min(n, len(notes))]
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		title := strings.ToLower(strings.TrimSuffix(filepath.Base(p), ".md"))
		words := plainWords(body(src))
		q := ""
		switch i % 4 {
		case 0:
			w := strings.Fields(title)
			slices.Reverse(w)
			q = strings.Join(w, " ")
		case 1:
			q = "what do I know about " + title
		case 2:
			var long []string
			for _, w := range words {
				if len([]rune(w)) >= 5 && !slices.Contains(long, w) {
					long = append(long, w)
				}
			}
			if len(long) >= 3 {
				r.Shuffle(len(long), func(a, b int) { long[a], long[b] = long[b], long[a] })
				q = strings.Join(long[:3], " ")
			}
		case 3:
			if len(words) >= 6 {
				at := r.IntN(len(words) - 5)
				q = strings.Join(words[at:at+6], " ")
			}
		}
		if strings.TrimSpace(q) == "" {
			q = title
		}
		out = append(out, q)
	}
	return out, nil
}

// body is a note's text after its frontmatter.
func body(src []byte) []byte {
	if rest, ok := bytes.CutPrefix(src, []byte("---\n")); ok {
		if _, after, ok := bytes.Cut(rest, []byte("\n---\n")); ok {
			return after
		}
	}
	return src
}

// plainWords returns the words of text made of letters only (trailing
// punctuation removed), lower case; links, tags and markup are left out.
func plainWords(text []byte) []string {
	var out []string
	for _, f := range strings.Fields(string(text)) {
		w := strings.TrimRight(f, ".,?!:;")
		if w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// benchGraphQueries is how many notes bench-graph times, per vault.
const benchGraphQueries = 200

// graphResult holds the related-notes and mention figures of one vault.
type graphResult struct {
	notes    int
	related  []time.Duration
	mentions []time.Duration
	found    int // mentions found over all the lookups
}

func (r graphResult) line() string {
	return fmt.Sprintf("bench-graph notes=%d queries=%d %s %s mentions_found=%d",
		r.notes, len(r.related), quantiles("related", r.related), quantiles("mentions", r.mentions), r.found)
}

// benchGraph takes the bench-graph line bench's help describes, for
// notes picked at random (seed 1).
func benchGraph(ctx context.Context, n int, vaultDir, index string, stderr io.Writer) (graphResult, error) {
	r := graphResult{notes: n}
	fmt.Fprintf(stderr, "bench: timing get_related and mention lookups for %d notes\n", benchGraphQueries)
	e := vaultgraph.New(vaultgraph.Options{Vault: vaultDir, Index: index})
	if err := e.Open(ctx); err != nil {
		return r, err
	}
	defer e.Close()
	ids := e.Graph().IDs()
	if len(ids) == 0 {
		return r, fmt.Errorf("the vault has no notes")
	}
	rnd := rand.New(rand.NewPCG(1, 1))
	for range benchGraphQueries {
		id := ids[rnd.IntN(len(ids))]
		start := time.Now()
		if _, err := e.RelatedPage(ctx, vaultgraph.RelatedQuery{IDs: []string{id}, Limit: vaultgraph.DefaultRelatedLimit}); err != nil {
			return r, fmt.Errorf("related %s: %w", id, err)
		}
		r.related = append(r.related, time.Since(start))
		start = time.Now()
		ms, _, _, err := e.Mentions(ctx, id)
		if err != nil {
			return r, fmt.Errorf("mentions of %s: %w", id, err)
		}
		r.mentions = append(r.mentions, time.Since(start))
		r.found += len(ms)
	}
	return r, nil
}

// vaultBench holds the figures of `vaultgraph bench --vault DIR`.
type vaultBench struct {
	name                           string
	notes, links, broken, problems int
	index, indexEmbed              childRun
}

func (r vaultBench) line() string {
	return fmt.Sprintf("vault name=%s notes=%d links=%d broken=%d problems=%d index=%s peak_rss=%s index_embed=%s peak_rss_embed=%s",
		r.name, r.notes, r.links, r.broken, r.problems, secs(r.index.wall), kib(r.index.rssKiB),
		secs(r.indexEmbed.wall), kib(r.indexEmbed.rssKiB))
}

// runBenchVault measures an existing vault, `vaultgraph bench --vault
// DIR`: a cold `vaultgraph index` in a child process with --embed none
// (index, peak_rss), then another with the builtin embedder (index_embed,
// peak_rss_embed), into indexes under --dir or a temporary folder (the
// vault is only read). It prints one line, named after the vault folder:
//
//	vault name=kepano-obsidian notes=103 links=147 broken=62 problems=0 index=0.15s peak_rss=38.2MiB index_embed=0.31s peak_rss_embed=52.0MiB
func runBenchVault(ctx context.Context, o benchOptions, vaultDir string, stdout, stderr io.Writer) error {
	abs, err := filepath.Abs(vaultDir)
	if err != nil {
		return fmt.Errorf("bench --vault: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: --vault %s: not a folder", vaultgraph.ErrInvalid, vaultDir)
	}
	r := vaultBench{name: filepath.Base(abs)}
	work, cleanup, err := o.workDir()
	if err != nil {
		return err
	}
	defer cleanup()
	indexDir := filepath.Join(work, "index-"+r.name)
	if err := o.newDirs(indexDir); err != nil {
		return err
	}
	defer o.removeDirs(indexDir)
	for _, run := range []struct {
		embed string
		out   *childRun
	}{{"none", &r.index}, {"builtin", &r.indexEmbed}} {
		fmt.Fprintf(stderr, "bench: indexing %s (--embed %s)\n", abs, run.embed)
		child, out, err := indexChild(ctx, o.exe, abs, filepath.Join(indexDir, run.embed, "index.db"), run.embed)
		*run.out = child
		if err != nil {
			return fmt.Errorf("bench --vault %s: %w", vaultDir, err)
		}
		m := summary.FindStringSubmatch(out)
		if m == nil {
			return fmt.Errorf("bench --vault %s: %s index printed %q, not its summary line", vaultDir, o.exe, out)
		}
		n := make([]int, len(m))
		for i := 1; i < len(m); i++ {
			n[i], _ = strconv.Atoi(m[i])
		}
		counts := [4]int{n[1], n[3], n[4], n[5]}
		if run.out == &r.indexEmbed && counts != [4]int{r.notes, r.links, r.broken, r.problems} {
			return fmt.Errorf("bench --vault %s: the two index runs disagree: %q", vaultDir, m[0])
		}
		r.notes, r.links, r.broken, r.problems = counts[0], counts[1], counts[2], counts[3]
		if run.out.parsed = n[2]; run.out.parsed != r.notes {
			return fmt.Errorf("bench --vault %s: a cold index parsed %d of %d notes", vaultDir, run.out.parsed, r.notes)
		}
		fmt.Fprintf(stderr, "bench: %s, peak RSS %s\n", secs(run.out.wall), kib(run.out.rssKiB))
	}
	fmt.Fprintln(stdout, r.line())
	return nil
}
