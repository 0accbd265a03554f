package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// benchOptions are the flags of `vaultgraph bench`.
type benchOptions struct {
	notes []int
	dir   string
	keep  bool
	edits int
	exe   string // the vaultgraph binary run for the index passes
	// search and cold add a bench-search and a bench-cold line per vault.
	search, cold bool
}

func newBenchCmd(g *globals) *cobra.Command {
	var o benchOptions
	c := command("bench", args())
	c.RunE = func(c *cobra.Command, _ []string) error {
		if c.Flags().Changed("vault") && o.search && c.Flags().Changed("index") { // search only (bench_search.go)
			return runBenchSearchOnly(c.Context(), g.vault, g.index, g.verbose, g.stdout, g.stderr)
		}
		if c.Flags().Changed("vault") { // an existing vault (bench_vault.go)
			return runBenchVault(c.Context(), o, g.vault, g.stdout, g.stderr)
		}
		return runBench(c.Context(), o, g.stdout, g.stderr)
	}
	f := c.Flags()
	f.IntSliceVar(&o.notes, "notes", []int{10_000, 100_000}, "vault sizes to measure, comma-separated")
	f.StringVar(&o.dir, "dir", "", "folder for the generated vaults and indexes (default: a new temporary folder)")
	f.BoolVar(&o.keep, "keep", false, "keep the generated vaults and indexes")
	f.IntVar(&o.edits, "edits", 200, "external edits timed for the watcher latency")
	f.BoolVar(&o.search, "search", false, "also measure builtin embedding throughput and keyword, semantic and hybrid query latency (a bench-search line per size)")
	f.BoolVar(&o.cold, "cold", false, "also index cold with the default (builtin) embedder: markdown and index size, ratio, MB/s, peak RSS, bytes per table (a bench-cold line per size)")
	f.StringVar(&o.exe, "exe", "", "vaultgraph binary to run for the index passes (default: this one)")
	_ = f.MarkHidden("exe")
	return c
}

// benchResult holds the figures of one vault.
type benchResult struct {
	notes              int
	cold, warm, touch  childRun
	touched            int
	indexBytes         int64
	watchP50, watchP99 time.Duration
	edits              int
	read               readBench // bench_read.go
	markdownBytes      int64
}

// childRun is one `vaultgraph index` run in a child process.
type childRun struct {
	wall   time.Duration
	rssKiB int64 // peak RSS; -1 when the OS does not say
	// cpu is the user and system CPU time the child used: on a shared
	// machine a steadier figure than wall.
	cpu    time.Duration
	parsed int
}

