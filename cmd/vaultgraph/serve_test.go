package main

// End-to-end tests of `vaultgraph serve`: the real binary, started as a
// subprocess, driven by mcp-go's stdio and streamable HTTP clients.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// readOnlyTools are the tools `serve --read-only` registers, sorted.
var readOnlyTools = []string{
	"find_path", "get_hubs", "get_neighbors", "get_node", "get_related", "list_nodes",
	"list_tags", "random_node", "search", "search_by_tags", "vault_status",
}

// serveTools are the tools `serve` registers in this release, sorted: the
// read tools and the write tools.
var serveTools = []string{
	"create_node", "delete_node", "find_path", "get_hubs", "get_neighbors", "get_node", "get_related",
	"link_mentions", "list_nodes", "list_tags", "random_node", "repair_links", "search", "search_by_tags", "update_node", "vault_status",
}

// serveCall is one tool call against testvault and what its answer holds.
type serveCall struct {
	tool    string
	args    map[string]any
	want    string // a substring of the text (the whole text when exact)
	exact   bool
	isError bool
}

// serveCalls call every tool at least once, plus a not-found read, a
// caller's mistake and the default formats (TOON for lists, Markdown for
// a note).
var serveCalls = []serveCall{
	{tool: "get_node", args: map[string]any{"id": "Home", "format": "json"}, want: `{"id":"Home.md","title":"Home",`},
	{tool: "get_node", args: map[string]any{"id": "projects/alpha plan", "depth": 1, "format": "json"}, want: `"incomingCount":2,"outgoingCount":3,`},
	{tool: "get_neighbors", args: map[string]any{"id": "HOME", "direction": "in", "format": "json"}, want: `"total":6`},
	{tool: "search", args: map[string]any{"query": "cafe menu", "mode": "keyword", "detail": "minimal", "format": "json"}, want: `{"id":"Notes/Café Menu.md","title":"Café Menu","score":1}`},
	{tool: "find_path", args: map[string]any{"source": "Deep Note", "target": "東京 Trip", "format": "json"}, exact: true,
		want: `{"path":["Deep/Nested/Folder/Deep Note.md","Home.md","Notes/Meeting Notes.md","Notes/東京 Trip.md"],"length":3}`},
	{tool: "get_hubs", args: map[string]any{"limit": 1, "format": "json", "detail": "minimal"}, exact: true,
		want: `{"metric":"in_degree","nodes":[{"id":"Home.md","score":6}],"total":8,"page":1,"totalPages":8,"hint":"page 1 of 8: pass page: 2 for more"}`},
	{tool: "search_by_tags", args: map[string]any{"tags": []string{"project"}, "format": "json"}, want: `"total":3`},
	{tool: "list_nodes", args: map[string]any{"folder": "Notes", "sortBy": []string{"-title"}, "format": "json"}, want: `"total":4,"page":1,"totalPages":1}`},
	{tool: "list_tags", args: map[string]any{"format": "json"}, want: `{"tag":"project","count":3}`},
	{tool: "random_node", args: map[string]any{"tags": []string{"travel"}, "format": "json"}, want: `{"id":"Notes/東京 Trip.md",`},
	{tool: "vault_status", args: map[string]any{"format": "json"}, want: `"notes":13,"links":30,"brokenLinks":2,`},
	{tool: "get_related", args: map[string]any{"ids": []string{"Beta"}, "limit": 1, "format": "json", "detail": "minimal"}, exact: true,
		want: `{"seeds":["Projects/Beta.md"],"nodes":[{"id":"Home.md","title":"Home","score":1,"distance":1,"shared":2}],"total":9,"page":1,"totalPages":9,"hint":"page 1 of 9: pass page: 2 for more"}`},
	{tool: "link_mentions", args: map[string]any{"id": "Home", "dryRun": true, "format": "json"}, want: `{"path":"Deep/Nested/Folder/Deep Note.md","line":3,"old":"Home","new":"[[Home]]"}`},
	{tool: "get_node", args: map[string]any{"id": "No Such Note"}, want: `warning: no note matches "No Such Note"`, exact: true},
	{tool: "get_node", args: map[string]any{"id": "Home", "depth": "x"}, want: "INVALID_PARAMS: depth: ", isError: true},
	{tool: "get_node", args: map[string]any{"id": "Tagged"}, want: "# Tag Examples\n"},
	{tool: "list_nodes", args: map[string]any{"orphans": true}, want: "nodes[3]{id,title,tags,content}:\n  Orphan.md,Orphan,"},
	{tool: "list_tags", args: map[string]any{"limit": 1}, exact: true,
		want: "tags[1]{tag,count}:\n  project,3\ntotal: 17\npage: 1\ntotalPages: 17\nhint: \"page 1 of 17: pass page: 2 for more\""},
}

