package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// readBench holds the read figures of one vault (see bench's help).
type readBench struct {
	oneShot    time.Duration // median wall time of `get-node`, no server
	oneShotRSS int64         // peak RSS of the slowest of those, KiB
	served     time.Duration // median wall time of `get-node` while serve runs
	serveInit  time.Duration // serve started to `initialize` answered
	serveReady time.Duration // serve started to the first get_node answered
	idleRSS    int64         // the server's RSS one second after that, KiB
	watchRSS   int64         // the same with the watcher on, once it runs, KiB
}

// fields are the figures as printed at the end of the bench line.
func (r readBench) fields() string {
	return fmt.Sprintf("read_oneshot=%s peak_rss_read=%s read_served=%s serve_init=%s serve_ready=%s idle_rss_serve=%s idle_rss_watch=%s",
		secs(r.oneShot), kib(r.oneShotRSS), secs(r.served), secs(r.serveInit), secs(r.serveReady), kib(r.idleRSS), kib(r.watchRSS))
}

// oneShotRuns is how many times a one-shot read is timed (median printed).
const oneShotRuns = 3

// benchReads takes the read figures of vaultDir's index that bench's
// help describes (read_oneshot to idle_rss_watch).
func benchReads(ctx context.Context, exe, vaultDir, index string) (readBench, error) {
	var r readBench
	id, err := firstNote(vaultDir)
	if err != nil {
		return r, err
	}
	if r.oneShot, r.oneShotRSS, err = timeGetNode(ctx, exe, vaultDir, index, id); err != nil {
		return r, err
	}
	if err := r.serveIdle(ctx, exe, vaultDir, index, id); err != nil {
		return r, err
	}
	s, err := serveUntil(ctx, exe, vaultDir, index, id, "msg=watching", 5*time.Minute, "--embed", "none")
	if err != nil {
		return r, err
	}
	defer s.close()
	r.watchRSS = processRSS(s.cmd.Process.Pid)
	return r, nil
}

// serveIdle times a server's start without the watcher, takes its idle
// RSS, and times `get-node` while it runs.
func (r *readBench) serveIdle(ctx context.Context, exe, vaultDir, index, id string) error {
	s, err := startServe(ctx, exe, vaultDir, index, id, "", "--embed", "none", "--no-watch")
	if err != nil {
		return err
	}
	defer s.close()
	r.serveInit, r.serveReady = s.init, s.ready
	time.Sleep(time.Second)
	r.idleRSS = processRSS(s.cmd.Process.Pid)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(socketPath(index)); err == nil || time.Now().After(deadline) {
			break
		}
	}
	r.served, _, err = timeGetNode(ctx, exe, vaultDir, index, id)
	return err
}

// benchServer is a `serve` child over stdio, initialized and asked get_node.
type benchServer struct {
	cmd         *exec.Cmd
	in          io.WriteCloser
	rd          *bufio.Reader
	init, ready time.Duration // from the start to initialize and get_node answered
	marked      chan struct{} // closed when serve logs its mark (markWriter)
}

// firstNote is the ID of vaultDir's first note, the one the bench reads.
func firstNote(vaultDir string) (string, error) {
	notes, err := notePaths(vaultDir)
	if err != nil || len(notes) == 0 {
		return "", fmt.Errorf("bench: no notes in %s: %v", vaultDir, err)
	}
	id, err := filepath.Rel(vaultDir, notes[0])
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	return filepath.ToSlash(id), nil
}

// serveUntil starts `serve` as startServe does, waits until its log holds
// mark (at most wait), and one second more for it to settle.
func serveUntil(ctx context.Context, exe, vaultDir, index, id, mark string, wait time.Duration, args ...string) (*benchServer, error) {
	s, err := startServe(ctx, exe, vaultDir, index, id, mark, args...)
	if err != nil {
		return nil, err
	}
	select {
	case <-s.marked:
	case <-time.After(wait):
		s.close()
		return nil, fmt.Errorf("serve: no %s in its log within %s", mark, wait)
	}
	time.Sleep(time.Second)
	return s, nil
}