func (r benchResult) line() string {
	return fmt.Sprintf("bench notes=%d cold_index=%s warm_index=%s touch1pct_index=%s touched=%d index_size=%s peak_rss_cold=%s peak_rss_warm=%s peak_rss_touch=%s watch_p50=%s watch_p99=%s edits=%d",
		r.notes, secs(r.cold.wall), secs(r.warm.wall), secs(r.touch.wall), r.touched, mib(r.indexBytes),
		kib(r.cold.rssKiB), kib(r.warm.rssKiB), kib(r.touch.rssKiB), millis(r.watchP50), millis(r.watchP99), r.edits) +
		" markdown=" + mib(r.markdownBytes) + " " + r.read.fields()
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

func millis(d time.Duration) string {
	return fmt.Sprintf("%dms", d.Round(time.Millisecond).Milliseconds())
}

func mib(bytes int64) string { return fmt.Sprintf("%.1fMiB", float64(bytes)/(1<<20)) }

func kib(k int64) string {
	if k < 0 {
		return "n/a"
	}
	return mib(k << 10)
}

func runBench(ctx context.Context, o benchOptions, stdout, stderr io.Writer) error {
	if len(o.notes) == 0 {
		return fmt.Errorf("%w: --notes needs at least one size", vaultgraph.ErrInvalid)
	}
	for _, n := range o.notes {
		if n <= 0 {
			return fmt.Errorf("%w: --notes: %d is not a vault size", vaultgraph.ErrInvalid, n)
		}
	}
	if o.edits < 1 {
		return fmt.Errorf("%w: --edits must be at least 1", vaultgraph.ErrInvalid)
	}
	work, cleanup, err := o.workDir()
	if err != nil {
		return err
	}
	defer cleanup()
	for _, n := range o.notes {
		vaultDir := filepath.Join(work, fmt.Sprintf("vault-%d", n))
		indexDir := filepath.Join(work, fmt.Sprintf("index-%d", n))
		if err := o.newDirs(vaultDir, indexDir); err != nil {
			return err
		}
		r, err := benchVault(ctx, o, n, vaultDir, filepath.Join(indexDir, "index.db"), stderr)
		if err == nil {
			fmt.Fprintln(stdout, r.line())
			var gr graphResult
			if gr, err = benchGraph(ctx, n, vaultDir, filepath.Join(indexDir, "index.db"), stderr); err == nil {
				fmt.Fprintln(stdout, gr.line())
			}
			if o.cold && err == nil {
				var cr coldResult
				if cr, err = benchCold(ctx, o.exe, n, vaultDir, filepath.Join(indexDir, "cold.db"), stderr); err == nil {
					fmt.Fprintln(stdout, cr.line())
				}
			}
			if o.search && err == nil {
				var sr searchResult
				if sr, err = benchSearch(ctx, n, vaultDir, filepath.Join(indexDir, "search.db"), stderr); err == nil {
					fmt.Fprintln(stdout, sr.line())
				}
			}
		}
		o.removeDirs(vaultDir, indexDir)
		if err != nil {
			return fmt.Errorf("bench notes=%d: %w", n, err)
		}
	}
	return nil
}

// workDir sets the binary to run (--exe, else this one) and returns --dir,
// else a new temporary folder that cleanup removes unless --keep.
func (o *benchOptions) workDir() (work string, cleanup func(), err error) {
	if o.exe == "" {
		if o.exe, err = os.Executable(); err != nil {
			return "", nil, fmt.Errorf("bench: find this program to run it: %w", err)
		}
	}
	if o.dir != "" {
		return o.dir, func() {}, nil
	}
	if work, err = os.MkdirTemp("", "vaultgraph-bench-"); err != nil {
		return "", nil, fmt.Errorf("bench: %w", err)
	}
	if o.keep {
		return work, func() {}, nil
	}
	return work, func() { os.RemoveAll(work) }, nil
}

// newDirs refuses folders under --dir that already exist.
func (o *benchOptions) newDirs(dirs ...string) error {
	for _, p := range dirs {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s exists (from an earlier --keep run?); remove it or choose another --dir", vaultgraph.ErrInvalid, p)
		}
	}
	return nil
}

// removeDirs removes a vault's folders under --dir, unless --keep.
func (o *benchOptions) removeDirs(dirs ...string) {
	if !o.keep && o.dir != "" {
		for _, d := range dirs {
			os.RemoveAll(d)
		}
	}
}

// benchVault generates one vault and takes its figures.
func benchVault(ctx context.Context, o benchOptions, n int, vaultDir, index string, stderr io.Writer) (benchResult, error) {
	r := benchResult{notes: n, edits: o.edits}
	say := func(format string, args ...any) { fmt.Fprintf(stderr, "bench: "+format+"\n", args...) }
	say("generating %d notes in %s", n, vaultDir)
	start := time.Now()
	st, err := vaultgen.Generate(vaultDir, vaultgen.Config{Notes: n, Seed: 1})
	if err != nil {
		return r, err
	}
	say("generated %d notes (%s) in %s", st.Notes, mib(int64(st.Bytes)), secs(time.Since(start)))
	r.markdownBytes = int64(st.Bytes)

	timeIndex := func(name string, want int) (childRun, error) {
		// --embed none: embedding is measured on its own (bench --search),
		// and would make these figures depend on the embedder.
		run, out, err := indexChild(ctx, o.exe, vaultDir, index, "none")
		if err != nil {
			return run, fmt.Errorf("%s: %w", name, err)
		}
		m := summary.FindStringSubmatch(out)
		if m == nil {
			return run, fmt.Errorf("%s: %s index printed %q, not its summary line", name, o.exe, out)
		}
		if run.parsed, _ = strconv.Atoi(m[2]); run.parsed != want {
			return run, fmt.Errorf("%s parsed %d notes, want %d", name, run.parsed, want)
		}
		say("%s: %s, peak RSS %s", name, secs(run.wall), kib(run.rssKiB))
		return run, nil
	}
	if r.cold, err = timeIndex("cold index", n); err != nil {
		return r, err
	}
	if r.warm, err = timeIndex("warm index", 0); err != nil {
		return r, err
	}
	if r.touched, err = touchNotes(vaultDir, 100); err != nil {
		return r, err
	}
	if r.touch, err = timeIndex("index after touching 1%", r.touched); err != nil {
		return r, err
	}
	r.indexBytes = indexSize(index)

	say("timing one-shot reads and a server's start")
	if r.read, err = benchReads(ctx, o.exe, vaultDir, index); err != nil {
		return r, fmt.Errorf("reads: %w", err)
	}
	say("one-shot get-node %s (%s while serving); serve answered initialize in %s, get_node in %s; idle RSS %s",
		secs(r.read.oneShot), secs(r.read.served), secs(r.read.serveInit), secs(r.read.serveReady), kib(r.read.idleRSS))

	say("timing %d external edits with a watching engine", o.edits)
	lat, err := watchLatency(ctx, vaultDir, index, o.edits)
	if err != nil {
		return r, fmt.Errorf("watcher latency: %w", err)
	}
	r.watchP50, r.watchP99 = percentile(lat, 0.50), percentile(lat, 0.99)
	return r, nil
}