// serveEnv is the environment of a server process: an index in a
// temporary folder, no token unless the test gives one.
func serveEnv(t *testing.T) (env []string, index string) {
	t.Helper()
	index = filepath.Join(t.TempDir(), "index.db")
	return []string{EnvIndex + "=" + index, EnvToken + "=", EnvVault + "="}, index
}

// checkIndex opens the index a server left and checks that it is complete:
// a warm start parses nothing.
func checkIndex(t *testing.T, vaultDir, index string, notes int) {
	t.Helper()
	if _, err := os.Stat(index + ".serve"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("heartbeat left behind after the server stopped: %v", err)
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: vaultDir, Index: index})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("reopen the index: %v", err)
	}
	defer e.Close()
	if r := e.Report(); r.Notes != notes || r.Parsed != 0 || r.Unchanged != notes {
		t.Errorf("reopened index: %d notes, %d parsed, %d unchanged, want %d, 0, %d", r.Notes, r.Parsed, r.Unchanged, notes, notes)
	}
}

// copyVault copies testvault into a temporary folder.
func copyVault(t *testing.T) string { return testutil.CopyTestVault(t) }

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// initialize runs the MCP handshake and checks the server's name and
// capabilities.
func initialize(t *testing.T, c *client.Client) {
	t.Helper()
	// Start's context lives as long as the client: the HTTP transport's
	// listening stream ends with it.
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("client Start = %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcpgo.InitializeRequest{}
	req.Params.ClientInfo = mcpgo.Implementation{Name: "vaultgraph-e2e", Version: "1"}
	res, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatalf("Initialize = %v", err)
	}
	if res.ServerInfo.Name != "vaultgraph" || res.Capabilities.Tools == nil || res.Capabilities.Resources == nil {
		t.Errorf("server %+v with capabilities %+v, want vaultgraph with tools and resources", res.ServerInfo, res.Capabilities)
	}
}

// callAll checks that tools/list lists exactly tools and makes every call
// of serveCalls to one of them.
func callAll(t *testing.T, c *client.Client, tools []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	list, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list = %v", err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		write := !slices.Contains(readOnlyTools, tool.Name)
		// A hint equal to the MCP default (readOnlyHint false) is left out.
		if ro := tool.Annotations.ReadOnlyHint; (ro != nil && *ro) == write || (ro != nil && !*ro) {
			t.Errorf("%s: readOnlyHint = %v, want %v (left out when false)", tool.Name, ro, !write)
		}
	}
	if !slices.Equal(names, tools) {
		t.Errorf("tools/list = %q, want %q", names, tools)
	}
	for _, tc := range serveCalls {
		if !slices.Contains(tools, tc.tool) {
			continue // a write tool on a read-only server
		}
		text, isErr := call(t, c, tc.tool, tc.args)
		ok := strings.Contains(text, tc.want)
		if tc.exact {
			ok = text == tc.want
		}
		if !ok || isErr != tc.isError {
			t.Errorf("%s(%v) = %.200q (isError %v), want %q (isError %v)", tc.tool, tc.args, text, isErr, tc.want, tc.isError)
		}
	}
}

