package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// TestCrashGroupKill kills the server with SIGKILL while 8 clients write
// at once (creates and content updates, committed in groups), then
// starts it again: every note is as it was before its write or holds one
// of the versions written to it, never a part; every acknowledged write
// is there; no temporary file is left.
func TestCrashGroupKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it")
	}
	bin := testBinary(t)
	dir := filepath.Join(t.TempDir(), "vault")
	const clients = 8
	for i := range clients {
		p := filepath.Join(dir, fmt.Sprintf("Note %d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# Note %d\nversion 0\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	env, _ := serveEnv(t)
	s := startServer(t, bin, env, "serve", "--http", addr, "--no-watch", dir)
	s.start(t)
	waitListening(t, s, addr)

	var mu sync.Mutex
	acked := map[string]string{}     // note -> the last acknowledged text
	written := map[string][]string{} // note -> every text sent for it
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() { crashGroupClient(ctx, "http://"+addr+"/mcp", c, &mu, acked, written) })
	}
	// Kill it in the thick of the writes: once a few went through.
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 2*clients {
			break
		}
	}
	time.Sleep(time.Duration(time.Now().UnixNano()%200) * time.Millisecond)
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.done
	cancel()
	wg.Wait()

	// The next start repairs what the kill left.
	out, errOut, code := runCLI(t, "vault-status", "--vault", dir, "--index", filepath.Join(t.TempDir(), "after.db"))
	if code != 0 {
		t.Fatalf("vault-status after the kill: %s %s", out, errOut)
	}
	files := map[string]string{}
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".vaultgraph/") {
			return nil
		}
		if strings.HasPrefix(d.Name(), commit.TempPrefix) || strings.HasPrefix(d.Name(), commit.BackupPrefix) {
			t.Errorf("left behind after the restart: %s", rel)
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(acked) == 0 {
		t.Fatalf("no write was acknowledged before the kill")
	}
	for id, text := range files {
		versions := written[id]
		if strings.HasPrefix(id, "Note ") {
			versions = append(versions, fmt.Sprintf("# Note %s\nversion 0\n", strings.TrimSuffix(strings.TrimPrefix(id, "Note "), ".md")))
		}
		if !containsWhole(text, versions) {
			t.Errorf("%s = %q: neither its old text nor one that was written", id, text)
		}
	}
	for id, text := range acked {
		if got, ok := files[id]; !ok || !strings.Contains(got, text) && !laterVersion(got, written[id], text) {
			t.Errorf("acknowledged write of %s lost: %q, want %q", id, got, text)
		}
	}
	t.Logf("crash-group: %d writes acknowledged before the kill", len(acked))
}

// crashGroupClient creates notes and rewrites its own note until ctx
// ends or the server goes, recording what it sent and what was
// acknowledged.
func crashGroupClient(ctx context.Context, url string, n int, mu *sync.Mutex, acked map[string]string, written map[string][]string) {
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return
	}
	c := client.NewClient(tr)
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		return
	}
	own := fmt.Sprintf("Note %d.md", n)
	for i := 1; ctx.Err() == nil; i++ {
		req := mcpgo.CallToolRequest{}
		var id, text string
		if i%2 == 0 {
			id, text = own, fmt.Sprintf("version %d\n", i)
			req.Params.Name, req.Params.Arguments = "update_node", map[string]any{"id": own, "content": "# Note " + fmt.Sprint(n) + "\n" + text}
		} else {
			id, text = fmt.Sprintf("G/Made %d-%d.md", n, i), fmt.Sprintf("made by %d at %d\n", n, i)
			req.Params.Name, req.Params.Arguments = "create_node", map[string]any{"title": fmt.Sprintf("Made %d-%d", n, i), "directory": "G", "content": text}
		}
		mu.Lock()
		written[id] = append(written[id], text)
		mu.Unlock()
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			return // the server is gone
		}
		mu.Lock()
		acked[id] = text
		mu.Unlock()
	}
}

// containsWhole reports whether text is one of versions, or ends with one
// of them whole (a note's body after its heading or frontmatter).
func containsWhole(text string, versions []string) bool {
	for _, v := range versions {
		if text == v || strings.HasSuffix(text, "\n"+v) || strings.HasSuffix(text, v) && strings.Count(text, v) == 1 {
			return true
		}
	}
	return false
}

// laterVersion reports whether text holds a version written after want.
func laterVersion(text string, versions []string, want string) bool {
	after := false
	for _, v := range versions {
		if v == want {
			after = true
			continue
		}
		if after && strings.Contains(text, v) {
			return true
		}
	}
	return false
}
