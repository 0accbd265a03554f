package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// newTools opens an Engine over dir and returns the tools over it.
func newTools(t testing.TB, dir string) *mcp.Tools {
	t.Helper()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return &mcp.Tools{Engine: e, Rand: rand.New(rand.NewPCG(1, 2))}
}

func testVaultTools(t testing.TB) *mcp.Tools { return newTools(t, filepath.Join("..", "testvault")) }

// writeVault writes files (vault path -> content) into a new temporary
// vault and returns its folder.
func writeVault(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, files)
	return dir
}

// wideVault has a Hub note linked by 60 notes tagged #many.
func wideVault(t testing.TB) string {
	t.Helper()
	files := map[string]string{"Hub.md": "# Hub\n"}
	for i := 1; i <= 60; i++ {
		files[fmt.Sprintf("Many/N%02d.md", i)] = "Points at [[Hub]]. #many\n"
	}
	return writeVault(t, files)
}

func TestParamValidation(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	tests := []struct {
		desc string
		give func() (any, error)
	}{
		{"get_node empty id", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{}) }},
		{"get_node blank id", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: " \t"}) }},
		{"get_node depth 2", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: "Home", Depth: 2}) }},
		{"get_node depth -1", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: "Home", Depth: -1}) }},
		{"get_node ..", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: "../x"}) }},
		{"get_node absolute", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: "/etc/passwd"}) }},
		{"get_neighbors empty id", func() (any, error) { return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{}) }},
		{"get_neighbors direction up", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Direction: "up"})
		}},
		{"get_neighbors limit 51", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{Limit: 51}})
		}},
		{"get_neighbors limit -1", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{Limit: -1}})
		}},
		{"get_neighbors ..", func() (any, error) { return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "../Home"}) }},
		{"find_path empty source", func() (any, error) { return tools.FindPath(ctx, mcp.FindPathParams{Target: "Home"}) }},
		{"find_path empty target", func() (any, error) { return tools.FindPath(ctx, mcp.FindPathParams{Source: "Home"}) }},
		{"find_path absolute", func() (any, error) {
			return tools.FindPath(ctx, mcp.FindPathParams{Source: "Home", Target: "/abs"})
		}},
		{"get_hubs unknown metric", func() (any, error) { return tools.GetHubs(ctx, mcp.GetHubsParams{Metric: "betweenness"}) }},
		{"get_hubs limit 51", func() (any, error) { return tools.GetHubs(ctx, mcp.GetHubsParams{Paging: mcp.Paging{Limit: 51}}) }},
		{"search_by_tags no tags", func() (any, error) { return tools.SearchByTags(ctx, mcp.SearchByTagsParams{}) }},
		{"search_by_tags blank tags", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"", "  "}})
		}},
		{"search_by_tags mode some", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Mode: "some"})
		}},
		{"search_by_tags limit 101", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Paging: mcp.Paging{Limit: 101}})
		}},
		{"list_nodes bad createdAfter", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{CreatedAfter: "yesterday"})
		}},
		{"list_nodes bad createdBefore", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{CreatedBefore: "2024-13-01"})
		}},
		{"list_nodes bad modifiedAfter", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{ModifiedAfter: "01/02/2024"})
		}},
		{"list_nodes bad modifiedBefore", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{ModifiedBefore: "2024-02-30"})
		}},
		{"list_nodes unknown sortBy", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{SortBy: []string{"-modified", "size"}}})
		}},
		{"list_nodes limit 101", func() (any, error) { return tools.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{Limit: 101}}) }},
		{"list_nodes page -1", func() (any, error) { return tools.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{Page: -1}}) }},
		{"list_nodes tag mode some", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{Tags: []string{"x"}, TagMode: "some"})
		}},
		{"get_neighbors page -1", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{Page: -1}})
		}},
		{"get_neighbors unknown sortBy", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{SortBy: mcp.SortKeys{"size"}}})
		}},
		{"search_by_tags page -1", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Paging: mcp.Paging{Page: -1}})
		}},
		{"search_by_tags unknown sortBy", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Paging: mcp.Paging{SortBy: mcp.SortKeys{"-size"}}})
		}},
		{"list_tags limit 1001", func() (any, error) { return tools.ListTags(ctx, mcp.ListTagsParams{Paging: mcp.Paging{Limit: 1001}}) }},
		{"list_tags page -1", func() (any, error) { return tools.ListTags(ctx, mcp.ListTagsParams{Paging: mcp.Paging{Page: -1}}) }},
		{"list_tags unknown sortBy", func() (any, error) {
			return tools.ListTags(ctx, mcp.ListTagsParams{Paging: mcp.Paging{SortBy: mcp.SortKeys{"title"}}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := tt.give()
			if err == nil {
				t.Fatalf("got %v, nil error, want INVALID_PARAMS", got)
			}
			if code := mcp.Code(err); code != mcp.CodeInvalidParams {
				t.Errorf("Code(%v) = %s, want %s", err, code, mcp.CodeInvalidParams)
			}
			if got != nil {
				t.Errorf("got %v with error %v, want nil", got, err)
			}
		})
	}
}