// call calls a tool and returns its text and isError.
func call(t *testing.T, c *client.Client, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call %s = %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("tools/call %s: %d contents, want 1", name, len(res.Content))
	}
	text, ok := mcpgo.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("tools/call %s: content %T, want text", name, res.Content[0])
	}
	return text.Text, res.IsError
}

func TestServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	t.Run("stdio", func(t *testing.T) { t.Parallel(); testServeStdio(t, bin) })
	t.Run("stdio stdout and SIGTERM", func(t *testing.T) { t.Parallel(); testServeStdout(t, bin) })
	t.Run("stdio external edit", func(t *testing.T) { t.Parallel(); testServeExternalEdit(t, bin) })
	t.Run("http with token", func(t *testing.T) { t.Parallel(); testServeHTTP(t, bin, "s3cret-token") })
	t.Run("http without token", func(t *testing.T) { t.Parallel(); testServeHTTP(t, bin, "") })
}

// testServeStdio drives `serve` with mcp-go's stdio client, which starts
// the process itself.
func testServeStdio(t *testing.T, bin string) {
	var stderr lockedBuffer
	env, index := serveEnv(t)
	vaultDir := copyVault(t)
	c, err := client.NewStdioMCPClientWithOptions(bin, env, []string{"serve", "--read-only", vaultDir},
		transport.WithCommandStderrWriter(&stderr))
	if err != nil {
		t.Fatal(err)
	}
	initialize(t, c)
	callAll(t, c, readOnlyTools)
	refuseWrites(t, c, vaultDir)
	// The client closes stdin and its end of stderr, then waits: the server
	// must exit 0, not die of SIGPIPE on its last log line.
	if err := c.Close(); err != nil {
		t.Errorf("Close = %v, want the server to exit 0 when stdin closes\n%s", err, stderr.String())
	}
	if logs := stderr.String(); !strings.Contains(logs, "msg=serving") {
		t.Errorf("stderr = %q, want the serving log line", logs)
	}
	checkIndex(t, vaultDir, index, 13)
}

// serveProc is a `serve` process this test started itself, so it sees every
// byte of stdout and can signal the process.
type serveProc struct {
	cmd    *exec.Cmd
	stdout lockedBuffer
	stderr lockedBuffer
	done   chan error
}

func startServer(t *testing.T, bin string, env []string, args ...string) *serveProc {
	t.Helper()
	s := &serveProc{cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	s.cmd.Env = append(os.Environ(), env...)
	s.cmd.Stderr = &s.stderr
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil && s.cmd.Process != nil {
			_ = s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", s.stderr.String())
		}
	})
	return s
}

// stdioClient starts the server with its stdin and stdout connected to an
// MCP client; every byte of stdout is also kept in s.stdout.
func (s *serveProc) stdioClient(t *testing.T) *client.Client {
	t.Helper()
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.start(t)
	return client.NewClient(transport.NewIO(io.TeeReader(stdout, &s.stdout), stdin, nil))
}

func (s *serveProc) start(t *testing.T) {
	t.Helper()
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
}

// stop sends SIGTERM and checks that the process exits 0 in time.
func (s *serveProc) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("after SIGTERM the server exited with %v, want 0\n%s", err, s.stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the server did not stop within 15s of SIGTERM\n%s", s.stderr.String())
	}
}

// testServeStdout checks that stdout carries only JSON-RPC messages, logs
// go to stderr, and SIGTERM stops the server with exit 0 and the index
// consistent.
func testServeStdout(t *testing.T, bin string) {
	vaultDir := copyVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	s := startServer(t, bin, []string{EnvToken + "=", "VAULTGRAPH_INDEX="}, "serve", "--no-watch", "--index", index, "-v", vaultDir)
	c := s.stdioClient(t)
	initialize(t, c)
	callAll(t, c, serveTools)
	if text, _ := call(t, c, "vault_status", map[string]any{"format": "json"}); !strings.Contains(text, `"watcher":"off"`) {
		t.Errorf("vault_status with --no-watch = %.300s, want watcher off", text)
	}
	// No watcher runs: every write must be visible to the next read at once.
	writeAll(t, c, vaultDir)
	if _, err := os.Stat(index + ".serve"); err != nil {
		t.Errorf("no heartbeat next to the index while serving: %v", err)
	}
	s.stop(t)

	lines := strings.Split(strings.TrimSuffix(s.stdout.String(), "\n"), "\n")
	if len(lines) < len(serveCalls) {
		t.Errorf("stdout has %d lines, want at least one per call", len(lines))
	}
	for i, line := range lines {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line %d is not a JSON-RPC message: %.200q", i+1, line)
		}
	}
	logs := s.stderr.String()
	for _, want := range []string{"msg=serving", "msg=stopped", "index=" + index} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr = %q, want %q", logs, want)
		}
	}
	checkIndex(t, vaultDir, index, 13)
}

