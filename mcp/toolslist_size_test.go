package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/tiktoken-go/tokenizer"
)

// Token budgets of tools/list (o200k_base, compact JSON): what the tool
// definitions cost an agent's context in every conversation.
const (
	// ToolsListBudget is the whole list's budget for the thirteen tools
	// vaultgraph first had (issue 16: at most 2,000, with every parameter
	// described; they measure about 1,800).
	ToolsListBudget = 2000
	// AddedToolBudget is what each tool added since may cost, alone and
	// on top of ToolsListBudget, so that new tools stay lean too.
	AddedToolBudget = 170
)

// originalTools are the thirteen tools ToolsListBudget is for.
var originalTools = []string{
	"create_node", "delete_node", "find_path", "get_hubs", "get_neighbors", "get_node", "list_nodes",
	"list_tags", "random_node", "search", "search_by_tags", "update_node", "vault_status",
}

// TestToolsListSize measures what the tool definitions cost an agent's
// context on every turn: the bytes of the tools/list result and its o200k
// tokens, in all and per tool (go test -v -run ToolsListSize), with the
// write tools and without them (a read-only server). The whole list must
// fit ToolsListBudget plus AddedToolBudget per added tool, and each added
// tool AddedToolBudget.
func TestToolsListSize(t *testing.T) {
	ts := newTestServer(t)
	res, err := ts.client.ListTools(context.Background(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
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
	var names []string
	added := 0
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		b, n := measure(tool)
		t.Logf("%-15s %5d bytes %4d tokens", tool.Name, b, n)
		if !slices.Contains(originalTools, tool.Name) {
			added++
			if n > AddedToolBudget {
				t.Errorf("%s costs %d tokens in tools/list, want at most %d: shorten its descriptions", tool.Name, n, AddedToolBudget)
			}
		}
	}
	for _, name := range originalTools {
		if !slices.Contains(names, name) {
			t.Errorf("tools/list lacks %s", name)
		}
	}
	b, n := measure(map[string]any{"tools": res.Tools})
	t.Logf("tools/list      %5d bytes %4d tokens (o200k_base, compact JSON)", b, n)
	if budget := ToolsListBudget + added*AddedToolBudget; n > budget {
		t.Errorf("tools/list = %d tokens, want at most %d (%d for the first 13 tools + %d for each of %d added)",
			n, budget, ToolsListBudget, AddedToolBudget, added)
	}
	var read []mcpgo.Tool
	for _, tool := range res.Tools {
		if tool.Annotations.ReadOnlyHint != nil && *tool.Annotations.ReadOnlyHint {
			read = append(read, tool)
		}
	}
	b, n = measure(map[string]any{"tools": read})
	t.Logf("read-only       %5d bytes %4d tokens (the %d read tools)", b, n, len(read))
}