func TestValidParams(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	tests := []struct {
		desc string
		give func() (any, error)
	}{
		{"get_node depth 1", func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: "Home", Depth: 1}) }},
		{"get_neighbors limit 50", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Direction: "in", Paging: mcp.Paging{Limit: 50}})
		}},
		{"get_hubs pagerank limit 50", func() (any, error) {
			return tools.GetHubs(ctx, mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 50}})
		}},
		{"search_by_tags all, limit 100", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Mode: "all", Paging: mcp.Paging{Limit: 100}})
		}},
		{"list_nodes dates", func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{
				CreatedAfter: "2020-01-01", CreatedBefore: "2030-01-01T10:00", ModifiedAfter: "2000-01-01T00:00:00Z",
				Paging: mcp.Paging{Limit: 100},
			})
		}},
		{"get_neighbors sorted, page 2", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{SortBy: mcp.SortKeys{"-title"}, Page: 2, Limit: 2}})
		}},
		{"search_by_tags sorted", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Paging: mcp.Paging{SortBy: mcp.SortKeys{"-modified", "title"}}})
		}},
		{"list_tags", func() (any, error) { return tools.ListTags(ctx, mcp.ListTagsParams{}) }},
		{"list_tags by tag, limit 1000", func() (any, error) {
			return tools.ListTags(ctx, mcp.ListTagsParams{Paging: mcp.Paging{SortBy: mcp.SortKeys{"tag"}, Limit: vaultgraph.MaxTagListLimit}})
		}},
		{"random_node", func() (any, error) { return tools.RandomNode(ctx, mcp.RandomNodeParams{}) }},
		{"vault_status", func() (any, error) { return tools.VaultStatus(ctx, mcp.VaultStatusParams{}) }},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := tt.give()
			if err != nil || got == nil {
				t.Errorf("got %v, %v, want a result", got, err)
			}
		})
	}
}

