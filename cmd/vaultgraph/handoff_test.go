package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/mcp"
)

// handoffReads are read commands whose answer must not depend on which
// process answers it.
var handoffReads = [][]string{
	{"get-node", "Home", "--depth", "1"},
	{"get-node", "Home", "--detail", "full", "--format", "json"},
	{"get-neighbors", "Home", "--direction", "in", "--limit", "3"},
	{"find-path", "Deep Note", "東京 Trip"},
	{"get-hubs", "--metric", "pagerank", "--limit", "5"},
	{"get-hubs", "--sort-by", "-title", "--detail", "minimal"},
	{"list-tags", "--limit", "4"},
	{"list-nodes", "--folder", "Projects", "--sort-by", "-created"},
	{"list-nodes", "--orphans", "--max-tokens", "60"},
	{"list-nodes", "--property", "status=active"},
	{"search-by-tags", "project", "--mode", "all"},
	{"search", "cafe", "--embed", "none"},
	{"search", "meeting", "notes", "--embed", "none", "--mode", "keyword", "--format", "markdown"},
	{"get-node", "no such note"},
	{"get-node", "Home", "--depth", "7"}, // INVALID_PARAMS
	{"get-hubs", "--metric", "nonsense"}, // INVALID_PARAMS
	{"list-nodes", "--sort-by", "bogus"}, // INVALID_PARAMS
	{"vault-status", "--fields", "notes,links,brokenLinks,brokenAnchors,tags"},
}

// runCmd runs a command line and returns its stdout, stderr and status.
func runCmd(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return out.String() + "\nstderr: " + errb.String() + "\nexit: " + string(rune('0'+code))
}

// startInProcessServer runs `serve` on vault and index in this process
// until the test ends, and waits for its socket.
func startInProcessServer(t *testing.T, vaultDir, index string, extra ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdin, hold := io.Pipe()
	done := make(chan int, 1)
	go func() {
		args := append([]string{"serve", vaultDir, "--index", index, "--no-watch"}, extra...)
		done <- runWith(ctx, args, runOptions{stdin: stdin}, io.Discard, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		hold.Close()
		<-done
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(socketPath(index)); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the server made no socket within 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkHandoffSame runs every read with no server and then through a
// server, and compares the answers byte for byte.
func checkHandoffSame(t *testing.T, vaultDir string, reads [][]string) {
	index := filepath.Join(t.TempDir(), "index.db")
	direct := make([]string, len(reads))
	for i, a := range reads {
		direct[i] = runCmd(t, append(a, "--vault", vaultDir, "--index", index)...)
	}
	startInProcessServer(t, vaultDir, index, "--embed", "none")
	for i, a := range reads {
		got := runCmd(t, append(a, "--vault", vaultDir, "--index", index)...)
		if got != direct[i] {
			t.Errorf("%v handed to the server:\n%s\nwant (read directly):\n%s", a, got, direct[i])
		}
	}
	// And the server did answer (rather than the command falling back).
	text, err := handOff(context.Background(), index, vaultRoot(vaultDir), "list_tags", "", mcp.ListTagsParams{Paging: mcp.Paging{Limit: 2}}, mcp.Presentation{})
	if err != nil || !strings.HasPrefix(text, "tags[2]") {
		t.Errorf("handOff(list_tags) = %q, %v; want the server's answer", text, err)
	}
}

func TestHandoffSameAnswers(t *testing.T) {
	checkHandoffSame(t, copyVault(t), handoffReads)
}

func TestHandoffSameAnswersGenerated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gen")
	if out := runCmd(t, "gen", dir, "--notes", "400", "--seed", "3"); !strings.HasSuffix(out, "exit: 0") {
		t.Fatalf("gen: %s", out)
	}
	reads := [][]string{
		{"get-hubs", "--limit", "10", "--detail", "full"},
		{"get-hubs", "--metric", "pagerank", "--limit", "20"},
		{"get-hubs", "--metric", "out_degree", "--page", "3"},
		{"list-tags", "--limit", "50"},
		{"list-nodes", "--broken-links", "--limit", "30"},
		{"list-nodes", "--sort-by", "-inDegree,title", "--limit", "40", "--detail", "full"},
		{"vault-status", "--fields", "notes,links,brokenLinks,brokenAnchors,tags,attachments,duplicateNames,problems"},
	}
	checkHandoffSame(t, dir, reads)
}

// TestHandoffDeclines checks the requests a server leaves to the command:
// no server, another vault, another embedding model, another protocol.
func TestHandoffDeclines(t *testing.T) {
	v := copyVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	ctx := context.Background()
	if _, err := handOff(ctx, index, vaultRoot(v), "list_tags", "", mcp.ListTagsParams{}, mcp.Presentation{}); !errors.Is(err, errDeclined) {
		t.Errorf("handOff with no server = %v, want errDeclined", err)
	}
	startInProcessServer(t, v, index, "--embed", "none")
	for _, c := range []struct {
		desc, vault, tool, embed string
	}{
		{"another vault", t.TempDir(), "list_tags", ""},
		{"another model", vaultRoot(v), "search", "builtin "},
		{"another model, related notes", vaultRoot(v), "get_related", "builtin "},
		{"a write", vaultRoot(v), "delete_node", ""},
	} {
		if _, err := handOff(ctx, index, c.vault, c.tool, c.embed, map[string]any{"id": "Home", "query": "x"}, mcp.Presentation{}); !errors.Is(err, errDeclined) {
			t.Errorf("%s: handOff = %v, want errDeclined", c.desc, err)
		}
	}
	if _, err := os.Stat(filepath.Join(v, "Home.md")); err != nil {
		t.Errorf("a declined delete deleted: %v", err)
	}
	h := &handoffServer{root: "/v"}
	if a := h.answer(ctx, handoffRequest{V: 99, Vault: "/v", Tool: "list_tags"}); a.Decline == "" {
		t.Errorf("answer to protocol 99 = %+v, want a decline", a)
	}
}

// TestSocketMode checks that the socket gives the index's readers access.
func TestSocketMode(t *testing.T) {
	for _, c := range []struct {
		give, want os.FileMode
	}{
		{0o644, 0o666},
		{0o640, 0o660},
		{0o600, 0o600},
		{0o400, 0o600},
	} {
		p := filepath.Join(t.TempDir(), "index.db")
		if err := os.WriteFile(p, nil, c.give); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, c.give); err != nil {
			t.Fatal(err)
		}
		if got := socketMode(p); got != c.want {
			t.Errorf("socketMode(%o) = %o, want %o", c.give, got, c.want)
		}
	}
}
