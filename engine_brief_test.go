package vaultgraph_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// briefOf is n as a brief query gives it: without links, broken links,
// attachments and warnings.
func briefOf(n *vaultgraph.Node) vaultgraph.Node {
	b := *n
	b.Links, b.Broken, b.Attachments, b.Warnings = nil, nil, nil, nil
	return b
}

// checkBrief checks that brief is full without its links, broken links,
// attachments and warnings, and counts what full has of them in has.
func checkBrief(t *testing.T, what string, brief, full *vaultgraph.Node, has map[string]int) {
	t.Helper()
	if brief.Links != nil || brief.Broken != nil || brief.Attachments != nil || brief.Warnings != nil {
		t.Errorf("%s %s brief: links %v, broken %v, attachments %v, warnings %v, want none",
			what, brief.ID, brief.Links, brief.Broken, brief.Attachments, brief.Warnings)
	}
	if want := briefOf(full); !reflect.DeepEqual(*brief, want) {
		t.Errorf("%s brief:\n got  %+v\n want %+v", what, *brief, want)
	}
	has["links"] += len(full.Links)
	has["broken"] += len(full.Broken)
	has["attachments"] += len(full.Attachments)
	has["warnings"] += len(full.Warnings)
}

// TestBriefNodes: a brief page (PageQuery.Brief, ListQuery.Brief) and
// GetNodeBrief give every note as the full query does, without its
// links, broken links, attachments and warnings; the full query keeps
// them. Checked on testvault, whose notes have all four, and again on an
// engine started from the index's snapshot cache (links not decoded
// until read).
func TestBriefNodes(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	for _, start := range []string{"cold", "from the snapshot cache"} {
		t.Run(start, func(t *testing.T) {
			e := vaultgraph.New(vaultgraph.Options{Vault: "testvault", Index: index})
			if err := e.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			checkBriefEngine(t, e)
		})
	}
}

func checkBriefEngine(t *testing.T, e *vaultgraph.Engine) {
	ctx := context.Background()
	has := map[string]int{}
	brief, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: 100, Brief: true})
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(brief.Nodes) != len(full.Nodes) || len(full.Nodes) < 10 {
		t.Fatalf("ListNodes: %d brief nodes, %d full, want the same (at least 10)", len(brief.Nodes), len(full.Nodes))
	}
	for i, n := range full.Nodes {
		checkBrief(t, "ListNodes", brief.Nodes[i], n, has)

		b, err := e.GetNodeBrief(ctx, n.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		f, err := e.GetNode(ctx, n.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		checkBrief(t, "GetNodeBrief", b, f, has)

		bn, err := e.NeighborsPage(ctx, n.ID, graph.Both, vaultgraph.PageQuery{Brief: true})
		if err != nil {
			t.Fatal(err)
		}
		fn, err := e.NeighborsPage(ctx, n.ID, graph.Both, vaultgraph.PageQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if len(bn.Neighbors) != len(fn.Neighbors) {
			t.Fatalf("NeighborsPage(%s): %d brief neighbours, %d full", n.ID, len(bn.Neighbors), len(fn.Neighbors))
		}
		for j, nb := range fn.Neighbors {
			checkBrief(t, "NeighborsPage", bn.Neighbors[j].Node, nb.Node, has)
		}
	}
	for _, what := range []string{"links", "broken", "attachments", "warnings"} {
		if has[what] == 0 {
			t.Errorf("no full node had %s: the test checks nothing there", what)
		}
	}
	bt, err := e.SearchByTagsPage(ctx, []string{"project"}, false, vaultgraph.PageQuery{Brief: true})
	if err != nil {
		t.Fatal(err)
	}
	ft, err := e.SearchByTagsPage(ctx, []string{"project"}, false, vaultgraph.PageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bt.Nodes) != len(ft.Nodes) || len(ft.Nodes) == 0 {
		t.Fatalf("SearchByTagsPage: %d brief nodes, %d full, want the same (some)", len(bt.Nodes), len(ft.Nodes))
	}
	for i, n := range ft.Nodes {
		checkBrief(t, "SearchByTagsPage", bt.Nodes[i], n, has)
	}
}
