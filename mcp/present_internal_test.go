package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// TestTOONFallback checks that an answer TOON cannot encode (here a
// string that is not UTF-8) comes back as JSON with a warning, never empty.
func TestTOONFallback(t *testing.T) {
	a := &answer{tool: "list_nodes", kind: kindRows, rowsKey: "nodes",
		rows:  []toon.Object{{{Key: "id", Value: "a.md"}, {Key: "title", Value: "bad \xff byte"}}},
		props: []toon.Object{nil},
	}
	s, err := a.render(FormatTOON, uncut)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Nodes    []map[string]any `json:"nodes"`
		Warnings []string         `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("fallback is not JSON: %v\n%s", err, s)
	}
	if len(out.Nodes) != 1 || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "TOON encoding failed") {
		t.Errorf("fallback = %s, want the row and a warning", s)
	}
}

// TestDropTitleHeading checks the heading that only repeats the title.
func TestDropTitleHeading(t *testing.T) {
	tests := []struct{ in, title, want string }{
		{"# Home\n\nBody", "Home", "Body"},
		{"\n## home \nBody", "Home", "Body"},
		{"# Home page\nBody", "Home", "# Home page\nBody"},
		{"#Home\nBody", "Home", "#Home\nBody"}, // a tag, not a heading
		{"Body # Home", "Home", "Body # Home"},
		{"# Home", "Home", ""},
	}
	for _, tt := range tests {
		if got := dropTitleHeading(tt.in, tt.title); got != tt.want {
			t.Errorf("dropTitleHeading(%q, %q) = %q, want %q", tt.in, tt.title, got, tt.want)
		}
	}
}

// TestInterpretScore checks the words given to scores.
func TestInterpretScore(t *testing.T) {
	for v, want := range map[any]string{0.82: "0.82 strong", 0.5: "0.50 good", 0.3: "0.30 fair", 0.1: "0.10 weak", 12: "12", 3.5: "3.5"} {
		if got := interpretScore(v); got != want {
			t.Errorf("interpretScore(%v) = %q, want %q", v, got, want)
		}
	}
}