func TestDefaultLimits(t *testing.T) {
	tools := newTools(t, wideVault(t))
	ctx := context.Background()
	tests := []struct {
		desc      string
		give      func() (any, error)
		wantLen   int
		wantTotal int
		wantPages int // totalPages
		wantHint  string
	}{
		{
			desc:    "neighbors default 20",
			give:    func() (any, error) { return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Hub"}) },
			wantLen: 20, wantTotal: 60, wantPages: 3, wantHint: "page 1 of 3: pass page: 2 for more",
		},
		{
			desc: "neighbors max 50",
			give: func() (any, error) {
				return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Hub", Paging: mcp.Paging{Limit: 50}})
			},
			wantLen: 50, wantTotal: 60, wantPages: 2, wantHint: "page 1 of 2: pass page: 2 for more",
		},
		{
			desc: "neighbors last page",
			give: func() (any, error) {
				return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Hub", Paging: mcp.Paging{Limit: 50, Page: 2}})
			},
			wantLen: 10, wantTotal: 60, wantPages: 2,
		},
		{
			desc:    "search_by_tags default 20",
			give:    func() (any, error) { return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"many"}}) },
			wantLen: 20, wantTotal: 60, wantPages: 3, wantHint: "page 1 of 3: pass page: 2 for more",
		},
		{
			desc: "search_by_tags max 100",
			give: func() (any, error) {
				return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"many"}, Paging: mcp.Paging{Limit: 100}})
			},
			wantLen: 60, wantTotal: 60, wantPages: 1,
		},
		{
			desc:    "list_nodes default 20",
			give:    func() (any, error) { return tools.ListNodes(ctx, mcp.ListNodesParams{}) },
			wantLen: 20, wantTotal: 61, wantPages: 4, wantHint: "page 1 of 4: pass page: 2 for more",
		},
		{
			desc:    "list_nodes last page",
			give:    func() (any, error) { return tools.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{Page: 4}}) },
			wantLen: 1, wantTotal: 61, wantPages: 4,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := tt.give()
			if err != nil {
				t.Fatal(err)
			}
			res, ok := got.(*mcp.ListResponse)
			if !ok {
				t.Fatalf("got %T, want *mcp.ListResponse", got)
			}
			if len(res.Nodes) != tt.wantLen || res.Total != tt.wantTotal || res.TotalPages != tt.wantPages {
				t.Errorf("got %d nodes of %d on %d pages, want %d of %d on %d", len(res.Nodes), res.Total, res.TotalPages, tt.wantLen, tt.wantTotal, tt.wantPages)
			}
			if res.Hint = mcp.Say(res.Hint, false); res.Hint != tt.wantHint {
				t.Errorf("Hint = %q, want %q", res.Hint, tt.wantHint)
			}
		})
	}
	t.Run("hubs default 10", func(t *testing.T) {
		got, err := tools.GetHubs(ctx, mcp.GetHubsParams{})
		hubs, _ := got.(*mcp.ListResponse)
		// total is every ranked note (scoring above 0), not the rows of
		// the page: only Hub.md is linked to.
		if err != nil || hubs == nil || len(hubs.Nodes) != 1 || hubs.Total != 1 || hubs.Page != 1 || hubs.TotalPages != 1 ||
			hubs.Hint != "the in_degree ranking ends here; the 60 unranked notes score 0" || hubs.Metric != "in_degree" ||
			hubs.Nodes[0].ID != "Hub.md" || hubs.Nodes[0].Score == nil || *hubs.Nodes[0].Score != 60 {
			t.Errorf("GetHubs() = %+v, %v, want Hub.md alone with 60, and the hint that the ranking ends", got, err)
		}
		for _, n := range hubs.Nodes {
			if n.Score == nil {
				t.Errorf("hub %s has no score", n.ID)
			}
		}
	})
	t.Run("hubs last page", func(t *testing.T) {
		got, err := tools.GetHubs(ctx, mcp.GetHubsParams{Metric: "out_degree", Paging: mcp.Paging{Page: 7}})
		hubs, _ := got.(*mcp.ListResponse)
		if err != nil || hubs == nil || len(hubs.Nodes) != 0 || hubs.Total != 60 || hubs.Page != 7 || hubs.TotalPages != 6 ||
			!strings.Contains(hubs.Hint, "ranking ends here; the 1 unranked notes score 0") {
			t.Errorf("GetHubs(out_degree, page 7) = %+v, %v, want no rows of 60 and the hint that the ranking ends", got, err)
		}
	})
	t.Run("hubs limit 50", func(t *testing.T) {
		got, err := tools.GetHubs(ctx, mcp.GetHubsParams{Metric: "out_degree", Paging: mcp.Paging{Limit: 50}})
		hubs, _ := got.(*mcp.ListResponse)
		if err != nil || hubs == nil || len(hubs.Nodes) != 50 || hubs.Metric != "out_degree" {
			t.Errorf("GetHubs(out_degree, 50) = %+v, %v, want 50 out_degree hubs", got, err)
		}
	})
	t.Run("get_node neighbours capped at 20", func(t *testing.T) {
		got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Hub", Depth: 1})
		r, _ := got.(*mcp.NodeResponse)
		if err != nil || r == nil || len(r.Neighbors) != 20 || r.IncomingCount == nil || *r.IncomingCount != 60 || *r.OutgoingCount != 0 {
			t.Fatalf("GetNode(Hub, depth 1) = %+v, %v, want 20 neighbours and 60 in, 0 out", r, err)
		}
		// The answer says how many there are and which call gives the rest.
		if want := "20 of 60 linked notes shown: get_neighbors with page: 2 gives the next ones"; mcp.Say(r.Hint, false) != want {
			t.Errorf("hint = %q, want %q", mcp.Say(r.Hint, false), want)
		}
		if want := "20 of 60 linked notes shown: get-neighbors with --page 2 gives the next ones"; mcp.Say(r.Hint, true) != want {
			t.Errorf("hint on the command line = %q, want %q", mcp.Say(r.Hint, true), want)
		}
		text, err := mcp.Render("get_node", got, mcp.Presentation{Format: mcp.FormatJSON})
		if err != nil || !strings.Contains(text, `"hint":"20 of 60 linked notes shown`) {
			t.Errorf("get_node Hub depth 1 (JSON) = %.300s, %v, want the hint", text, err)
		}
		few, _ := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Many/N01", Depth: 1})
		if r, _ := few.(*mcp.NodeResponse); r == nil || r.Hint != "" {
			t.Errorf("GetNode(Many/N01, depth 1) = %+v, want no hint (all its neighbours shown)", few)
		}
	})
	t.Run("list_tags paged", func(t *testing.T) {
		got, err := tools.ListTags(ctx, mcp.ListTagsParams{})
		tags, _ := got.(*mcp.TagsResponse)
		if err != nil || tags == nil || tags.Total != 1 || len(tags.Tags) != 1 || tags.Tags[0].Tag != "many" || tags.Tags[0].Count != 60 ||
			tags.Page != 1 || tags.TotalPages != 1 || tags.Hint != "" {
			t.Errorf("ListTags() = %+v, %v, want one page with many (60)", got, err)
		}
	})
}

