package vault

import "testing"

func TestHeadingKey(t *testing.T) {
	tests := []struct {
		desc, give, want string
	}{
		{desc: "case folded", give: "Goals", want: "goals"},
		{desc: "colon is a space", give: "Goals: Q1", want: "goals q1"},
		{desc: "spaces collapse", give: "  Goals   Q1 ", want: "goals q1"},
		{desc: "dots", give: "wifi 2.4", want: "wifi 2 4"},
		{desc: "brackets of a wikilink", give: "See [[Alpha]]", want: "see alpha"},
		{desc: "question mark at the end", give: "Why?", want: "why"},
		{desc: "markup stars", give: "**Bold** move", want: "bold move"},
		{desc: "hyphen kept", give: "Well-known", want: "well-known"},
		{desc: "underscore kept", give: "snake_case", want: "snake_case"},
		{desc: "apostrophe kept", give: "Don't", want: "don't"},
		{desc: "unicode punctuation kept", give: "A — B", want: "a — b"},
		{desc: "tab and nbsp are spaces", give: "a\t\u00a0b", want: "a b"},
		{desc: "accents kept", give: "Café", want: "café"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := HeadingKey(tt.give); got != tt.want {
				t.Errorf("HeadingKey(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

func TestAnchorProblem(t *testing.T) {
	src := "# Intro\n\n## Goals: Q1\n\n## Well-known\n\nText ^Para-1\n\n- item ^li-2\n\n# Plan\n\n### Deep\n\n## Shallow\n\n^alone\n"
	n, err := NewParser().Parse("N.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc, give, want string
	}{
		{desc: "whole note", give: "", want: ""},
		{desc: "exact", give: "Intro", want: ""},
		{desc: "case", give: "INTRO", want: ""},
		{desc: "punctuation as space", give: "Goals Q1", want: ""},
		{desc: "punctuation written", give: "goals: q1", want: ""},
		{desc: "extra spaces", give: "Goals   Q1", want: ""},
		{desc: "hyphen is not a space", give: "Well known", want: `no heading "Well known"`},
		{desc: "hyphen written", give: "well-known", want: ""},
		{desc: "nested in order", give: "Intro#Goals Q1", want: ""},
		{desc: "nested in a later section", give: "Intro#Deep", want: ""},
		{desc: "nested wrong order", give: "Goals Q1#Intro", want: `no heading "Intro" below "Goals Q1"`},
		{desc: "nested same level", give: "Intro#Plan", want: `no heading "Plan" below "Intro"`},
		{desc: "nested must go deeper", give: "Deep#Shallow", want: `no heading "Shallow" below "Deep"`},
		{desc: "three levels", give: "Plan#Deep", want: ""},
		{desc: "missing heading", give: "Nope", want: `no heading "Nope"`},
		{desc: "block on paragraph", give: "^para-1", want: ""},
		{desc: "block on list item", give: "^LI-2", want: ""},
		{desc: "block on its own line", give: "^alone", want: ""},
		{desc: "missing block", give: "^nope", want: "no block ^nope"},
		{desc: "block after a heading is a heading", give: "Intro#^para-1", want: `no heading "^para-1" below "Intro"`},
		{desc: "empty parts", give: "Intro##", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := n.AnchorProblem(tt.give); got != tt.want {
				t.Errorf("AnchorProblem(%q) = %q, want %q", tt.give, got, tt.want)
			}
			if got := n.HasAnchor(tt.give); got != (tt.want == "") {
				t.Errorf("HasAnchor(%q) = %v, want %v", tt.give, got, tt.want == "")
			}
		})
	}
}
