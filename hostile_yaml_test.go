package vaultgraph_test

// YAML bombs in frontmatter, parsed in a child process with its memory
// watched.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

// yamlBombs are notes whose frontmatter is built to expand exponentially
// through anchors and aliases (billion laughs) or to trap a YAML reader
// otherwise, by name.
func yamlBombs() map[string]string {
	laughs := func(key string) string {
		var b strings.Builder
		b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
		for c := 'b'; c <= 'j'; c++ {
			p := string(c - 1)
			fmt.Fprintf(&b, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
		}
		fmt.Fprintf(&b, "%s: *j\n", key)
		return b.String()
	}
	mapBomb := func() string { // the same with mappings and a merge key
		var b strings.Builder
		b.WriteString("a: &a {x1: lol, x2: lol, x3: lol, x4: lol, x5: lol, x6: lol, x7: lol, x8: lol, x9: lol}\n")
		for c := 'b'; c <= 'j'; c++ {
			p := string(c - 1)
			fmt.Fprintf(&b, "%c: &%c {y1: *%s, y2: *%s, y3: *%s, y4: *%s, y5: *%s, y6: *%s, y7: *%s, y8: *%s, y9: *%s}\n", c, c, p, p, p, p, p, p, p, p, p)
		}
		b.WriteString("k: {<<: *j}\n")
		return b.String()
	}
	// Few aliases of a big anchor: under yaml.v3's excessive-aliasing
	// check (which counts nodes, not bytes), 1 MB x 5,000 = 5 GB.
	bigAnchor := func(key string, size, refs int) string {
		return "a: &a \"" + strings.Repeat("x", size) + "\"\n" + key + ": [" + strings.TrimSuffix(strings.Repeat("*a,", refs), ",") + "]\n"
	}
	// The same in two levels: 64 KB x 100 x 100 = 640 MB.
	twoLevel := "a: &a \"" + strings.Repeat("y", 64<<10) + "\"\nb: &b [" + strings.TrimSuffix(strings.Repeat("*a,", 100), ",") + "]\nc: [" + strings.TrimSuffix(strings.Repeat("*b,", 100), ",") + "]\n"
	return map[string]string{
		"Laughs":       laughs("status"),
		"LaughTags":    laughs("tags"),
		"LaughAliases": laughs("aliases"),
		"LaughLinks":   strings.ReplaceAll(laughs("related"), `"lol"`, `"[[Target]]"`),
		"MergeBomb":    mapBomb(),
		"Recursive":    "a: &a [*a]\nb: &b {x: *b}\n",
		"SelfMerge":    "a: &a\n  <<: *a\n  x: 1\n",
		"BigAnchor":    bigAnchor("b", 1<<20, 5000),
		"BigAnchorTag": bigAnchor("tags", 1<<20, 5000),
		"TwoLevel":     twoLevel,
		"Tagged": "x: !!binary \"" + strings.Repeat("QUFB", 1<<16) + "\"\ny: !!python/object:os.system [\"rm -rf /\"]\nz: !custom {a: 1}\n" +
			"d: 2001-02-30\nn: 1e999999\nh: 0x" + strings.Repeat("f", 10000) + "\n",
		"ManyKeys":  manyKeys(100_000),
		"LongKey":   strings.Repeat("k", 1<<20) + ": v\n",
		"DeepFlow":  "x: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"DeepFlow2": "x: " + strings.Repeat("[", 900) + strings.Repeat("]", 900) + "\n",
		"Documents": "a: 1\n---\nb: 2\n...\n" + strings.Repeat("---\n", 10000),
	}
}

// hostileChildEnv names the case a child test process runs.
const hostileChildEnv = "VAULTGRAPH_HOSTILE_CHILD"

// TestHostileYAMLBombs indexes and reads each YAML bomb in a child
// process whose peak memory is measured (and which is killed past
// hostileKillRSS): each is indexed in bounded time and memory, without
// the bad property or with it unexpanded, and every read answers.
func TestHostileYAMLBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per bomb")
	}
	bombs := yamlBombs()
	for _, name := range slices.Sorted(maps.Keys(bombs)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, peak, took, killed, err := runHostileChild(t, "yaml:"+name, 2*time.Minute)
			t.Logf("%s: peak RSS %d MB, %v", name, peak>>20, took.Round(time.Millisecond))
			if killed != "" {
				t.Fatalf("%s: child killed: %s\n%s", name, killed, hostileClip(out))
			}
			if err != nil {
				t.Fatalf("%s: child failed: %v\n%s", name, err, out)
			}
			if peak > hostileRSSLimit {
				t.Errorf("%s: peak RSS %d MB, want under %d MB", name, peak>>20, hostileRSSLimit>>20)
			}
		})
	}
}

// Memory bounds of a child process: the peak resident size it may reach,
// and the size at which it is killed.
const (
	hostileRSSLimit = 700 << 20
	hostileKillRSS  = 1536 << 20
)