func TestGetNodeResponse(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()

	got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Projects/Alpha Plan", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := got.(*mcp.NodeResponse)
	if !ok || r == nil {
		t.Fatalf("GetNode = %T, want *mcp.NodeResponse", got)
	}
	if r.ID != "Projects/Alpha Plan.md" || r.Title != "Alpha Plan" || r.Content == nil || !strings.HasPrefix(*r.Content, "# Alpha Plan") {
		t.Errorf("GetNode = %+v, want Projects/Alpha Plan.md with its content", r)
	}
	if *r.IncomingCount != 2 || *r.OutgoingCount != 3 || r.InDegree != 2 || r.OutDegree != 3 {
		t.Errorf("incoming, outgoing = %d, %d (degrees %d, %d), want 2, 3", *r.IncomingCount, *r.OutgoingCount, r.InDegree, r.OutDegree)
	}
	var nbs []string
	for _, nb := range r.Neighbors {
		nbs = append(nbs, nb.Direction+":"+nb.ID)
		if nb.Content == nil || *nb.Content == "" || nb.Warnings != nil {
			t.Errorf("neighbour %s: content %v, warnings %q, want content and no warnings", nb.ID, nb.Content, nb.Warnings)
		}
	}
	if want := []string{"both:Projects/Beta.md", "both:Home.md", "out:Notes/Meeting Notes.md"}; !slices.Equal(nbs, want) {
		t.Errorf("neighbours = %q, want %q", nbs, want)
	}

	// The data keeps every field; the presentation picks them.
	var buf bytes.Buffer
	if err := mcp.WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &raw); err != nil {
		t.Fatalf("WriteJSON wrote invalid JSON: %v\n%s", err, buf.String())
	}
	wantProps := `{"status":"active","created":"2024-03-01","priority":2,"done":false,"related":"[[Beta]]"}`
	if got := compact(t, raw["properties"]); got != wantProps {
		t.Errorf("properties = %s, want %s (file order)", got, wantProps)
	}
	if got := compact(t, raw["aliases"]); got != `["Alpha","AP"]` {
		t.Errorf("aliases = %s, want [\"Alpha\",\"AP\"]", got)
	}

	t.Run("rendered, full detail", func(t *testing.T) {
		_, full := objectFields(t, answerJSON(t, "get_node", r, mcp.Presentation{Detail: mcp.DetailFull}))
		if got := compact(t, full["properties"]); got != wantProps {
			t.Errorf("properties = %s, want %s (file order)", got, wantProps)
		}
		if got := compact(t, full["aliases"]); got != `["Alpha","AP"]` {
			t.Errorf("aliases = %s, want [\"Alpha\",\"AP\"]", got)
		}
		for _, k := range []string{"created", "modified", "size", "hash", "inDegree", "outDegree", "links"} {
			if _, ok := full[k]; !ok {
				t.Errorf("full detail has no %s: %s", k, full)
			}
		}
	})
	t.Run("rendered, standard detail", func(t *testing.T) {
		got, std := objectFields(t, answerJSON(t, "get_node", r, mcp.Presentation{}))
		want := []string{"id", "title", "tags", "hash", "content", "incomingCount", "outgoingCount", "neighbors"}
		if !slices.Equal(got, want) {
			t.Errorf("standard get_node keys = %q, want %q", got, want)
		}
		// Neighbours are rows: content but no properties, hash or dates.
		var rows []json.RawMessage
		if err := json.Unmarshal(std["neighbors"], &rows); err != nil || len(rows) != 3 {
			t.Fatalf("neighbors = %s (%v), want 3 rows", std["neighbors"], err)
		}
		for _, row := range rows {
			if got, want := objectKeys(t, row), []string{"id", "title", "direction", "tags", "context", "content"}; !slices.Equal(got, want) {
				t.Errorf("neighbour row keys = %q, want %q", got, want)
			}
		}
	})

	t.Run("missing is nil", func(t *testing.T) {
		want := &mcp.MissingResponse{Warnings: []string{`no note matches "Nope"`}}
		if got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Nope"}); !reflect.DeepEqual(got, want) || err != nil {
			t.Errorf("GetNode(Nope) = %v, %v, want %v", got, err, want)
		}
		if got, err := tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Nope"}); !reflect.DeepEqual(got, want) || err != nil {
			t.Errorf("GetNeighbors(Nope) = %v, %v, want %v", got, err, want)
		}
		if got, err := tools.FindPath(ctx, mcp.FindPathParams{Source: "Home", Target: "Orphan"}); got != nil || err != nil {
			t.Errorf("FindPath(Home, Orphan) = %v, %v, want nil, nil", got, err)
		}
		if got, err := tools.RandomNode(ctx, mcp.RandomNodeParams{Tags: []string{"nope"}}); got != nil || err != nil {
			t.Errorf("RandomNode(nope) = %v, %v, want nil, nil", got, err)
		}
	})
	t.Run("broken links and attachments", func(t *testing.T) {
		got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Home"})
		r, _ := got.(*mcp.NodeResponse)
		if err != nil || r == nil {
			t.Fatalf("GetNode(Home) = %v, %v", got, err)
		}
		if !slices.Equal(r.BrokenLinks, []string{"Missing Note"}) || !slices.Equal(r.Attachments, []string{"Diagram.png", "report.pdf"}) {
			t.Errorf("GetNode(Home) broken, attachments = %q, %q", r.BrokenLinks, r.Attachments)
		}
		if r.IncomingCount != nil || r.Neighbors != nil {
			t.Errorf("GetNode(Home, depth 0) has counts or neighbours: %v, %v", r.IncomingCount, r.Neighbors)
		}
		_, full := objectFields(t, answerJSON(t, "get_node", r, mcp.Presentation{Detail: mcp.DetailFull}))
		if got := compact(t, full["brokenLinks"]); got != `["Missing Note"]` {
			t.Errorf("rendered brokenLinks = %s", got)
		}
		if got := compact(t, full["attachments"]); got != `["Diagram.png","report.pdf"]` {
			t.Errorf("rendered attachments = %s", got)
		}
	})
}

