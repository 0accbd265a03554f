package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// webGet sends GET path with the given Host, Origin and token (each
// optional) and returns the status code.
func webGet(t *testing.T, base, path, host, origin, token string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}

// TestServeWeb checks the web app's guards on a real `serve --http
// --token`: the page is public, the API needs the token, and foreign
// Host and Origin headers are refused on both (DNS rebinding).
func TestServeWeb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	env, _ := serveEnv(t)
	s := startServer(t, bin, append(env, EnvToken+"=T"), "serve", "--http", port, "--read-only", copyVault(t))
	s.start(t)
	waitListening(t, s, addr)
	base := "http://" + addr
	tests := []struct {
		desc, path, host, origin, token string
		want                            int
	}{
		{desc: "the page", path: "/", want: http.StatusOK},
		{desc: "its script", path: "/app.js", want: http.StatusOK},
		{desc: "API without token", path: "/api/status", want: http.StatusUnauthorized},
		{desc: "API with a wrong token", path: "/api/status", token: "t", want: http.StatusUnauthorized},
		{desc: "API with the token", path: "/api/status", token: "T", want: http.StatusOK},
		{desc: "a note", path: "/api/note?id=Home", token: "T", want: http.StatusOK},
		{desc: "page from localhost", path: "/api/status", origin: "http://localhost:" + port, token: "T", want: http.StatusOK},
		{desc: "foreign origin", path: "/api/status", origin: "https://evil.example", token: "T", want: http.StatusForbidden},
		{desc: "foreign host, page", path: "/", host: "evil.example:" + port, want: http.StatusForbidden},
		{desc: "foreign host, API", path: "/api/status", host: "evil.example", token: "T", want: http.StatusForbidden},
		{desc: "localhost host", path: "/", host: "localhost:" + port, want: http.StatusOK},
		{desc: "unknown API call", path: "/api/nothing", token: "T", want: http.StatusNotFound},
	}
	for _, tt := range tests {
		if got := webGet(t, base, tt.path, tt.host, tt.origin, tt.token); got != tt.want {
			t.Errorf("%s: GET %s (Host %q, Origin %q) = %d, want %d", tt.desc, tt.path, tt.host, tt.origin, got, tt.want)
		}
	}
	if code := post(t, base+"/mcp", "", "Bearer T"); code != http.StatusOK {
		t.Errorf("POST /mcp initialize = %d, want 200 (MCP stays at /mcp)", code)
	}
}

// TestOpen checks that `vaultgraph open` prints the loopback address of
// the app with a fresh token after '#', and that the token opens the API.
func TestOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := testBinary(t)
	env, _ := serveEnv(t)
	s := startServer(t, bin, env, "open", "--no-browser", copyVault(t))
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.start(t)
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	var u string
	select {
	case u = <-line:
	case <-time.After(30 * time.Second):
		t.Fatal("open printed no address within 30s")
	}
	base, token, ok := strings.Cut(u, "/#token=")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") || len(token) < 16 {
		t.Fatalf("open printed %q, want http://127.0.0.1:PORT/#token=TOKEN", u)
	}
	if code := webGet(t, base, "/api/status", "", "", ""); code != http.StatusUnauthorized {
		t.Errorf("API without the token = %d, want 401", code)
	}
	if code := webGet(t, base, "/api/status", "", "", token); code != http.StatusOK {
		t.Errorf("API with the printed token = %d, want 200", code)
	}
	s.stop(t)
}
