package vault

import (
	"errors"
	"strings"
	"testing"
)

func TestHeadingLinkText(t *testing.T) {
	tests := []struct{ give, want string }{
		{"Goals", "Goals"},
		{"Q3: Goals #1", "Q3 Goals 1"},
		{`foo:#|^\` + "\r\n%%[[]]bar", "foo bar"},
		{"Array[0] (v2) 'x' \"y\" 50%", "Array[0] (v2) 'x' \"y\" 50%"},
		{"  a \t b  ", "a b"},
		{"###", ""},
	}
	for _, tt := range tests {
		if got := HeadingLinkText(tt.give); got != tt.want {
			t.Errorf("HeadingLinkText(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

func TestRenameAnchor(t *testing.T) {
	n := &Note{Headings: []Heading{{Level: 1, Text: "Top"}, {Level: 2, Text: "Goals"}, {Level: 3, Text: "Sub"}, {Level: 1, Text: "Other"}, {Level: 2, Text: "Goals"}}}
	tests := []struct {
		desc     string
		fragment string
		h        int
		want     string
		changed  bool
	}{
		{"the heading", "Goals", 1, "New", true},
		{"folded and spaced", " goals ", 1, " New ", true},
		{"the first of two only", "Goals", 4, "Goals", false},
		{"the second under its parent", "Other#Goals", 4, "Other#New", true},
		{"not under a shallower part", "Sub#Goals", 4, "Sub#Goals", false},
		{"a parent part", "Goals#Sub", 1, "New#Sub", true},
		{"a child part", "Top#Goals#Sub", 2, "Top#Goals#New", true},
		{"a block", "^Goals", 1, "^Goals", false},
		{"after a missing part", "Nope#Goals", 1, "Nope#Goals", false},
		{"empty parts kept", "Goals##", 1, "New##", true},
	}
	for _, tt := range tests {
		got, changed := NewAnchors(n).Rename(tt.fragment, tt.h, "New")
		if got != tt.want || changed != tt.changed {
			t.Errorf("%s: Rename(%q, %d) = %q, %v, want %q, %v", tt.desc, tt.fragment, tt.h, got, changed, tt.want, tt.changed)
		}
	}
}

func TestFragmentEdit(t *testing.T) {
	tests := []struct {
		desc, give, fragment string
		want                 string // give with the edit applied, or the error's text
		err                  bool
	}{
		{"wikilink", "[[N#Old]]", "New Text", "[[N#New Text]]", false},
		{"alias kept", "[[N#Old|a|b]]", "New", "[[N#New|a|b]]", false},
		{"table pipe", "| [[N#Old\\|a]] |\n|---|\n", "New", "| [[N#New\\|a]] |\n|---|\n", false},
		{"embed, nested", "![[N#Top#Old]]", "Top#New", "![[N#Top#New]]", false},
		{"self", "[[#Old]]", "New", "[[#New]]", false},
		{"markdown %20", "[x](N.md#Old%20One)", "New One", "[x](N.md#New%20One)", false},
		{"markdown lower hex", "[x](N%c3%a9.md#Old)", "Né w", "[x](N%c3%a9.md#N%c3%a9%20w)", false},
		{"markdown angle", "[x](<N.md#Old One> \"t\")", "New (One)", "[x](<N.md#New (One)> \"t\")", false},
		{"markdown parens", "[x](N.md#Old)", "New (One)", "[x](N.md#New%20%28One%29)", false},
		{"reference definition", "[x][r]\n\n[r]: N.md#Old\n", "New", "[x][r]\n\n[r]: N.md#New\n", false},
		{"double quotes", "---\na: \"[[N#Old]]\"\n---\n", `a "b" \c`, "---\na: \"[[N#a \\\"b\\\" \\\\c]]\"\n---\n", false},
		{"single quotes", "---\na: '[[N#Old]]'\n---\n", "it's", "---\na: '[[N#it''s]]'\n---\n", false},
		{"four dashes inside the block", "---\na: [\"[[N#Old]]\",\n----\n]\n---\n", `x "y"`, "---\na: [\"[[N#x \\\"y\\\"]]\",\n----\n]\n---\n", false},
		{"plain scalar", "---\na: x [[N#Old]]\n---\n", "b: c", "cannot be written in a frontmatter value without quotes", true},
		{"a pipe", "[[N#Old]]", "a|b", "'|' would start the alias", true},
		{"closing brackets", "[[N#Old]]", "a]]b", "would open or close a link", true},
		{"a final bracket", "[[N#Old]]", "a]", "a final ']'", true},
		{"a line break", "[[N#Old]]", "a\nb", "a line break", true},
		{"no fragment", "[[N]]", "a", "no '#' part", true},
	}
	p := NewParser()
	for _, tt := range tests {
		src := []byte(tt.give)
		n, err := p.ParseForRewrite("M.md", src)
		if err != nil || len(n.Links) == 0 {
			t.Fatalf("%s: ParseForRewrite(%q) = %v, %v links", tt.desc, tt.give, err, len(n.Links))
		}
		ed, err := FragmentEdit(src, n.Links[0], tt.fragment)
		if tt.err {
			if !errors.Is(err, ErrCannotRetarget) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: FragmentEdit(%q, %q) = %v, want an error saying %q", tt.desc, tt.give, tt.fragment, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: FragmentEdit(%q, %q) = %v", tt.desc, tt.give, tt.fragment, err)
			continue
		}
		out, err := ApplyEdits(src, []Edit{ed})
		if err != nil || string(out) != tt.want {
			t.Errorf("%s: FragmentEdit(%q, %q) gives %q, %v, want %q", tt.desc, tt.give, tt.fragment, out, err, tt.want)
			continue
		}
		m, err := p.Parse("M.md", out)
		if err != nil || len(m.Links) != len(n.Links) || m.Links[0].Fragment != tt.fragment {
			t.Errorf("%s: %q parses as %+v, %v, want its fragment %q", tt.desc, out, m.Links, err, tt.fragment)
		}
	}
}

// FuzzRenameAnchor rewrites the heading part of every link of a note that
// names its first heading: no panic, edits inside the note, and a link
// given its own fragment back is left byte for byte; a wikilink given
// plain words reads them back. Anchors.Has agrees with HasAnchor.
func FuzzRenameAnchor(f *testing.F) {
	for _, b := range testVaultFiles(f) {
		f.Add(b, "New Name")
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "x")
	}
	f.Add([]byte("# H\n[[#H]] [[N#H|a]] ![[N#H#H]] [x](N.md#H) [y](<N.md#H> \"t\")\n[r][h]\n\n[h]: N.md#H\n"), "a b")
	f.Add([]byte("---\na: \"[[N#H]]\"\nb: '[[N#H]]'\nc: x [[N#H]]\n---\n# H\n"), `it's "q"`)
	p := NewParser()
	f.Fuzz(func(t *testing.T, src []byte, to string) {
		n, err := parseBounded(t, p, src)
		if err != nil || len(n.Headings) == 0 {
			return
		}
		n, err = p.ParseForRewrite("Fuzz/Note.md", src)
		if err != nil {
			return
		}
		a := NewAnchors(n)
		text := HeadingLinkText(to)
		plain := strings.IndexFunc(text, func(r rune) bool { return !(r == ' ' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) < 0
		for i, l := range n.Links {
			if l.Fragment == "" {
				continue
			}
			if got, want := a.Has(l.Fragment), n.HasAnchor(l.Fragment); got != want {
				t.Fatalf("Anchors.Has(%q) = %v (headings %v), but HasAnchor = %v", l.Fragment, got, a.Headings(l.Fragment), want)
			}
			if ed, err := FragmentEdit(src, l, l.Fragment); err == nil && l.Kind != KindMarkdown && l.Kind != KindImage && string(src[ed.Start:ed.End]) != ed.Text {
				t.Fatalf("link %+v given its own fragment: %q in place of %q", l, ed.Text, src[ed.Start:ed.End])
			}
			frag, ok := a.Rename(l.Fragment, 0, text)
			if !ok {
				continue
			}
			ed, err := FragmentEdit(src, l, frag)
			if err != nil {
				continue
			}
			if ed.Start < 0 || ed.Start > ed.End || ed.End > len(src) || ed.Start <= l.TargetEnd {
				t.Fatalf("link %+v: edit [%d,%d) outside the note of %d bytes or before its '#'", l, ed.Start, ed.End, len(src))
			}
			out, err := ApplyEdits(src, []Edit{ed})
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			m, err := p.Parse("Fuzz/Note.md", out)
			if err != nil {
				t.Fatalf("Parse after the edit: %v", err)
			}
			if plain && text != "" && (l.Kind == KindWiki || l.Kind == KindEmbed) && l.Start >= n.BodyStart {
				if len(m.Links) != len(n.Links) || m.Links[i].Fragment != frag {
					t.Fatalf("link %+v given fragment %q: after the edit %q the links are %+v", l, frag, out, m.Links)
				}
			}
		}
	})
}
