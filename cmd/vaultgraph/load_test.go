//go:build load

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// The load test runs with `make load` (go test -tags load): it is heavy and
// measures, so it is not part of make test.
var (
	loadClients  = flag.Int("load.clients", 32, "concurrent MCP clients")
	loadDuration = flag.Duration("load.duration", 30*time.Second, "how long the clients run")
	loadNotes    = flag.Int("load.notes", 10000, "notes in the generated vault")
)

// loadStats gathers what the clients did.
type loadStats struct {
	mu        sync.Mutex
	latencies []time.Duration
	byTool    map[string]int
	toolLat   map[string][]time.Duration
	protoErr  []string // transport and JSON-RPC errors: must stay empty
	toolErr   []string // isError answers: must stay empty (every call is valid)
	// acked are the writes the server acknowledged: note ID -> the token
	// its content must hold at the end ("" for a delete).
	acked map[string]string
}

func (s *loadStats) record(tool string, d time.Duration) {
	s.mu.Lock()
	s.latencies = append(s.latencies, d)
	s.byTool[tool]++
	if s.toolLat == nil {
		s.toolLat = map[string][]time.Duration{}
	}
	s.toolLat[tool] = append(s.toolLat[tool], d)
	s.mu.Unlock()
}

func (s *loadStats) fail(proto bool, msg string) {
	s.mu.Lock()
	if proto {
		s.protoErr = append(s.protoErr, msg)
	} else {
		s.toolErr = append(s.toolErr, msg)
	}
	s.mu.Unlock()
}

