package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// TestLongListsCapped checks that a note with very many links, broken
// links and warnings, and a rename that rewrote very many links, answer
// in bounded size, saying how many there were.
func TestLongListsCapped(t *testing.T) {
	const n = 5000
	node := &NodeResponse{ID: "Many.md", Title: "Many", Tags: []string{}}
	for i := range n {
		node.Links = append(node.Links, vaultgraph.LinkInfo{ID: fmt.Sprintf("T%d.md", i), Title: fmt.Sprintf("T%d", i)})
		node.BrokenLinks = append(node.BrokenLinks, fmt.Sprintf("missing %d", i))
		node.Warnings = append(node.Warnings, fmt.Sprintf("duplicate tag t%d", i))
	}
	for _, format := range []string{"json", "toon", "markdown"} {
		text, err := Render("get_node", node, Presentation{Format: format, Detail: "full"})
		if err != nil {
			t.Fatalf("Render(get_node, %s): %v", format, err)
		}
		if len(text) > 64<<10 {
			t.Errorf("get_node %s answer is %d bytes for %d links, want a capped list", format, len(text), n)
		}
		for _, want := range []string{
			fmt.Sprintf("links: the first %d of %d are shown", MaxListedItems, n),
			fmt.Sprintf("brokenLinks: the first %d of %d are shown", MaxListedItems, n),
			fmt.Sprintf("... and %d more warnings", n+2-(MaxWarnings-1)),
		} {
			if !strings.Contains(text, want) {
				t.Errorf("get_node %s answer lacks %q:\n%.2000s", format, want, text)
			}
		}
	}
	text, err := Render("get_node", node, Presentation{Format: "json", Detail: "full"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Links       []any    `json:"links"`
		BrokenLinks []string `json:"brokenLinks"`
		Warnings    []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("json answer: %v", err)
	}
	if len(got.Links) != MaxListedItems || len(got.BrokenLinks) != MaxListedItems || len(got.Warnings) != MaxWarnings {
		t.Errorf("json answer has %d links, %d broken links, %d warnings; want %d, %d, %d",
			len(got.Links), len(got.BrokenLinks), len(got.Warnings), MaxListedItems, MaxListedItems, MaxWarnings)
	}
	if got.BrokenLinks[0] != "missing 0" || got.Warnings[2] != "duplicate tag t0" {
		t.Errorf("the kept items are not the first ones: %q, %q", got.BrokenLinks[0], got.Warnings[2])
	}

	w := &WriteResponse{vaultgraph.WriteResult{Node: &vaultgraph.Node{ID: "New.md", Title: "New"}}}
	for i := range 300 {
		f := vaultgraph.FileChange{Path: fmt.Sprintf("F%d.md", i), Action: vaultgraph.ActionUpdate}
		for j := range 20 {
			f.Links = append(f.Links, vaultgraph.LinkChange{Line: j + 1, Old: "[[Old]]", New: "[[New]]"})
		}
		w.Files = append(w.Files, f)
	}
	text, err = Render("update_node", w, Presentation{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Files      []any    `json:"files"`
		Links      []any    `json:"links"`
		TotalFiles int      `json:"totalFiles"`
		TotalLinks int      `json:"totalLinks"`
		Warnings   []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		t.Fatalf("update_node json answer: %v\n%.500s", err, text)
	}
	if len(res.Files) != MaxListedItems || len(res.Links) != MaxListedItems || res.TotalFiles != 300 || res.TotalLinks != 6000 {
		t.Errorf("update_node answer: %d files, %d links, totals %d/%d; want %d, %d, 300/6000",
			len(res.Files), len(res.Links), res.TotalFiles, res.TotalLinks, MaxListedItems, MaxListedItems)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "200 of 6000 rewritten links") {
		t.Errorf("update_node warnings %q, want one saying how many are listed", res.Warnings)
	}
}