// startServe starts `serve` on index with args, initializes it and asks
// get_node id; marked closes when serve's log holds mark (never for "").
func startServe(ctx context.Context, exe, vaultDir, index, id, mark string, args ...string) (*benchServer, error) {
	args = append([]string{"serve", vaultDir, "--index", index}, args...)
	s := &benchServer{cmd: exec.CommandContext(ctx, exe, args...), marked: make(chan struct{})}
	s.cmd.Stderr = &markWriter{mark: []byte(mark), seen: s.marked}
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	start := time.Now()
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	s.rd = bufio.NewReader(out)
	if err := rpc(s.in, s.rd, 1, "initialize", map[string]any{"protocolVersion": "2025-03-26", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bench", "version": "1"}}); err != nil {
		s.close()
		return nil, err
	}
	s.init = time.Since(start)
	fmt.Fprintln(s.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err := rpc(s.in, s.rd, 2, "tools/call", map[string]any{"name": "get_node", "arguments": map[string]any{"id": id}}); err != nil {
		s.close()
		return nil, err
	}
	s.ready = time.Since(start)
	return s, nil
}

// markWriter takes serve's log and closes seen once mark was written.
type markWriter struct {
	mark []byte
	tail []byte // the end of what was written, up to the mark's length
	seen chan struct{}
}

func (w *markWriter) Write(p []byte) (int, error) {
	if len(w.mark) == 0 {
		return len(p), nil
	}
	w.tail = append(w.tail, p...)
	if bytes.Contains(w.tail, w.mark) {
		close(w.seen)
		w.mark, w.tail = nil, nil
		return len(p), nil
	}
	w.tail = w.tail[max(0, len(w.tail)-len(w.mark)):]
	return len(p), nil
}

// close ends the server (its stdin closed) and waits for it.
func (s *benchServer) close() {
	s.in.Close()
	_ = s.cmd.Wait()
}

// timeGetNode runs `get-node ID` oneShotRuns times and returns the median
// wall time and the largest peak RSS.
func timeGetNode(ctx context.Context, exe, vaultDir, index, id string) (time.Duration, int64, error) {
	var walls []time.Duration
	var rss int64 = -1
	for range oneShotRuns {
		run, _, err := runChild(ctx, exe, "get-node", id, "--vault", vaultDir, "--index", index)
		if err != nil {
			return 0, 0, err
		}
		walls = append(walls, run.wall)
		rss = max(rss, run.rssKiB)
	}
	slices.Sort(walls)
	return walls[len(walls)/2], rss, nil
}

// rpc sends one JSON-RPC request and reads lines until its answer.
func rpc(w io.Writer, r *bufio.Reader, id int, method string, params any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("serve %s: %w", method, err)
	}
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("serve %s: no answer: %w", method, err)
		}
		var msg struct {
			ID    *int            `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.ID != nil && *msg.ID == id {
			if len(msg.Error) > 0 {
				return fmt.Errorf("serve %s: %s", method, msg.Error)
			}
			return nil
		}
	}
}

// processRSS is a running process's RSS in KiB (VmRSS), -1 where unknown.
func processRSS(pid int) int64 { return procStatusKiB(pid, "VmRSS:") }

// procStatusKiB is field (with its colon) of /proc/PID/status in KiB, or -1.
func procStatusKiB(pid int, field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return v
				}
			}
		}
	}
	return -1
}

// The peak RSS of a child process, as the bench reports it. The rusage a
// parent gets for its child (maxRSS) is not the child's alone on Linux:
// Go starts a child with vfork, and the kernel records the peak of the
// address space the child left at exec, which is the parent's (a bench
// holding a large engine). So the child reports its own peak (VmHWM, of
// its own address space) into a file the bench names, and the bench
// falls back to the rusage where the OS has no /proc.

// envPeakRSS names the file a command writes its peak RSS (KiB) to at exit.
const envPeakRSS = "VAULTGRAPH_PEAK_RSS_FILE"

// writePeakRSS writes this process's peak RSS to path, when set and known.
func writePeakRSS(path string) {
	if path == "" {
		return
	}
	if kib := procStatusKiB(os.Getpid(), "VmHWM:"); kib >= 0 {
		_ = os.WriteFile(path, []byte(strconv.FormatInt(kib, 10)), 0o600)
	}
}

// runPeakRSS runs cmd and returns its peak RSS in KiB: what it reported
// (writePeakRSS), else its rusage's (maxRSS), -1 when neither says.
func runPeakRSS(cmd *exec.Cmd) (int64, error) {
	dir, err := os.MkdirTemp("", "vaultgraph-rss-")
	if err != nil {
		return -1, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "peak")
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, envPeakRSS+"="+file)
	err = cmd.Run()
	if b, rerr := os.ReadFile(file); rerr == nil {
		if kib, perr := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); perr == nil {
			return kib, err
		}
	}
	return maxRSS(cmd.ProcessState), err
}

// serveRSS holds a default server's RSS once its embeddings are ready, and
// once idle again after searches.
type serveRSS struct {
	ready    int64 // KiB, a second after it logs that its embeddings are ready
	searched int64 // KiB, idleAfterSearch after rssSearches searches
}

// fields are the figures as printed on the bench-cold line.
func (r serveRSS) fields() string {
	return fmt.Sprintf("idle_rss_serve=%s idle_rss_searched=%s", kib(r.ready), kib(r.searched))
}

// rssSearches are answered before the RSS is taken again, idleAfterSearch on.
const (
	rssSearches     = 100
	idleAfterSearch = 3 * time.Second
)

// benchServeRSS takes serveRSS of `serve` with its defaults on index; the
// searches are two of a few common words, as an agent would ask.
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
