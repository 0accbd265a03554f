package vault_test

import (
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

func TestSection(t *testing.T) {
	src := "---\ntitle: T\n---\n# Top\n\nintro\n\n## Goals\n\nShip it. ^ship\n\n### Sub goal\n\ndeep\n\n## Risks\n\n- one\n- two ^two\n  - nested\n- three\n\n```\ncode\n```\n^code\n\n# Next\n\nlast\n"
	tests := []struct {
		desc, give, want string
		ok               bool
	}{
		{desc: "a heading to the next of its level", give: "Goals", want: "## Goals\n\nShip it. ^ship\n\n### Sub goal\n\ndeep\n\n", ok: true},
		{desc: "nested headings", give: "Goals#Sub goal", want: "### Sub goal\n\ndeep\n\n", ok: true},
		{desc: "a top heading up to the next top heading", give: "Next", want: "# Next\n\nlast\n", ok: true},
		{desc: "a heading key (case, punctuation)", give: "risks", want: "## Risks\n\n- one\n- two ^two\n  - nested\n- three\n\n```\ncode\n```\n^code\n\n", ok: true},
		{desc: "a paragraph block", give: "^ship", want: "Ship it. ^ship", ok: true},
		{desc: "a block in upper case", give: "^SHIP", want: "Ship it. ^ship", ok: true},
		{desc: "a list item block with its children", give: "^two", want: "- two ^two\n  - nested", ok: true},
		{desc: "an id alone names the block before", give: "^code", want: "```\ncode\n```\n", ok: true},
		{desc: "no such heading", give: "Nope"},
		{desc: "no such block", give: "^nope"},
		{desc: "no fragment", give: ""},
	}
	p := vault.NewParser()
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			start, end, ok := p.Section("N.md", []byte(src), tt.give)
			if ok != tt.ok {
				t.Fatalf("Section(%q) ok = %v, want %v", tt.give, ok, tt.ok)
			}
			if ok && src[start:end] != tt.want {
				t.Errorf("Section(%q) = %q, want %q", tt.give, src[start:end], tt.want)
			}
		})
	}
}

// FuzzSection: for any file and fragment, Section never panics, and a
// range it reports lies within the file.
func FuzzSection(f *testing.F) {
	f.Add([]byte("# Top\n\n## Goals\n\nShip it. ^ship\n\n# Next\n"), "Goals")
	f.Add([]byte("- one\n- two ^two\n  - nested\n"), "^two")
	f.Add([]byte("```\ncode\n```\n^code\n"), "^code")
	f.Add([]byte("\uFEFF# A\n## B\n### C\n"), "A#B#C")
	f.Add([]byte("---\ntitle: [\n---\n# H\n"), "H#")
	p := vault.NewParser()
	f.Fuzz(func(t *testing.T, src []byte, fragment string) {
		start, end, ok := p.Section("N.md", src, fragment)
		if ok && (start < 0 || start > end || end > len(src)) {
			t.Fatalf("Section(%q) = [%d, %d) in %d bytes", fragment, start, end, len(src))
		}
	})
}
