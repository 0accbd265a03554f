package main

// Hostile input to the built binary: malformed JSON-RPC over stdio and
// over HTTP (garbage, truncated JSON, wrong types, unknown methods, huge
// bodies), and the HTTP server's defences (loopback by default, the
// bearer token, the Origin and Host checks against DNS rebinding, the
// request size limit). After each hostile message the server must answer
// with a clear error (or ignore it) and keep serving: the next valid call
// works.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// rawStdio speaks line-delimited JSON-RPC to a server by hand.
type rawStdio struct {
	s     *serveProc
	in    io.WriteCloser
	lines chan []byte
	next  int
}

func startRawStdio(t *testing.T, bin string, args ...string) *rawStdio {
	t.Helper()
	env, _ := serveEnv(t)
	s := startServer(t, bin, env, args...)
	in, err := s.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.start(t)
	r := &rawStdio{s: s, in: in, lines: make(chan []byte, 64), next: 1000}
	go func() {
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				r.lines <- line
			}
			if err != nil {
				close(r.lines)
				return
			}
		}
	}()
	return r
}

// rpcMessage is a JSON-RPC message as the server writes it.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// send writes raw bytes (a newline is added).
func (r *rawStdio) send(t *testing.T, raw []byte) {
	t.Helper()
	if _, err := r.in.Write(append(raw, '\n')); err != nil {
		t.Fatalf("write to the server's stdin: %v\n%s", err, r.s.stderr.String())
	}
}

// read returns the next message that is not a notification, or nil when
// none comes within d.
func (r *rawStdio) read(t *testing.T, d time.Duration) *rpcMessage {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				t.Fatalf("the server closed stdout\n%s", r.s.stderr.String())
			}
			var m rpcMessage
			if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
				t.Errorf("stdout line is not a JSON-RPC message: %.300q", line)
				continue
			}
			if m.Method != "" && len(m.ID) == 0 {
				continue // a notification
			}
			return &m
		case <-deadline:
			return nil
		}
	}
}

// request sends a request with a fresh id and returns the answer to it.
func (r *rawStdio) request(t *testing.T, method string, params any) *rpcMessage {
	t.Helper()
	r.next++
	id := r.next
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	r.send(t, b)
	for {
		m := r.read(t, 30*time.Second)
		if m == nil {
			t.Fatalf("no answer to %s (id %d) within 30s\n%s", method, id, r.s.stderr.String())
		}
		if string(m.ID) == fmt.Sprint(id) {
			return m
		}
	}
}

// alive checks that the server still answers a ping and a tool call.
func (r *rawStdio) alive(t *testing.T, after string) {
	t.Helper()
	if m := r.request(t, "ping", nil); m.Error != nil {
		t.Errorf("after %s: ping = %+v", after, m.Error)
	}
	m := r.request(t, "tools/call", map[string]any{"name": "get_node", "arguments": map[string]any{"id": "Home", "format": "json", "detail": "minimal"}})
	if m.Error != nil || !strings.Contains(string(m.Result), `Home.md`) {
		t.Errorf("after %s: get_node(Home) = %s %+v", after, m.Result, m.Error)
	}
}