// summary matches the summary line `vaultgraph index` ends with.
var summary = regexp.MustCompile(`^indexed (\d+) notes \((\d+) parsed, \d+ unchanged, \d+ removed\), (\d+) links, (\d+) broken, (\d+) problems in `)

// indexSize is the size of the index file and its WAL.
func indexSize(index string) int64 {
	var n int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(index + suffix); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// indexChild runs `exe index VAULT --index INDEX --embed EMBED` (runChild).
func indexChild(ctx context.Context, exe, vaultDir, index, embed string) (childRun, string, error) {
	run, out, err := runChild(ctx, exe, "index", vaultDir, "--index", index, "--embed", embed)
	if err != nil {
		err = fmt.Errorf("%s %w", exe, err)
	}
	return run, out, err
}

// runChild runs `exe ARGS...` in a child process and returns its times,
// peak RSS and output; an error holds what it printed to stderr.
func runChild(ctx context.Context, exe string, args ...string) (childRun, string, error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	rss, err := runPeakRSS(cmd)
	run := childRun{wall: time.Since(start), rssKiB: rss}
	if ps := cmd.ProcessState; ps != nil {
		run.cpu = ps.UserTime() + ps.SystemTime()
	}
	if err != nil {
		return run, "", fmt.Errorf("%s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return run, stdout.String(), nil
}

// maxRSS is the peak resident set of a finished process in KiB, or -1
// when the OS does not report it. It reads the Maxrss field of the
// process's rusage by reflection, so that this builds on every OS (there
// is no syscall.Rusage on Windows).
func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return -1
	}
	v := reflect.ValueOf(ps.SysUsage())
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return -1
	}
	f := v.FieldByName("Maxrss")
	if !f.IsValid() || !f.CanInt() {
		return -1
	}
	rss := f.Int()
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		rss /= 1024 // bytes there, KiB elsewhere
	}
	return rss
}

// touchNotes appends a line to every every-th note of the vault (in path
// order, starting with the first) and returns how many it changed.
func touchNotes(vaultDir string, every int) (int, error) {
	notes, err := notePaths(vaultDir)
	if err != nil {
		return 0, err
	}
	touched := 0
	for i := 0; i < len(notes); i += every {
		if err := appendText(notes[i], fmt.Sprintf("\nTouched by vaultgraph bench (%d).\n", i)); err != nil {
			return touched, err
		}
		touched++
	}
	return touched, nil
}

// appendText appends text to the existing file p.
func appendText(p, text string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// notePaths lists the vault's .md files, sorted.
func notePaths(vaultDir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(vaultDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != vaultDir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// percentile is the p-quantile (0..1) of ds, by the nearest-rank method.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(ds))
	rank := int(math.Ceil(p*float64(len(s)))) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

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

// line is the bench-cold line bench's help describes.
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

// benchCold takes the bench-cold line of vaultDir, indexed anew.
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