// runHostileChild runs TestHostileChild for the case in a child process,
// killing it past hostileKillRSS or the timeout, and returns its output,
// its peak resident size, how long it ran, why it was killed ("" if not)
// and its exit error.
func runHostileChild(t *testing.T, name string, timeout time.Duration) (out string, peak uint64, took time.Duration, killed string, err error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHostileChild$", "-test.v", "-test.count=1")
	// The child's temporary folders go under this test's, so that a child
	// killed past its memory bound leaves nothing in the system's.
	cmd.Env = append(os.Environ(), hostileChildEnv+"="+name, "TMPDIR="+t.TempDir())
	var buf lockedBytes
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(timeout)
	for {
		select {
		case err = <-done:
			// (Not the rusage of the child: on Linux its maxrss can hold the
			// parent's size from before the exec.)
			return buf.String(), peak, time.Since(start), killed, err
		case <-deadline:
			killed = fmt.Sprintf("still running after %v", timeout)
			_ = cmd.Process.Kill()
		case <-tick.C:
			if rss := processRSS(cmd.Process.Pid); rss > peak { // VmHWM: the peak so far
				peak = rss
				if rss > hostileKillRSS && killed == "" {
					killed = fmt.Sprintf("resident size %d MB, over %d MB", rss>>20, hostileKillRSS>>20)
					_ = cmd.Process.Kill()
				}
			}
		}
	}
}

// processRSS reads the peak resident size of a process so far from /proc
// (0 elsewhere).
func processRSS(pid int) uint64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb uint64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb * 1024
		}
	}
	return 0
}

type lockedBytes struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBytes) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBytes) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHostileChild is the child process of runHostileChild; without
// hostileChildEnv it does nothing.
func TestHostileChild(t *testing.T) {
	name := os.Getenv(hostileChildEnv)
	if name == "" {
		t.Skip("only run as a child process of the hostile tests")
	}
	if bomb, ok := strings.CutPrefix(name, "yaml:"); ok {
		yamlBombChild(t, bomb)
		return
	}
	t.Fatalf("unknown child case %q", name)
}

// yamlBombChild indexes one YAML bomb and reads it every way.
func yamlBombChild(t *testing.T, name string) {
	fm, ok := yamlBombs()[name]
	if !ok {
		t.Fatalf("no bomb %q", name)
	}
	id := name + ".md"
	dir := makeVault(t, map[string]string{"Target.md": "# Target\n", id: "---\n" + fm + "---\n[[Target]]\n"})
	start := time.Now()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	t.Logf("Open: %v", time.Since(start).Round(time.Millisecond))
	n, err := e.GetNode(context.Background(), id, false)
	if err != nil || n == nil {
		t.Fatalf("GetNode(%s) = %v, %v; want the note indexed", id, n, err)
	}
	t.Logf("warnings %.300q, %d properties, %d tags, %d aliases", n.Warnings, len(n.Properties), len(n.Tags), len(n.Aliases))
	if !slices.Contains(linkIDs(n.Links), "Target.md") {
		t.Errorf("%s links %v, want the body's link to Target", id, linkIDs(n.Links))
	}
	h := newHostileTools(e)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": id, "format": "json", "detail": "full"}},
		{"get_node", map[string]any{"id": id, "format": "toon", "detail": "full"}},
		{"get_node", map[string]any{"id": id, "format": "markdown", "detail": "full"}},
		{"get_node", map[string]any{"id": id, "detail": "full", "maxTokens": 500}},
		{"list_nodes", map[string]any{"properties": map[string]any{"status": "lol"}, "detail": "full", "format": "json"}},
		{"list_nodes", map[string]any{"detail": "full", "format": "json"}},
		{"list_nodes", map[string]any{"detail": "full"}},
		{"list_tags", map[string]any{"format": "json"}},
		{"search_by_tags", map[string]any{"tags": []string{"lol"}, "detail": "full"}},
		{"search", map[string]any{"query": "lol", "mode": "keyword", "detail": "full"}},
		{"vault_status", map[string]any{"format": "json"}},
		{"get_neighbors", map[string]any{"id": "Target", "detail": "full", "format": "json"}},
		{"get_node", map[string]any{"id": "Target", "depth": 1, "detail": "full"}},
	} {
		if _, ok := c.args["maxTokens"]; ok && hostileRace() {
			continue // slow to trim (a known bug): minutes under the race detector
		}
		start := time.Now()
		text, isErr := h.call(t, c.tool, c.args)
		t.Logf("%s(%.100v): %d bytes in %v", c.tool, c.args, len(text), time.Since(start).Round(time.Millisecond))
		if isErr || len(text) > 4<<20 {
			t.Errorf("%s(%.100v) = %d bytes %q (isError %v)", c.tool, c.args, len(text), hostileClip(text), isErr)
		}
	}
	// Editing the frontmatter never writes the bomb out expanded.
	size := fileSize(t, filepath.Join(dir, id))
	text, isErr := h.call(t, "update_node", map[string]any{"id": id, "tags": []string{"x"}, "properties": map[string]any{"new": 1}})
	if isErr && errorCode(text) != "INVALID_PARAMS" {
		t.Errorf("update_node(%s) = %q, want success or INVALID_PARAMS", id, hostileClip(text))
	}
	if got := fileSize(t, filepath.Join(dir, id)); got > 2*size+1000 {
		t.Errorf("update_node(%s) grew the file from %d to %d bytes: aliases expanded", id, size, got)
	}
	// A rename of the note it links to rewrites only that link.
	if text, isErr := h.call(t, "update_node", map[string]any{"id": "Target", "title": "Target Two"}); isErr {
		t.Errorf("rename Target = %q", hostileClip(text))
	}
}