// hostileMessages are malformed or hostile JSON-RPC messages, one line
// each, with what the answer must be: an error with one of codes, a
// result, or nothing.
func hostileMessages() []struct {
	desc  string
	raw   []byte
	codes []int // JSON-RPC error codes allowed; nil: any answer (or none)
	tool  bool  // a tool result with isError is also fine
} {
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	big := strings.Repeat("x", 10<<20)
	return []struct {
		desc  string
		raw   []byte
		codes []int
		tool  bool
	}{
		{"garbage bytes", []byte("\x00\xff\xfe garbage \x1b[31m"), []int{-32700}, false},
		{"truncated JSON", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/li`), []int{-32700}, false},
		{"empty object", []byte(`{}`), nil, false},
		{"null", []byte(`null`), nil, false},
		{"number", []byte(`123`), nil, false},
		{"string", []byte(`"tools/list"`), nil, false},
		{"empty batch", []byte(`[]`), nil, false},
		{"batch", []byte(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`), nil, false},
		{"params a string", []byte(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":"get_node"}`), []int{-32602, -32600, -32700}, false},
		{"tool name a number", []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":123}}`), []int{-32602, -32600, -32700}, false},
		{"arguments a string", []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_node","arguments":"Home"}}`), []int{-32602, -32600, -32700}, true},
		{"id a list", []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_node","arguments":{"id":["Home"]}}}`), nil, true},
		{"depth 1e309", []byte(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_node","arguments":{"id":"Home","depth":1e309}}}`), []int{-32700, -32602, -32600}, true},
		{"limit a huge number", []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_nodes","arguments":{"limit":1e300,"page":1e300}}}`), nil, true},
		{"unknown method", []byte(`{"jsonrpc":"2.0","id":10,"method":"no/such/method"}`), []int{-32601}, false},
		{"unknown tool", []byte(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"rm_rf","arguments":{}}}`), []int{-32602, -32601}, true},
		{"jsonrpc 1.0", []byte(`{"jsonrpc":"1.0","id":12,"method":"ping"}`), nil, false},
		{"no jsonrpc", []byte(`{"id":13,"method":"ping"}`), nil, false},
		{"id an object", []byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`), nil, false},
		{"duplicate keys", []byte(`{"jsonrpc":"2.0","id":14,"id":15,"method":"ping","method":"no/such"}`), nil, false},
		{"nested 100,000 deep", []byte(`{"jsonrpc":"2.0","id":16,"method":"ping","params":` + deep + `}`), nil, false},
		{"a 10 MB argument", []byte(`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"search","arguments":{"query":"` + big + `","mode":"keyword"}}}`), nil, true},
		{"a 10 MB line of garbage", []byte(big), []int{-32700}, false},
		{"invalid UTF-8 in a string", []byte("{\"jsonrpc\":\"2.0\",\"id\":18,\"method\":\"tools/call\",\"params\":{\"name\":\"get_node\",\"arguments\":{\"id\":\"\xff\xfe\"}}}"), nil, true},
		{"path out of the vault", []byte(`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"create_node","arguments":{"title":"Evil","content":"pwned","directory":"../.."}}}`), nil, true},
		{"resource out of the vault", []byte(`{"jsonrpc":"2.0","id":20,"method":"resources/read","params":{"uri":"vaultgraph://note/..%2F..%2F..%2Fetc%2Fpasswd"}}`), []int{-32602, -32002, -32603, -32600}, false},
		{"resource file URI", []byte(`{"jsonrpc":"2.0","id":21,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}`), []int{-32602, -32002, -32603, -32600}, false},
		{"a response nobody asked for", []byte(`{"jsonrpc":"2.0","id":22,"result":{}}`), nil, false},
		{"an error nobody asked for", []byte(`{"jsonrpc":"2.0","id":23,"error":{"code":1,"message":"x"}}`), nil, false},
		{"CRLF", []byte("{\"jsonrpc\":\"2.0\",\"id\":24,\"method\":\"ping\"}\r"), nil, false},
		{"unknown notification", []byte(`{"jsonrpc":"2.0","method":"notifications/nonsense","params":{"x":1}}`), nil, false},
		{"cancel of nothing", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999999}}`), nil, false},
		{"initialize again", []byte(`{"jsonrpc":"2.0","id":25,"method":"initialize","params":{"protocolVersion":"1900-01-01","capabilities":"x","clientInfo":7}}`), nil, false},
	}
}

// TestHostileStdio sends every hostile message to `serve` over stdio,
// each followed by a ping and a tool call that must work.
func TestHostileStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	top := t.TempDir()
	vaultDir := filepath.Join(top, "vault")
	if err := os.CopyFS(vaultDir, os.DirFS(filepath.Join("..", "..", "testvault"))); err != nil {
		t.Fatal(err)
	}
	r := startRawStdio(t, bin, "serve", "--no-watch", vaultDir)
	hello := r.request(t, "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "hostile", "version": "1"},
	})
	if hello.Error != nil {
		t.Fatalf("initialize = %+v", hello.Error)
	}
	r.send(t, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	r.alive(t, "initialize")
	for _, m := range hostileMessages() {
		r.send(t, m.raw)
		var answers []*rpcMessage
		// Collect what comes back before the next ping's answer.
		r.next++
		ping := r.next
		r.send(t, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, ping))
		for {
			a := r.read(t, 60*time.Second)
			if a == nil {
				t.Fatalf("%s: no answer to the ping after it within 60s: the server hangs\n%s", m.desc, r.s.stderr.String())
			}
			if string(a.ID) == fmt.Sprint(ping) {
				break
			}
			answers = append(answers, a)
		}
		// A request with an id gets its answer, maybe after the ping's
		// (tool calls run on their own goroutines).
		if want := requestID(m.raw); want != "" && !slices.ContainsFunc(answers, func(a *rpcMessage) bool { return string(a.ID) == want }) {
			for {
				a := r.read(t, 60*time.Second)
				if a == nil {
					t.Fatalf("%s: no answer to request %s within 60s\n%s", m.desc, want, r.s.stderr.String())
				}
				answers = append(answers, a)
				if string(a.ID) == want {
					break
				}
			}
		}
		t.Logf("%s: %d answer(s)%s", m.desc, len(answers), describeAnswers(answers))
		for _, a := range answers {
			if strings.Contains(string(a.Result), "root:x:0:0") || (a.Error != nil && strings.Contains(a.Error.Message, "root:x:0:0")) {
				t.Errorf("%s: the answer shows /etc/passwd", m.desc)
			}
		}
		if m.codes != nil {
			ok := false
			for _, a := range answers {
				if a.Error != nil {
					for _, c := range m.codes {
						ok = ok || a.Error.Code == c
					}
				}
				if m.tool && a.Error == nil && strings.Contains(string(a.Result), `"isError":true`) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s: answers %s, want an error with a code in %v", m.desc, describeAnswers(answers), m.codes)
			}
		}
		r.alive(t, m.desc)
	}
	if _, err := os.Stat(filepath.Join(top, "Evil.md")); err == nil {
		t.Errorf("create_node with directory ../.. wrote OUTSIDE the vault")
	}
	if err := r.in.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-r.s.done:
		if err != nil {
			t.Errorf("after stdin closed the server exited with %v, want 0\n%s", err, r.s.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not exit within 30s of stdin closing")
	}
}

// requestID returns the id of a JSON-RPC request as JSON text, or "" for
// anything else (a notification, a response, not JSON).
func requestID(raw []byte) string {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func describeAnswers(as []*rpcMessage) string {
	var b strings.Builder
	for _, a := range as {
		if a.Error != nil {
			fmt.Fprintf(&b, " [id %s error %d %.100q]", a.ID, a.Error.Code, a.Error.Message)
		} else {
			fmt.Fprintf(&b, " [id %s result %.100s]", a.ID, a.Result)
		}
	}
	return b.String()
}

// hostileHTTP is a server started with --http on a free loopback port.
type hostileHTTP struct {
	s    *serveProc
	url  string
	port string
}

func startHostileHTTP(t *testing.T, bin, token string, args ...string) *hostileHTTP {
	t.Helper()
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	env, _ := serveEnv(t)
	if token != "" {
		env = append(env, EnvToken+"="+token)
	}
	s := startServer(t, bin, env, append([]string{"serve", "--no-watch", "--http", port}, args...)...)
	s.start(t)
	waitListening(t, s, addr)
	return &hostileHTTP{s: s, url: "http://" + addr + "/mcp", port: port}
}

// do sends one HTTP request and returns the status and the body.
func hostileDo(t *testing.T, method, url string, body io.Reader, header map[string]string, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if host != "" {
		req.Host = host
	}
	timeout := 60 * time.Second
	if method == http.MethodGet {
		timeout = 3 * time.Second // a GET that is let in opens a stream that stays open
	}
	c := &http.Client{Timeout: timeout}
	res, err := c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	if method == http.MethodGet && res.StatusCode == http.StatusOK {
		return res.StatusCode, "(stream)"
	}
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, string(b)
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}}`

// checkHTTPAlive initializes a real client and calls a tool.
func checkHTTPAlive(t *testing.T, h *hostileHTTP, token, after string) {
	t.Helper()
	var opts []transport.StreamableHTTPCOption
	if token != "" {
		opts = append(opts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	}
	tr, err := transport.NewStreamableHTTP(h.url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr)
	defer c.Close()
	initialize(t, c)
	if text, isErr := call(t, c, "get_node", map[string]any{"id": "Home", "format": "json", "detail": "minimal"}); isErr || !strings.Contains(text, "Home.md") {
		t.Errorf("after %s: get_node(Home) = %.200q", after, text)
	}
}

// TestHostileHTTPMessages posts malformed bodies to /mcp: each is a clear
// 4xx or a JSON-RPC error, never a 5xx or a dead server.
func TestHostileHTTPMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	h := startHostileHTTP(t, bin, "", copyVault(t))
	// A session for the messages that need one.
	res, err := http.Post(h.url, "application/json", strings.NewReader(initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	sid := res.Header.Get("Mcp-Session-Id")
	res.Body.Close()
	t.Logf("session %q", sid)
	withSession := map[string]string{"Mcp-Session-Id": sid}
	for _, m := range hostileMessages() {
		code, body := hostileDo(t, http.MethodPost, h.url, bytes.NewReader(m.raw), withSession, "")
		t.Logf("%s: %d %.200q", m.desc, code, body)
		if code >= 500 || code == 0 {
			t.Errorf("%s: status %d %.300q, want a 2xx or 4xx answer", m.desc, code, body)
		}
		if strings.Contains(body, "root:x:0:0") {
			t.Errorf("%s: the answer shows /etc/passwd", m.desc)
		}
		if m.codes != nil && code == http.StatusOK && !strings.Contains(body, `"error"`) && !(m.tool && strings.Contains(body, `"isError":true`)) {
			t.Errorf("%s: 200 %.300q, want an error", m.desc, body)
		}
	}
	sizes := []struct {
		desc string
		body func() io.Reader
	}{
		{"10 MB body", func() io.Reader { return strings.NewReader(strings.Repeat("x", 10<<20)) }},
		{"10 MB JSON body", func() io.Reader {
			return strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{"query":"` + strings.Repeat("y", 10<<20) + `"}}}`)
		}},
		{"10 MB chunked body", func() io.Reader { return io.MultiReader(strings.NewReader(strings.Repeat("z", 10<<20))) }}, // no length: chunked
		{"4 MB + 1 body", func() io.Reader { return strings.NewReader(strings.Repeat(" ", maxRequestBytes) + "{") }},
	}
	for _, sz := range sizes {
		code, body := hostileDo(t, http.MethodPost, h.url, sz.body(), withSession, "")
		t.Logf("%s: %d %.200q", sz.desc, code, body)
		if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "at most") {
			t.Errorf("%s: status %d %.300q, want 413 saying the limit", sz.desc, code, body)
		}
	}
	others := []struct {
		desc   string
		method string
		body   string
		header map[string]string
	}{
		{"text/plain", http.MethodPost, initializeBody, map[string]string{"Content-Type": "text/plain"}},
		{"no session", http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil},
		{"unknown session", http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Mcp-Session-Id": "nope"}},
		{"session id garbage", http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Mcp-Session-Id": strings.Repeat("\u00ff", 1000)}},
		{"GET without session", http.MethodGet, "", nil},
		{"DELETE unknown session", http.MethodDelete, "", map[string]string{"Mcp-Session-Id": "nope"}},
		{"PUT", http.MethodPut, initializeBody, nil},
		{"PATCH", http.MethodPatch, initializeBody, nil},
		{"OPTIONS", http.MethodOptions, "", nil},
		{"bad protocol version", http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "1900-01-01"}},
		{"unknown method in session", http.MethodPost, `{"jsonrpc":"2.0","id":3,"method":"no/such"}`, withSession},
		{"huge header", http.MethodPost, initializeBody, map[string]string{"X-Huge": strings.Repeat("h", 2<<20)}},
	}
	for _, o := range others {
		code, body := hostileDo(t, o.method, h.url, strings.NewReader(o.body), o.header, "")
		t.Logf("%s: %d %.200q", o.desc, code, body)
		if code >= 500 || code == 0 {
			t.Errorf("%s: status %d %.300q, want a 2xx or 4xx answer", o.desc, code, body)
		}
	}
	// Raw bytes that are not HTTP at all, and a request cut off midway.
	for _, raw := range []string{
		"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03garbage TLS hello\r\n\r\n",
		"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"",
		"GARBAGE\r\n\r\n",
		"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
		"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nffffffffff\r\n",
	} {
		conn, err := net.DialTimeout("tcp", strings.TrimSuffix(strings.TrimPrefix(h.url, "http://"), "/mcp"), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
		_, _ = conn.Write([]byte(raw))
		if c, ok := conn.(*net.TCPConn); ok {
			_ = c.CloseWrite()
		}
		b, _ := io.ReadAll(conn)
		conn.Close()
		t.Logf("raw %.40q: %.100q", raw, b)
	}
	checkHTTPAlive(t, h, "", "the hostile requests")
}

// TestHostileHTTPSecurity checks the HTTP server's defences with the real
// binary.
func TestHostileHTTPSecurity(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	t.Run("loopback by default", func(t *testing.T) {
		t.Parallel()
		for _, flag := range []string{"0", ":0"} {
			env, _ := serveEnv(t)
			s := startServer(t, bin, env, "serve", "--no-watch", "--http", flag, copyVault(t))
			s.start(t)
			var url string
			re := regexp.MustCompile(`url=(http://\S+/mcp)`)
			for start := time.Now(); url == ""; time.Sleep(20 * time.Millisecond) {
				if m := re.FindStringSubmatch(s.stderr.String()); m != nil {
					url = m[1]
				}
				if time.Since(start) > 20*time.Second {
					t.Fatalf("--http %s: no URL logged after 20s\n%s", flag, s.stderr.String())
				}
			}
			addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
			host, port, err := net.SplitHostPort(addr)
			if err != nil || host != "127.0.0.1" {
				t.Errorf("--http %s serves %s, want 127.0.0.1", flag, url)
			}
			if code := post(t, url, "", ""); code != http.StatusOK {
				t.Errorf("--http %s: POST initialize = %d, want 200", flag, code)
			}
			// Not reachable on another address of this machine.
			addrs, _ := net.InterfaceAddrs()
			for _, a := range addrs {
				ipn, ok := a.(*net.IPNet)
				if !ok || ipn.IP.IsLoopback() || ipn.IP.IsLinkLocalUnicast() {
					continue
				}
				conn, err := net.DialTimeout("tcp", net.JoinHostPort(ipn.IP.String(), port), 2*time.Second)
				if err == nil {
					conn.Close()
					t.Errorf("--http %s: the server also accepts connections on %s", flag, ipn.IP)
				}
			}
			s.stop(t)
		}
	})
	t.Run("token", func(t *testing.T) {
		t.Parallel()
		const token = "correct-horse-battery-staple-9d1f"
		h := startHostileHTTP(t, bin, token, copyVault(t))
		for _, tc := range []struct {
			desc string
			auth string
			want int
		}{
			{"missing", "", http.StatusUnauthorized},
			{"empty bearer", "Bearer ", http.StatusUnauthorized},
			{"wrong", "Bearer wrong", http.StatusUnauthorized},
			{"prefix of the token", "Bearer " + token[:len(token)-1], http.StatusUnauthorized},
			{"first byte", "Bearer " + token[:1], http.StatusUnauthorized},
			{"token plus a byte", "Bearer " + token + "x", http.StatusUnauthorized},
			{"token with a tab inside", "Bearer\t" + token, http.StatusUnauthorized},
			{"same length, last byte wrong", "Bearer " + token[:len(token)-1] + "g", http.StatusUnauthorized},
			{"no scheme", token, http.StatusUnauthorized},
			{"basic", "Basic " + token, http.StatusUnauthorized},
			{"right", "Bearer " + token, http.StatusOK},
		} {
			if code := post(t, h.url, "", tc.auth); code != tc.want {
				t.Errorf("Authorization %q (%s) = %d, want %d", tc.auth, tc.desc, code, tc.want)
			}
		}
		// The token in the URL is not a token.
		if code, _ := hostileDo(t, http.MethodPost, h.url+"?token="+token, strings.NewReader(initializeBody), nil, ""); code != http.StatusUnauthorized {
			t.Errorf("token in the query = %d, want 401", code)
		}
		// Two Authorization headers, the right one second.
		req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Add("Authorization", "Bearer wrong")
		req.Header.Add("Authorization", "Bearer "+token)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Logf("two Authorization headers (wrong, right) = %d", res.StatusCode)
			}
		}
		// GET and DELETE need the token too.
		for _, m := range []string{http.MethodGet, http.MethodDelete} {
			if code, _ := hostileDo(t, m, h.url, nil, nil, ""); code != http.StatusUnauthorized {
				t.Errorf("%s without the token = %d, want 401", m, code)
			}
		}
		checkHTTPAlive(t, h, token, "the token checks")
	})
	t.Run("origin and host", func(t *testing.T) {
		t.Parallel()
		h := startHostileHTTP(t, bin, "", copyVault(t))
		p := h.port
		for _, tc := range []struct {
			origin, host string
			want         int
		}{
			{"", "", http.StatusOK},
			{"https://evil.example", "", http.StatusForbidden},
			{"http://evil.example:" + p, "", http.StatusForbidden},
			{"null", "", http.StatusForbidden},
			{"http://localhost.evil.example:" + p, "", http.StatusForbidden},
			{"http://127.0.0.1.nip.io:" + p, "", http.StatusForbidden},
			{"http://localhost:" + p, "", http.StatusOK},
			{"http://127.0.0.1:" + p, "", http.StatusOK},
			{"http://127.0.0.1:5173", "", http.StatusOK},
			{"http://[::1]:" + p, "", http.StatusOK},
			{"", "evil.example", http.StatusForbidden},
			{"", "evil.example:" + p, http.StatusForbidden},
			{"", "127.0.0.1.nip.io:" + p, http.StatusForbidden},
			{"", "localhost.evil.example:" + p, http.StatusForbidden},
			{"", "localhost:" + p, http.StatusOK},
			{"", "127.0.0.1:" + p, http.StatusOK},
			{"", "[::1]:" + p, http.StatusOK},
			{"http://evil.example", "evil.example", http.StatusForbidden}, // a rebound page on its own name
			{"http://localhost:" + p, "evil.example", http.StatusForbidden},
		} {
			hdr := map[string]string{}
			if tc.origin != "" {
				hdr["Origin"] = tc.origin
			}
			code, body := hostileDo(t, http.MethodPost, h.url, strings.NewReader(initializeBody), hdr, tc.host)
			if code != tc.want {
				t.Errorf("Origin %q Host %q = %d %.100q, want %d", tc.origin, tc.host, code, body, tc.want)
			}
			if code == http.StatusForbidden && tc.origin != "" && tc.host == "" {
				// A refused origin also gets no CORS permission.
				if strings.Contains(body, "jsonrpc") {
					t.Errorf("Origin %q: refused but answered %.100q", tc.origin, body)
				}
			}
		}
		// GET (the notification stream) is checked as well.
		if code, _ := hostileDo(t, http.MethodGet, h.url, nil, map[string]string{"Origin": "https://evil.example"}, ""); code != http.StatusForbidden {
			t.Errorf("GET with a foreign Origin = %d, want 403", code)
		}
		if code, _ := hostileDo(t, http.MethodGet, h.url, nil, nil, "evil.example"); code != http.StatusForbidden {
			t.Errorf("GET with a foreign Host = %d, want 403", code)
		}
		checkHTTPAlive(t, h, "", "the origin checks")
	})
	t.Run("request size", func(t *testing.T) {
		t.Parallel()
		h := startHostileHTTP(t, bin, "", copyVault(t))
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("n", maxRequestBytes) + `","version":"1"}}}`
		code, text := hostileDo(t, http.MethodPost, h.url, strings.NewReader(body), nil, "")
		t.Logf("a %d-byte initialize: %d %.200q", len(body), code, text)
		if code != http.StatusRequestEntityTooLarge {
			t.Errorf("a %d-byte request = %d %.100q, want 413", len(body), code, text)
		}
		small := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("n", maxRequestBytes-1000) + `","version":"1"}}}`
		if code, text := hostileDo(t, http.MethodPost, h.url, strings.NewReader(small), nil, ""); code != http.StatusOK || strings.Contains(text, `"error"`) {
			t.Errorf("a %d-byte request (under the limit) = %d %.100q, want 200", len(small), code, text)
		}
		checkHTTPAlive(t, h, "", "the size checks")
	})
}

// TestHostileCLIPaths runs the write and read commands with paths that
// leave the vault: each fails with INVALID_PARAMS (or prints null), and
// nothing is written outside.
func TestHostileCLIPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	top := t.TempDir()
	vaultDir := filepath.Join(top, "vault")
	if err := os.CopyFS(vaultDir, os.DirFS(filepath.Join("..", "..", "testvault"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "Outside.md"), []byte("# Outside\nTOPSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(t.TempDir(), "index.db")
	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(bin, append(args, "--vault", vaultDir, "--index", index)...)
		cmd.Env = append(os.Environ(), EnvToken+"=", EnvVault+"=")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		return out.String(), errb.String(), err
	}
	for _, args := range [][]string{
		{"get-node", "../Outside"},
		{"get-node", filepath.Join(top, "Outside.md")},
		{"get-neighbors", "../Outside.md"},
		{"find-path", "../Outside", "Home"},
		{"list-nodes", "--folder", ".."},
		{"create-node", "Evil", "--directory", ".."},
		{"create-node", "Evil", "--directory", top},
		{"create-node", "../../Evil"},
		{"create-node", "CON"},
		{"create-node", strings.Repeat("x", 300), "--directory", strings.Repeat("d", 300)},
		{"update-node", "Home", "--directory", "../.."},
		{"update-node", "../Outside", "--content", "pwned"},
		{"delete-node", "../Outside"},
		{"delete-node", filepath.Join(top, "Outside.md")},
	} {
		out, errOut, err := run(args...)
		t.Logf("%q: exit %v, stdout %.100q, stderr %.200q", args, err, out, errOut)
		if strings.Contains(out, "TOPSECRET") || strings.Contains(errOut, "TOPSECRET") {
			t.Errorf("%q shows the outside file", args)
		}
		if err != nil && !strings.Contains(errOut, "INVALID_PARAMS") && !strings.Contains(errOut, "NODE_NOT_FOUND") {
			t.Errorf("%q failed without INVALID_PARAMS or NODE_NOT_FOUND: %.300q", args, errOut)
		}
		if err == nil && strings.HasPrefix(args[0], "create") && !strings.Contains(out, "Evil") && !strings.Contains(out, "xxx") {
			t.Errorf("%q succeeded: %.200q", args, out)
		}
		if err == nil && args[0] == "list-nodes" {
			t.Logf("NOTE: list-nodes --folder %s is not refused: it lists the vault's notes", args[2])
		}
	}
	b, err := os.ReadFile(filepath.Join(top, "Outside.md"))
	if err != nil || string(b) != "# Outside\nTOPSECRET\n" {
		t.Errorf("the outside file is now %q (%v)", b, err)
	}
	entries, _ := os.ReadDir(top)
	for _, e := range entries {
		if e.Name() != "vault" && e.Name() != "Outside.md" {
			t.Errorf("a command wrote %s OUTSIDE the vault", e.Name())
		}
	}
}