// answerJSON renders a tool's answer as JSON with p (format json) and
// returns the text.
func answerJSON(t testing.TB, tool string, v any, p mcp.Presentation) json.RawMessage {
	t.Helper()
	p.Format = mcp.FormatJSON
	text, err := mcp.Render(tool, v, p)
	if err != nil {
		t.Fatalf("Render(%s, %+v) = %v", tool, p, err)
	}
	if !json.Valid([]byte(text)) {
		t.Fatalf("Render(%s, %+v) is not JSON:\n%s", tool, p, text)
	}
	return json.RawMessage(text)
}

// objectFields decodes a JSON object into its keys, in written order, and
// their values.
func objectFields(t testing.TB, raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", raw)
	}
	var keys []string
	m := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%v in %s", err, raw)
		}
		k := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%v in %s", err, raw)
		}
		keys = append(keys, k)
		m[k] = v
	}
	return keys, m
}

// objectKeys returns the keys of a JSON object in written order.
func objectKeys(t testing.TB, raw json.RawMessage) []string {
	t.Helper()
	keys, _ := objectFields(t, raw)
	return keys
}

func compact(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("compact %s: %v", raw, err)
	}
	return b.String()
}

func TestAmbiguousNameWarnings(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	hasWarning := func(ws []string) bool {
		return slices.ContainsFunc(ws, func(w string) bool {
			return strings.Contains(w, "Archive/Alpha Plan.md") && strings.Contains(w, "Projects/Alpha Plan.md")
		})
	}
	tests := []struct {
		desc string
		tool string
		give func() (any, error)
		warn func(any) []string
	}{
		{
			desc: "get_node", tool: "get_node",
			give: func() (any, error) { return tools.GetNode(ctx, mcp.GetNodeParams{ID: "Alpha Plan"}) },
			warn: func(v any) []string { return v.(*mcp.NodeResponse).Warnings },
		},
		{
			desc: "get_neighbors", tool: "get_neighbors",
			give: func() (any, error) { return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Alpha Plan"}) },
			warn: func(v any) []string { return v.(*mcp.ListResponse).Warnings },
		},
		{
			desc: "find_path", tool: "find_path",
			give: func() (any, error) {
				return tools.FindPath(ctx, mcp.FindPathParams{Source: "Alpha Plan", Target: "Home"})
			},
			warn: func(v any) []string { return v.(*mcp.PathResponse).Warnings },
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := tt.give()
			if err != nil || got == nil {
				t.Fatalf("got %v, %v", got, err)
			}
			if ws := tt.warn(got); !hasWarning(ws) {
				t.Errorf("warnings = %q, want one listing both Alpha Plan notes", ws)
			}
			// The warning reaches the caller at every detail.
			for _, detail := range mcp.Details.Values {
				var ws []string
				_, m := objectFields(t, answerJSON(t, tt.tool, got, mcp.Presentation{Detail: detail}))
				if err := json.Unmarshal(m["warnings"], &ws); err != nil || !hasWarning(ws) {
					t.Errorf("detail %s: rendered warnings = %s, want one listing both Alpha Plan notes", detail, m["warnings"])
				}
			}
		})
	}
}