// testServeExternalEdit edits, adds and removes files while the server
// watches the vault, and polls until get_node sees each change.
func testServeExternalEdit(t *testing.T, bin string) {
	vaultDir := copyVault(t)
	var stderr lockedBuffer
	env, _ := serveEnv(t)
	c, err := client.NewStdioMCPClientWithOptions(bin, env, []string{"serve", vaultDir},
		transport.WithCommandStderrWriter(&stderr))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	listChanged := make(chan struct{}, 16)
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == string(mcpgo.MethodNotificationResourcesListChanged) {
			listChanged <- struct{}{}
		}
	})
	initialize(t, c)
	// The watcher starts beside the server: "off" until it runs.
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		text, _ := call(t, c, "vault_status", map[string]any{"format": "json"})
		if strings.Contains(text, `"watcher":"running"`) {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("vault_status = %.400s after 10s, want watcher running", text)
		}
	}

	poll := func(what, id, want string) {
		t.Helper()
		start := time.Now()
		for {
			text, _ := call(t, c, "get_node", map[string]any{"id": id, "format": "json", "detail": "full"})
			if strings.Contains(text, want) {
				t.Logf("%s visible after %v", what, time.Since(start).Round(10*time.Millisecond))
				return
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s: get_node(%s) = %.200q after 10s, want %q\n%s", what, id, text, want, stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	orphan := filepath.Join(vaultDir, "Orphan.md")
	if err := os.WriteFile(orphan, []byte("# Orphan\n\nNo longer alone: [[Home]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	poll("an edit", "Orphan", `"links":[{"id":"Home.md","title":"Home"}]`)

	fresh := filepath.Join(vaultDir, "Inbox", "Fresh Note.md")
	if err := os.MkdirAll(filepath.Dir(fresh), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fresh, []byte("Written by another editor. #fresh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	poll("a new note", "Fresh Note", `"id":"Inbox/Fresh Note.md"`)
	select {
	case <-listChanged:
	case <-time.After(5 * time.Second):
		t.Errorf("no %s after a note was added", mcpgo.MethodNotificationResourcesListChanged)
	}
	if err := os.Remove(fresh); err != nil {
		t.Fatal(err)
	}
	poll("a deleted note", "Fresh Note", `no note matches \"Fresh Note\"`)
	// bench waits for this line to take the RSS of a watching server.
	if logs := stderr.String(); !strings.Contains(logs, "msg=watching") {
		t.Errorf("stderr = %q, want the line saying the watcher runs (msg=watching)", logs)
	}
}

// freeAddr returns a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// post sends one JSON-RPC initialize request by hand and returns the
// status code.
func post(t *testing.T, url, host, auth string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if host != "" {
		req.Host = host
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	if res.StatusCode == http.StatusUnauthorized && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("401 without WWW-Authenticate: Bearer")
	}
	return res.StatusCode
}

// testServeHTTP serves streamable HTTP on a free loopback port, with or
// without a bearer token.
func testServeHTTP(t *testing.T, bin, token string) {
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	url := "http://" + addr + "/mcp"
	vaultDir := copyVault(t)
	args := []string{"serve", "--http", port, vaultDir} // a bare port binds loopback
	env, index := serveEnv(t)
	if token != "" {
		env = append(env, EnvToken+"="+token) // the variable, not the flag, so it stays out of ps
	}
	s := startServer(t, bin, env, args...)
	s.start(t)
	waitListening(t, s, addr)

	if token != "" {
		if code := post(t, url, "", ""); code != http.StatusUnauthorized {
			t.Errorf("POST without a token = %d, want 401", code)
		}
		if code := post(t, url, "", "Bearer wrong"); code != http.StatusUnauthorized {
			t.Errorf("POST with a wrong token = %d, want 401", code)
		}
		if code := post(t, url, "", "s3cret-token"); code != http.StatusUnauthorized {
			t.Errorf("POST with the token but no Bearer = %d, want 401", code)
		}
	}
	auth := ""
	if token != "" {
		auth = "Bearer " + token
	}
	if code := post(t, url, "", auth); code != http.StatusOK {
		t.Errorf("POST initialize = %d, want 200", code)
	}
	for _, host := range []string{"evil.example.com", "evil.example.com:" + port} {
		if code := post(t, url, host, auth); code != http.StatusForbidden {
			t.Errorf("POST with Host %s = %d, want 403 (DNS rebinding)", host, code)
		}
	}
	if code := post(t, "http://"+addr+"/other", "", auth); code != http.StatusNotFound {
		t.Errorf("POST /other = %d, want 404", code)
	}

	// With the token: a client on the newest protocol, which asks for
	// notifications with subscriptions/listen. Without: one on the last
	// protocol with the initialize handshake (today's desktop clients),
	// which keeps a GET stream open for them.
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPLogger(slog.New(slog.DiscardHandler))}
	var copts []client.ClientOption
	if token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": auth}))
	} else {
		opts = append(opts, transport.WithContinuousListening())
		copts = append(copts, client.WithProtocolVersion(mcpgo.LATEST_LEGACY_PROTOCOL_VERSION))
	}
	tr, err := transport.NewStreamableHTTP(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, copts...)
	listChanged := make(chan struct{}, 64)
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == string(mcpgo.MethodNotificationResourcesListChanged) {
			listChanged <- struct{}{}
		}
	})
	initialize(t, c)
	callAll(t, c, serveTools)
	if token != "" {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { _ = c.Listen(ctx, mcpgo.SubscriptionFilter{ResourcesListChanged: true}) }()
	}
	// Add notes until a notification comes: the listening stream may not
	// be open yet when the first one lands.
	notes := 13
	deadline := time.After(10 * time.Second)
wait:
	for {
		notes++
		if err := os.WriteFile(filepath.Join(vaultDir, fmt.Sprintf("Fresh %d.md", notes)), []byte("New.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		select {
		case <-listChanged:
			break wait
		case <-time.After(time.Second):
		case <-deadline:
			t.Errorf("no %s over HTTP after %d notes were added", mcpgo.MethodNotificationResourcesListChanged, notes-13)
			break wait
		}
	}
	// Wait for the last note too, so that the index holds them all.
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		text, _ := call(t, c, "vault_status", map[string]any{"format": "json"})
		if strings.Contains(text, fmt.Sprintf(`"notes":%d,`, notes)) {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("vault_status = %.200s after 10s, want %d notes", text, notes)
		}
	}

	// The server's own writes, with the watcher running: seen at once and
	// not processed twice.
	createThenDelete(t, c, vaultDir)

	// Stop the server while the client is still connected.
	s.stop(t) // fails if the server does not exit 0 within 15s of SIGTERM
	_ = c.Close()
	if logs := s.stderr.String(); !strings.Contains(logs, "url=http://127.0.0.1:"+port+"/mcp") || !strings.Contains(logs, fmt.Sprintf("token=%v", token != "")) {
		t.Errorf("stderr = %q, want the URL and whether a token is required", logs)
	}
	checkIndex(t, vaultDir, index, notes)
}

// waitListening waits until the server accepts connections on addr.
func waitListening(t *testing.T, s *serveProc, addr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return
		}
		select {
		case err := <-s.done:
			t.Fatalf("the server exited (%v) before listening\n%s", err, s.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s after 20s\n%s", addr, s.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
