package vault

import (
	"reflect"
	"testing"
)

func TestParseHeadingsAndBlockIDs(t *testing.T) {
	src := "---\ntitle: x\n---\n# One\n\nText ^para-1\n\n## Two  ##  \n\n- item ^li\n- other\n\n> quote\n> ^q\n\nSetext\n===\n\n```\n# not a heading\ntext ^code\n```\n\n    # indented code\n\nno^id here\n### Three [[Link]] `code`\n\n^alone\n"
	n, err := NewParser().Parse("N.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range n.Headings {
		if string(src[h.Start:h.End]) != h.Text {
			t.Errorf("heading %q: range holds %q", h.Text, src[h.Start:h.End])
		}
		got = append(got, string(rune('0'+h.Level))+" "+h.Text)
	}
	want := []string{"1 One", "2 Two", "1 Setext", "3 Three [[Link]] `code`"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("headings = %q, want %q", got, want)
	}
	if want := []int{4, 8, 16, 27}; len(n.Headings) == len(want) {
		for i, h := range n.Headings {
			if h.Line != want[i] {
				t.Errorf("heading %q line %d, want %d", h.Text, h.Line, want[i])
			}
		}
	}
	if want := []string{"para-1", "li", "q", "alone"}; !reflect.DeepEqual(n.BlockIDs, want) {
		t.Errorf("block ids = %q, want %q", n.BlockIDs, want)
	}
}

func TestHasAnchor(t *testing.T) {
	src := "# Wifi 2.4 vs 5.0\n\n## Goals: Q1\n\ntext ^Blk-1\n\n# Other\n\n## Sub\n"
	n, err := NewParser().Parse("N.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for frag, want := range map[string]bool{
		"":                          true,
		"Wifi 2.4 vs 5.0":           true,
		"wifi 2 4 vs 5 0":           true,
		"Goals Q1":                  true,
		"goals:  q1 ":               true,
		"Wifi 2.4 vs 5.0#Goals: Q1": true,
		"Other#Sub":                 true,
		"Sub#Other":                 false,
		"Goals Q2":                  false,
		"^blk-1":                    true,
		"^blk-2":                    false,
		"Goals: Q1#^Blk-1":          false, // a block only alone
		"Missing":                   false,
		"#":                         true,
	} {
		if got := n.HasAnchor(frag); got != want {
			t.Errorf("HasAnchor(%q) = %v, want %v", frag, got, want)
		}
	}
}