func TestFindPathResponse(t *testing.T) {
	tools := testVaultTools(t)
	got, err := tools.FindPath(context.Background(), mcp.FindPathParams{Source: "東京 Trip", Target: "Home", Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := got.(*mcp.PathResponse)
	if !ok || p == nil {
		t.Fatalf("FindPath = %T, want *mcp.PathResponse", got)
	}
	wantPath := []string{"Notes/東京 Trip.md", "Notes/Meeting Notes.md", "Home.md"}
	if !slices.Equal(p.Path, wantPath) || p.Length != 2 || !slices.Equal(p.Titles, []string{"東京 Trip", "Meeting Notes", "Home"}) {
		t.Errorf("FindPath = %+v, want %q, length 2, with their titles", p, wantPath)
	}
	want := `{"path":["Notes/東京 Trip.md","Notes/Meeting Notes.md","Home.md"],"length":2}`
	if got := compact(t, answerJSON(t, "find_path", got, mcp.Presentation{})); got != want {
		t.Errorf("FindPath JSON = %s, want %s", got, want)
	}
	want = `{"path":["Notes/東京 Trip.md","Notes/Meeting Notes.md","Home.md"],"length":2,"titles":["東京 Trip","Meeting Notes","Home"]}`
	if got := compact(t, answerJSON(t, "find_path", got, mcp.Presentation{Detail: mcp.DetailFull})); got != want {
		t.Errorf("FindPath JSON, full detail = %s, want %s", got, want)
	}
}

func TestListNodesDates(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	tests := []struct {
		desc string
		give mcp.ListNodesParams
		want []string
	}{
		{
			desc: "created before a day includes that day",
			give: mcp.ListNodesParams{CreatedAfter: "2024-01-01", CreatedBefore: "2024-06-01"},
			want: []string{"Notes/Meeting Notes.md", "Projects/Alpha Plan.md", "Projects/Beta.md"},
		},
		{
			desc: "created after a day includes that day",
			give: mcp.ListNodesParams{CreatedAfter: "2024-06-01", CreatedBefore: "2024-12-31"},
			want: []string{"Notes/Meeting Notes.md"},
		},
		{
			desc: "date-time bounds are exact",
			give: mcp.ListNodesParams{CreatedAfter: "2024-01-01", CreatedBefore: "2024-06-01T09:29:59Z"},
			want: []string{"Projects/Alpha Plan.md", "Projects/Beta.md"},
		},
		{
			desc: "minute precision",
			give: mcp.ListNodesParams{CreatedAfter: "2024-06-01T09:30", CreatedBefore: "2024-06-01T09:30"},
			want: []string{"Notes/Meeting Notes.md"},
		},
		{
			desc: "one day",
			give: mcp.ListNodesParams{CreatedAfter: "2023-01-15", CreatedBefore: "2023-01-15"},
			want: []string{"Archive/Alpha Plan.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := tools.ListNodes(ctx, tt.give)
			if err != nil {
				t.Fatal(err)
			}
			res := got.(*mcp.ListResponse)
			var ids []string
			for _, n := range res.Nodes {
				ids = append(ids, n.ID)
				if n.Created == "" || n.Modified == "" {
					t.Errorf("list item %s has no created or modified date", n.ID)
				}
			}
			if !slices.Equal(ids, tt.want) {
				t.Errorf("ListNodes(%+v) = %q, want %q", tt.give, ids, tt.want)
			}
		})
	}
}

// A neighbour whose file went away before the engine heard of it is shown
// without content; the note asked for is still returned.
func TestNeighbourDeletedBeforeSync(t *testing.T) {
	dir := writeVault(t, map[string]string{
		"A.md": "[[B]] [[C]]\n",
		"B.md": "[[A]]\n",
		"C.md": "just C\n",
	})
	tools := newTools(t, dir)
	if err := os.Remove(filepath.Join(dir, "B.md")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "A", Depth: 1})
	if err != nil || got == nil || len(got.(*mcp.NodeResponse).Neighbors) != 2 {
		t.Errorf("GetNode(A, depth 1) = %v, %v, want A with two neighbours", got, err)
	}
	got, err = tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "A"})
	if err != nil || got == nil || len(got.(*mcp.ListResponse).Nodes) != 2 {
		t.Errorf("GetNeighbors(A) = %v, %v, want two neighbours", got, err)
	}
	got, err = tools.ListNodes(ctx, mcp.ListNodesParams{})
	if err != nil || got == nil || got.(*mcp.ListResponse).Total != 3 {
		t.Errorf("ListNodes() = %v, %v, want three notes", got, err)
	}
}

