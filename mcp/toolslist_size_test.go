package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/tiktoken-go/tokenizer"
)

// TestToolsListSize reports what the tool definitions cost an agent's
// context on every turn: the bytes of the tools/list result and its
// o200k tokens, in all and per tool (go test -v -run ToolsListSize), with
// the write tools and without them (a read-only server).
func TestToolsListSize(t *testing.T) {
	ts := newTestServer(t)
	res, err := ts.client.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, allTools) {
		t.Fatalf("tools/list = %q, want %q", names, allTools)
	}

	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	measure := func(v any) (bytes, tokens int) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		n, err := enc.Count(string(b))
		if err != nil {
			t.Fatal(err)
		}
		return len(b), n
	}
	for _, tool := range res.Tools {
		b, n := measure(tool)
		t.Logf("%-15s %5d bytes %4d tokens", tool.Name, b, n)
	}
	b, n := measure(map[string]any{"tools": res.Tools})
	t.Logf("tools/list      %5d bytes %4d tokens (o200k_base, compact JSON)", b, n)
	var read []mcpgo.Tool
	for _, tool := range res.Tools {
		if slices.Contains(readTools, tool.Name) {
			read = append(read, tool)
		}
	}
	b, n = measure(map[string]any{"tools": read})
	t.Logf("read-only       %5d bytes %4d tokens (the %d read tools)", b, n, len(read))
}
