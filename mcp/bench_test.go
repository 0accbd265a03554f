package mcp

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// BenchmarkTools measures each tool's latency through the in-process MCP
// client (argument binding, the Engine, rendering the answer in the tool's
// default format, or JSON for the _json cases, and the client's decoding)
// on a generated 10,000-note vault (seed 1), and reports the median and
// 99th percentile of the calls besides the mean:
//
//	go test -run '^$' -bench Tools -benchtime 2000x ./mcp
func BenchmarkTools(b *testing.B) {
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 10_000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(b.TempDir(), "index.db")})
	if err := e.Open(ctx); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	c, err := client.NewInProcessClient(NewServer(&Tools{Engine: e, Rand: rand.New(rand.NewPCG(1, 2))}, ServerOptions{}))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		b.Fatal(err)
	}

	// Arguments drawn from the vault: notes in a fixed pseudo-random order,
	// the top hub, the most used tag and folder.
	all, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: vaultgraph.MaxListLimit})
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for page := 1; page <= all.TotalPages; page++ {
		res, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: vaultgraph.MaxListLimit, Page: page})
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range res.Nodes {
			ids = append(ids, n.ID)
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	top, err := e.HubsPage(ctx, graph.InDegree, vaultgraph.PageQuery{Limit: 1})
	if err != nil || len(top.Hubs) == 0 {
		b.Fatalf("HubsPage = %v, %v", top, err)
	}
	hubs := top.Hubs
	tags, err := e.ListTags(ctx)
	if err != nil || len(tags) == 0 {
		b.Fatalf("ListTags = %v, %v", tags, err)
	}
	folder := filepath.ToSlash(filepath.Dir(hubs[0].ID))
	note := func(i int) string { return ids[i%len(ids)] }

	benches := []struct {
		name string
		tool string
		args func(i int) map[string]any
	}{
		{"get_node", "get_node", func(i int) map[string]any { return map[string]any{"id": note(i)} }},
		{"get_node_json", "get_node", func(i int) map[string]any { return map[string]any{"id": note(i), "format": "json"} }},
		{"get_node_depth1", "get_node", func(i int) map[string]any { return map[string]any{"id": note(i), "depth": 1} }},
		{"get_node_hub_depth1", "get_node", func(int) map[string]any { return map[string]any{"id": hubs[0].ID, "depth": 1} }},
		{"get_neighbors", "get_neighbors", func(i int) map[string]any { return map[string]any{"id": note(i)} }},
		{"get_neighbors_hub", "get_neighbors", func(int) map[string]any { return map[string]any{"id": hubs[0].ID, "limit": 50} }},
		{"find_path", "find_path", func(i int) map[string]any {
			return map[string]any{"source": note(2 * i), "target": note(2*i + 1)}
		}},
		{"get_hubs_in_degree", "get_hubs", func(int) map[string]any { return map[string]any{"limit": 10} }},
		{"get_hubs_pagerank", "get_hubs", func(int) map[string]any { return map[string]any{"metric": "pagerank", "limit": 10} }},
		{"search_by_tags", "search_by_tags", func(int) map[string]any { return map[string]any{"tags": []string{tags[0].Tag}} }},
		{"list_nodes", "list_nodes", func(i int) map[string]any { return map[string]any{"page": 1 + i%10} }},
		{"list_nodes_json", "list_nodes", func(i int) map[string]any { return map[string]any{"page": 1 + i%10, "format": "json"} }},
		{"list_nodes_max_tokens", "list_nodes", func(i int) map[string]any { return map[string]any{"page": 1 + i%10, "maxTokens": 500} }},
		{"list_nodes_sorted", "list_nodes", func(int) map[string]any {
			return map[string]any{"folder": folder, "sortBy": []string{"-inDegree", "title"}}
		}},
		{"list_tags", "list_tags", func(int) map[string]any { return nil }},
		{"random_node", "random_node", func(int) map[string]any { return nil }},
		{"vault_status", "vault_status", func(int) map[string]any { return nil }},
	}
	for _, bb := range benches {
		b.Run(bb.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			nulls := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req := mcpgo.CallToolRequest{}
				req.Params.Name = bb.tool
				req.Params.Arguments = bb.args(i)
				start := time.Now()
				res, err := c.CallTool(ctx, req)
				lat = append(lat, time.Since(start))
				if err != nil || res.IsError {
					b.Fatalf("%s(%v) = %v, %v", bb.tool, req.Params.Arguments, res, err)
				}
				if text, ok := mcpgo.AsTextContent(res.Content[0]); ok && text.Text == "null" {
					nulls++
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "p50-µs")
			b.ReportMetric(float64(lat[(len(lat)*99)/100].Nanoseconds())/1e3, "p99-µs")
			if nulls > 0 { // e.g. find_path between notes with no path
				b.ReportMetric(100*float64(nulls)/float64(b.N), "null-%")
			}
		})
	}
}