func TestWriteJSON(t *testing.T) {
	tests := []struct {
		desc string
		give any
		want string
	}{
		{desc: "nil", give: nil, want: "null\n"},
		{desc: "nil node", give: (*vaultgraph.Node)(nil), want: "null\n"},
		{desc: "nil path", give: (*vaultgraph.Path)(nil), want: "null\n"},
		{desc: "nil slice", give: []string(nil), want: "null\n"},
		{desc: "indented, HTML not escaped", give: map[string]any{"a": "<b>&"}, want: "{\n  \"a\": \"<b>&\"\n}\n"},
		{desc: "path", give: &vaultgraph.Path{Path: []string{"A.md", "B.md"}, Length: 1}, want: "{\n  \"path\": [\n    \"A.md\",\n    \"B.md\"\n  ],\n  \"length\": 1\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var b bytes.Buffer
			if err := mcp.WriteJSON(&b, tt.give); err != nil {
				t.Fatalf("WriteJSON(%v) = %v", tt.give, err)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("WriteJSON(%v) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
	t.Run("unencodable", func(t *testing.T) {
		if err := mcp.WriteJSON(&bytes.Buffer{}, map[string]any{"f": func() {}}); err == nil {
			t.Errorf("WriteJSON(func) = nil, want an error")
		}
	})
}

// TestHubsPages checks get_hubs' paging and sorting: the metric chooses
// which notes are on a page, sortBy only reorders them; an unknown sort
// key is INVALID_PARAMS.
func TestHubsPages(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	hubIDs := func(p mcp.GetHubsParams) []string {
		t.Helper()
		got, err := tools.GetHubs(ctx, p)
		if err != nil {
			t.Fatalf("GetHubs(%+v) = %v", p, err)
		}
		var out []string
		for _, n := range got.(*mcp.ListResponse).Nodes {
			out = append(out, n.ID)
		}
		return out
	}
	all := hubIDs(mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: vaultgraph.MaxHubsLimit}}) // the whole ranking: 13 notes
	tests := []struct {
		desc string
		give mcp.GetHubsParams
		want []string
	}{
		{"page 1", mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 5}}, all[:5]},
		{"page 2", mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 5, Page: 2}}, all[5:10]},
		{"last page", mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 5, Page: 3}}, all[10:]},
		{"past the end", mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 5, Page: 4}}, nil},
		{"page 2 sorted by title", mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 5, Page: 2, SortBy: mcp.SortKeys{"title"}}},
			// Café Menu, Deep Note, 東京 Trip, Old Ideas, Broken YAML by title
			[]string{"Notes/Broken YAML.md", "Notes/Café Menu.md", "Deep/Nested/Folder/Deep Note.md", "Archive/Old Ideas.md", "Notes/東京 Trip.md"}},
		{"page 1 sorted by -path", mcp.GetHubsParams{Metric: "pagerank", Paging: mcp.Paging{Limit: 3, SortBy: mcp.SortKeys{"-path"}}},
			[]string{"Projects/Beta.md", "Notes/Meeting Notes.md", "Home.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := hubIDs(tt.give); !slices.Equal(got, tt.want) {
				t.Errorf("GetHubs(%+v) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
	if len(all) != 13 || all[0] != "Home.md" {
		t.Fatalf("ranking = %q, want the 13 notes, Home.md first", all)
	}
	if _, err := tools.GetHubs(ctx, mcp.GetHubsParams{Paging: mcp.Paging{SortBy: mcp.SortKeys{"colour"}}}); mcp.Code(err) != mcp.CodeInvalidParams {
		t.Errorf("GetHubs(sortBy colour) error = %v, want INVALID_PARAMS", err)
	}
	got, err := tools.GetHubs(ctx, mcp.GetHubsParams{Paging: mcp.Paging{Page: 9}})
	if err != nil {
		t.Fatal(err)
	}
	text, err := mcp.Render("get_hubs", got, mcp.Presentation{Format: mcp.FormatJSON})
	// in_degree ranks the 8 notes linked to; the other 5 score 0.
	if err != nil || !strings.Contains(text, `"page 9 is past the last page (1)"`) || !strings.Contains(text, `"total":8`) ||
		!strings.Contains(text, `"hint":"the in_degree ranking ends here; the 5 unranked notes score 0"`) {
		t.Errorf("get_hubs page 9 = %s, %v, want total 8, a warning that page 9 is past the last page (1) and that the ranking ends", text, err)
	}
}

// TestPastLastPage checks that every paged list warns about a page past
// its end instead of answering an empty page silently.
func TestPastLastPage(t *testing.T) {
	tools := testVaultTools(t)
	ctx := context.Background()
	for _, tt := range []struct {
		tool string
		give func() (any, error)
		want string
	}{
		{"list_nodes", func() (any, error) { return tools.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{Page: 999}}) }, "page 999 is past the last page (1)"},
		{"get_neighbors", func() (any, error) {
			return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Home", Paging: mcp.Paging{Page: 3, Limit: 5}})
		}, "page 3 is past the last page (2)"},
		{"search_by_tags", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"project"}, Paging: mcp.Paging{Page: 2}})
		}, "page 2 is past the last page (1)"},
		{"search_by_tags", func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"nosuchtag"}, Paging: mcp.Paging{Page: 2}})
		}, "page 2 is past the end: the list is empty"},
		{"list_tags", func() (any, error) {
			return tools.ListTags(ctx, mcp.ListTagsParams{Paging: mcp.Paging{Page: 5, Limit: 10}})
		}, "page 5 is past the last page (2)"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			v, err := tt.give()
			if err != nil {
				t.Fatal(err)
			}
			for _, format := range mcp.Formats.Values {
				text, err := mcp.Render(tt.tool, v, mcp.Presentation{Format: format})
				if err != nil || !strings.Contains(text, tt.want) {
					t.Errorf("%s %s = %s, %v, want the warning %q", tt.tool, format, text, err, tt.want)
				}
			}
		})
	}
	// The last page itself, and an empty list's first page, do not warn.
	for _, give := range []func() (any, error){
		func() (any, error) {
			return tools.ListNodes(ctx, mcp.ListNodesParams{Paging: mcp.Paging{Page: 3, Limit: 5}})
		},
		func() (any, error) {
			return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"nosuchtag"}})
		},
	} {
		v, err := give()
		if err != nil {
			t.Fatal(err)
		}
		if text, _ := mcp.Render("list_nodes", v, mcp.Presentation{Format: mcp.FormatJSON}); strings.Contains(text, "past") {
			t.Errorf("answer %s warns of a page past the end", text)
		}
	}
}