// TestLoad starts `vaultgraph serve --http` on loopback over a generated
// vault and runs concurrent MCP clients mixing reads, searches and writes
// while another writer edits files on disk behind the server's back. It
// checks: no protocol or tool errors, every acknowledged write is in its
// file and in the server's answers, and the server's index equals a fresh
// full index of the final vault. It prints requests/s and latencies.
func TestLoad(t *testing.T) {
	bin := testBinary(t)
	vaultDir := filepath.Join(t.TempDir(), "vault")
	if _, err := vaultgen.Generate(vaultDir, vaultgen.Config{Notes: *loadNotes, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	err := filepath.WalkDir(vaultDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(vaultDir, p)
			ids = append(ids, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	// The outside editor owns the last tenth of the notes; clients read
	// everything but write only their own new notes.
	outsideOwned := ids[len(ids)*9/10:]

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	env, index := serveEnv(t)
	s := startServer(t, bin, env, "serve", "--http", addr, vaultDir)
	s.start(t)
	start := time.Now()
	waitListening(t, s, addr)
	t.Logf("load: server ready in %s for %d notes", time.Since(start).Round(time.Millisecond), len(ids))
	url := "http://" + addr + "/mcp"

	stats := &loadStats{byTool: map[string]int{}, acked: map[string]string{}}
	ctx, cancel := context.WithTimeout(context.Background(), *loadDuration)
	defer cancel()
	var wg sync.WaitGroup
	var outsideEdits atomic.Int64
	outsideFinal := map[string]string{} // note -> token of its last outside edit
	wg.Add(1)
	go func() { // the outside editor: appends a line to its notes
		defer wg.Done()
		r := rand.New(rand.NewPCG(99, 1))
		for n := 0; ctx.Err() == nil; n++ {
			id := outsideOwned[r.IntN(len(outsideOwned))]
			token := fmt.Sprintf("outside-edit-%d", n)
			p := filepath.Join(vaultDir, filepath.FromSlash(id))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Errorf("outside editor: %v", err)
				return
			}
			if err := os.WriteFile(p, append(b, []byte("\n"+token+"\n")...), 0o644); err != nil {
				t.Errorf("outside editor: %v", err)
				return
			}
			outsideFinal[id] = token
			outsideEdits.Add(1)
			time.Sleep(20 * time.Millisecond)
		}
	}()
	serveCPU0, _ := procCPU(s.cmd.Process.Pid)
	selfCPU0, _ := procCPU(os.Getpid())
	for c := range *loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runLoadClient(ctx, t, url, c, ids, stats)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	serveCPU1, okServe := procCPU(s.cmd.Process.Pid)
	selfCPU1, okSelf := procCPU(os.Getpid())

	// Let the watcher take in the last outside edits (debounce 100 ms).
	time.Sleep(1500 * time.Millisecond)
	checkAcked(t, url, vaultDir, stats, outsideFinal)
	s.stop(t)

	lat := slices.Clone(stats.latencies)
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	t.Logf("load clients=%d duration=%s notes=%d requests=%d rps=%.0f p50=%s p99=%s protocol_errors=%d tool_errors=%d writes=%d outside_edits=%d",
		*loadClients, *loadDuration, len(ids), len(lat), float64(len(lat))/loadDuration.Seconds(),
		pct(0.50).Round(10*time.Microsecond), pct(0.99).Round(10*time.Microsecond),
		len(stats.protoErr), len(stats.toolErr), len(stats.acked), outsideEdits.Load())
	t.Logf("load calls per tool: %v (elapsed %s)", stats.byTool, elapsed.Round(time.Millisecond))
	if okServe && okSelf && len(lat) > 0 {
		serve, clients := serveCPU1-serveCPU0, selfCPU1-selfCPU0
		per := func(d time.Duration) time.Duration { return (d / time.Duration(len(lat))).Round(time.Microsecond) }
		t.Logf("load cpu serve=%s clients=%s per_request serve=%s clients=%s",
			serve.Round(10*time.Millisecond), clients.Round(10*time.Millisecond), per(serve), per(clients))
	}
	for _, tool := range slices.Sorted(maps.Keys(stats.toolLat)) {
		l := slices.Sorted(slices.Values(stats.toolLat[tool]))
		at := func(p float64) time.Duration {
			return l[min(len(l)-1, int(p*float64(len(l))))].Round(10 * time.Microsecond)
		}
		t.Logf("load tool=%s calls=%d p50=%s p99=%s max=%s", tool, len(l), at(0.50), at(0.99), l[len(l)-1].Round(10*time.Microsecond))
	}
	for _, e := range stats.protoErr[:min(len(stats.protoErr), 10)] {
		t.Errorf("protocol error: %s", e)
	}
	for _, e := range stats.toolErr[:min(len(stats.toolErr), 10)] {
		t.Errorf("tool error: %s", e)
	}
	compareWithFreshIndex(t, bin, vaultDir, index)
}

// runLoadClient is one agent: an MCP session calling tools until ctx ends.
func runLoadClient(ctx context.Context, t *testing.T, url string, n int, ids []string, stats *loadStats) {
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		stats.fail(true, err.Error())
		return
	}
	c := client.NewClient(tr)
	defer c.Close()
	initCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(initCtx); err != nil {
		stats.fail(true, "start: "+err.Error())
		return
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ClientInfo = mcpgo.Implementation{Name: fmt.Sprintf("load-%d", n), Version: "1"}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	initRes, err := c.Initialize(initCtx, init)
	if err != nil {
		stats.fail(true, "initialize: "+err.Error())
		return
	}
	caller := newToolCaller(url, tr, init.Params.ClientInfo, initRes)
	r := rand.New(rand.NewPCG(uint64(n), 42))
	var mine []string // notes this client created
	words := []string{"project", "meeting", "plan", "garden", "music", "travel", "budget", "review"}
	for i := 0; ctx.Err() == nil; i++ {
		var tool string
		args := map[string]any{}
		op := r.IntN(100)
		switch {
		case op < 30:
			tool, args["id"] = "get_node", ids[r.IntN(len(ids))]
		case op < 45:
			tool, args["query"] = "search", words[r.IntN(len(words))]+" "+words[r.IntN(len(words))]
		case op < 55:
			tool, args["id"] = "get_neighbors", ids[r.IntN(len(ids))]
		case op < 62:
			tool, args["sortBy"], args["page"] = "list_nodes", "-modified", 1+r.IntN(5)
		case op < 67:
			tool, args["id"], args["depth"] = "get_node", ids[r.IntN(len(ids))], 1
		case op < 70:
			tool, args["metric"] = "get_hubs", "pagerank"
		case op < 85 || len(mine) == 0:
			tool = "create_node"
			title := fmt.Sprintf("Load %d-%d", n, i)
			args["title"], args["directory"] = title, "Load"
			args["content"] = fmt.Sprintf("created by client %d, token c%d-%d, see [[%s]]", n, n, i, strings.TrimSuffix(filepath.Base(ids[r.IntN(len(ids))]), ".md"))
			args["tags"] = []string{"load"}
		default:
			tool = "update_node"
			id := mine[r.IntN(len(mine))]
			args["id"], args["content"] = id, fmt.Sprintf("updated by client %d, token u%d-%d", n, n, i)
		}
		callCtx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		began := time.Now()
		text, isError, err := caller.call(callCtx, tool, args)
		cancel()
		stats.record(tool, time.Since(began))
		if err != nil {
			stats.fail(true, fmt.Sprintf("%s(%v): %v", tool, args, err))
			continue
		}
		if isError {
			stats.fail(false, fmt.Sprintf("%s(%v): %s", tool, args, text))
			continue
		}
		switch tool {
		case "create_node":
			id := "Load/" + args["title"].(string) + ".md"
			if !strings.Contains(text, "id: "+id) {
				stats.fail(false, fmt.Sprintf("create_node answered %q, want id %s", text, id))
				continue
			}
			mine = append(mine, id)
			stats.mu.Lock()
			stats.acked[id] = fmt.Sprintf("c%d-%d", n, i)
			stats.mu.Unlock()
		case "update_node":
			stats.mu.Lock()
			stats.acked[args["id"].(string)] = fmt.Sprintf("u%d-%d", n, i)
			stats.mu.Unlock()
		}
	}
}

// checkAcked checks every acknowledged write and every outside edit: in
// the file, and in what the server answers.
func checkAcked(t *testing.T, url, vaultDir string, stats *loadStats, outside map[string]string) {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	defer c.Close()
	initialize(t, c)
	lost := 0
	check := func(id, token, who string) {
		b, err := os.ReadFile(filepath.Join(vaultDir, filepath.FromSlash(id)))
		if err != nil || !strings.Contains(string(b), "token "+token) && !strings.Contains(string(b), token) {
			lost++
			if lost <= 10 {
				t.Errorf("%s write to %s lost on disk: want %q in %q (%v)", who, id, token, b, err)
			}
			return
		}
		text, isErr := call(t, c, "get_node", map[string]any{"id": id, "format": "json", "fields": []string{"id", "content"}})
		var n struct {
			ID      string `json:"id"`
			Content string `json:"content"`
		}
		if isErr || json.Unmarshal([]byte(text), &n) != nil || !strings.Contains(n.Content, token) {
			lost++
			if lost <= 10 {
				t.Errorf("%s write to %s not in the server's answer: want %q in %.200q", who, id, token, text)
			}
		}
	}
	for id, token := range stats.acked {
		check(id, token, "acknowledged")
	}
	for id, token := range outside {
		check(id, token, "outside")
	}
	t.Logf("load checked %d acknowledged writes and %d outside edits: %d lost", len(stats.acked), len(outside), lost)
}

// compareWithFreshIndex compares the index the server left with a fresh
// full index of the final vault: the same notes, content hashes, links
// and resolutions.
func compareWithFreshIndex(t *testing.T, bin, vaultDir, index string) {
	t.Helper()
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	out, errOut, code := runCLI(t, "index", vaultDir, "--full", "--index", fresh, "--embed", "none")
	if code != 0 {
		t.Fatalf("fresh index: %s %s", out, errOut)
	}
	load := func(path string) map[string]string {
		st, err := store.Open(context.Background(), path)
		if err != nil {
			t.Fatalf("open %s: %v", path, err)
		}
		defer st.Close()
		snap, err := st.Load(context.Background())
		if err != nil {
			t.Fatalf("load %s: %v", path, err)
		}
		m := map[string]string{}
		for _, r := range snap.Notes {
			m[r.Note.ID] = fmt.Sprintf("%s %v %v", r.Note.Hash, r.Resolved, r.Status)
		}
		return m
	}
	got, want := load(index), load(fresh)
	diffs := 0
	for id, w := range want {
		if g, ok := got[id]; !ok || g != w {
			diffs++
			if diffs <= 10 {
				t.Errorf("index differs from a fresh index for %s:\n got  %.300s\n want %.300s", id, g, w)
			}
		}
	}
	for id := range got {
		if _, ok := want[id]; !ok {
			diffs++
			if diffs <= 10 {
				t.Errorf("index has %s, which a fresh index does not", id)
			}
		}
	}
	t.Logf("load index_equal=%v notes=%d differences=%d", diffs == 0, len(want), diffs)
}

// procCPU returns the CPU time (user and system) process pid has used so
// far, read from /proc (false where there is none): the load's CPU per
// request, the server's and the clients' (this process: the clients and
// the outside editor), is what bounds its throughput on a small machine.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from its end. utime and stime are fields 14 and 15, in USER_HZ
	// (100 a second on Linux).
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 13 {
		return 0, false
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, false
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, true
}
