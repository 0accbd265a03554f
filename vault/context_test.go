package vault_test

import (
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

func TestLinkContext(t *testing.T) {
	tests := []struct {
		desc string
		give string // the link is the first [[...]]
		line bool
		want string
	}{
		{"sentence in a paragraph", "# T\n\nFirst one. Budget risk is tracked in [[Beta#Goals]]. Then more.\n", false,
			"Budget risk is tracked in **[[Beta#Goals]]**."},
		{"paragraph over lines", "Intro\nwe use [[Beta]] here\nand there\n\nNext", false,
			"Intro we use **[[Beta]]** here and there"},
		{"list item", "- one\n- [ ] see [[Beta]] now\n- three\n", false, "see **[[Beta]]** now"},
		{"numbered item", "1. first\n2) the [[Beta]] item\n", false, "the **[[Beta]]** item"},
		{"heading", "## About [[Beta]]\ntext\n", false, "About **[[Beta]]**"},
		{"table row", "| a | b |\n| --- | --- |\n| x | [[Beta\\|B]] |\n", false, "| x | **[[Beta\\|B]]** |"},
		{"frontmatter line", "---\nrelated: \"[[Beta]]\"\ntags: x\n---\n", true, "related: \"**[[Beta]]**\""},
		{"frontmatter list item", "---\nrelated:\n  - \"[[Beta]]\"\n---\n", true, "\"**[[Beta]]**\""},
		{"quote", "> quoted [[Beta]] text\n", false, "quoted **[[Beta]]** text"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			start := strings.Index(tt.give, "[[")
			end := strings.Index(tt.give[start:], "]]") + start + 2
			f := vault.LinkContext
			if tt.line {
				f = vault.LineContext
			}
			if got := f([]byte(tt.give), start, end, 0); got != tt.want {
				t.Errorf("LinkContext(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

func TestLinkContextBounded(t *testing.T) {
	long := strings.Repeat("word ", 200)
	src := long + "[[Beta]] " + long
	start := strings.Index(src, "[[")
	got := vault.LinkContext([]byte(src), start, start+8, 100)
	if n := len([]rune(got)); n > 110 {
		t.Errorf("LinkContext of a long sentence has %d characters, want about 100: %q", n, got)
	}
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "**[[Beta]]**") {
		t.Errorf("LinkContext = %q, want the link marked with ellipses either side", got)
	}
	for _, r := range [][2]int{{-1, 2}, {5, 3}, {0, len(src) + 1}} {
		if got := vault.LinkContext([]byte(src), r[0], r[1], 0); got != "" {
			t.Errorf("LinkContext(range %v) = %q, want \"\"", r, got)
		}
	}
}