// TestListTagsFields checks that fields and detail choose list_tags'
// columns, and that an unknown field is a warning.
func TestListTagsFields(t *testing.T) {
	tools := testVaultTools(t)
	v, err := tools.ListTags(context.Background(), mcp.ListTagsParams{Paging: mcp.Paging{Limit: 2}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc string
		give mcp.Presentation
		want string
	}{
		{"preset", mcp.Presentation{}, "tags[2]{tag,count}:\n  project,3\n  archive,2\n"},
		{"count only", mcp.Presentation{Fields: []string{"count"}}, "tags[2]{count}:\n  3\n  2\n"},
		{"tag only", mcp.Presentation{Fields: []string{"TAG"}}, "tags[2]{tag}:\n  project\n  archive\n"},
		{"unknown field warns", mcp.Presentation{Fields: []string{"tag", "colour"}}, `warnings[1]: "fields: \"colour\" ignored: list_tags has tag, count"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			tt.give.Format = mcp.FormatTOON
			got, err := mcp.Render("list_tags", v, tt.give)
			if err != nil || !strings.Contains(got, tt.want) {
				t.Errorf("Render(list_tags, %+v) = %s, %v; want it to hold %q", tt.give, got, err, tt.want)
			}
		})
	}
	md, err := mcp.Render("list_tags", v, mcp.Presentation{Format: mcp.FormatMarkdown, Fields: []string{"tag"}})
	if err != nil || !strings.Contains(md, "- project\n- archive\n") {
		t.Errorf("markdown with fields tag = %q, %v, want one tag a line", md, err)
	}
}
