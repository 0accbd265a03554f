package vault

import (
	"errors"
	"path"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// retargetCase is a note before and after the links in it are pointed at
// the notes to, in a vault holding the notes vault (after the rename or
// move) and source.
type retargetCase struct {
	desc   string
	vault  []string
	source string // default "Src.md"
	give   string
	to     []string // for each link of give, in file order, its new target ("": keep)
	want   string
}

var retargetTests = []retargetCase{
	// Wikilinks, renamed Old.md -> New.md.
	{desc: "bare wikilink", vault: []string{"New.md"}, give: "see [[Old]] here\n", to: []string{"New.md"}, want: "see [[New]] here\n"},
	{desc: "alias kept", vault: []string{"New.md"}, give: "[[Old|the old one]]", to: []string{"New.md"}, want: "[[New|the old one]]"},
	{desc: "heading kept", vault: []string{"New.md"}, give: "[[Old#Heading two]]", to: []string{"New.md"}, want: "[[New#Heading two]]"},
	{desc: "block kept", vault: []string{"New.md"}, give: "[[Old#^abc123|x]]", to: []string{"New.md"}, want: "[[New#^abc123|x]]"},
	{desc: "embed", vault: []string{"New.md"}, give: "![[Old]]\n", to: []string{"New.md"}, want: "![[New]]\n"},
	{desc: "escaped pipe in a table", vault: []string{"New Name.md"},
		give: "| a | b |\n| --- | --- |\n| x | [[Old\\|alias]] |\n", to: []string{"New Name.md"},
		want: "| a | b |\n| --- | --- |\n| x | [[New Name\\|alias]] |\n"},
	{desc: "spaces around the target kept", vault: []string{"New.md"}, give: "[[ Old |a]]", to: []string{"New.md"}, want: "[[ New |a]]"},
	{desc: "with .md kept", vault: []string{"New.md"}, give: "[[Old.md]] [[Old]]", to: []string{"New.md", "New.md"}, want: "[[New.md]] [[New]]"},
	{desc: "code is not a link", vault: []string{"New.md"}, give: "`[[Old]]` [[Old]]\n```\n[[Old]]\n```\n", to: []string{"New.md"}, want: "`[[Old]]` [[New]]\n```\n[[Old]]\n```\n"},
	{desc: "case change", vault: []string{"OLD.md"}, give: "[[old]] [x](old.md)", to: []string{"OLD.md", "OLD.md"}, want: "[[OLD]] [x](OLD.md)"},
	{desc: "non-ASCII name", vault: []string{"Notes/東京 Trip.md", "Café.md"}, give: "[[Tokyo]] [[cafe]]", to: []string{"Notes/東京 Trip.md", "Café.md"}, want: "[[東京 Trip]] [[Café]]"},
	{desc: "bare name ambiguous after the rename", vault: []string{"X/New.md", "Deep/Er/New.md"},
		give: "[[Old]] and [[Old|alias]]", to: []string{"Deep/Er/New.md", "Deep/Er/New.md"}, want: "[[Er/New]] and [[Er/New|alias]]"},
	{desc: "bare name ambiguous, full path needed", vault: []string{"X/New.md", "A/X/New.md"},
		give: "[[Old]]", to: []string{"A/X/New.md"}, want: "[[A/X/New]]"},
	{desc: "bare name of a note in the source's folder, another note of that name", vault: []string{"Deep/Er/New.md", "X/New.md"}, source: "Deep/Er/Src.md",
		give: "[[Old]]", to: []string{"Deep/Er/New.md"}, want: "[[Er/New]]"},
	{desc: "bare name of the note at that vault path, another note of that name", vault: []string{"New.md", "X/New.md"},
		give: "[[Old]] [[X/Old]]", to: []string{"New.md", "X/New.md"}, want: "[[New]] [[X/New]]"},
	{desc: "bare name ambiguous: the suffix that only one note has", vault: []string{"A/X/New.md", "B/X/New.md", "New.md"},
		give: "[[Old]] [[Old|a]]", to: []string{"A/X/New.md", "B/X/New.md"}, want: "[[A/X/New]] [[B/X/New|a]]"},
	{desc: "bare name of a note in the source's folder, unique, stays bare", vault: []string{"Deep/Er/New.md", "X/Other.md"}, source: "Deep/Er/Src.md",
		give: "[[Old]]", to: []string{"Deep/Er/New.md"}, want: "[[New]]"},
	{desc: "path-qualified, ambiguous suffix", vault: []string{"A/F/New.md", "B/F/New.md"},
		give: "[[F/Old]]", to: []string{"B/F/New.md"}, want: "[[B/F/New]]"},
	{desc: "bare name, moved deeper", vault: []string{"A/B/Old.md"}, give: "[[Old]]", to: []string{"A/B/Old.md"}, want: "[[Old]]"},
	{desc: "path-qualified, renamed", vault: []string{"Folder/New.md"}, give: "[[Folder/Old]]", to: []string{"Folder/New.md"}, want: "[[Folder/New]]"},
	{desc: "path-qualified, moved", vault: []string{"Other/Old.md"}, give: "[[Folder/Old|o]]", to: []string{"Other/Old.md"}, want: "[[Other/Old|o]]"},
	{desc: "path-qualified, moved deeper: shortest suffix with a folder", vault: []string{"A/B/C/Old.md"}, give: "[[Folder/Old]]", to: []string{"A/B/C/Old.md"}, want: "[[C/Old]]"},
	{desc: "path-qualified, moved to the root", vault: []string{"Old.md"}, give: "[[Folder/Old]]", to: []string{"Old.md"}, want: "[[Old]]"},
	{desc: "leading slash kept", vault: []string{"B/New.md"}, give: "[[/A/Old]]", to: []string{"B/New.md"}, want: "[[/B/New]]"},
	{desc: "relative ../", vault: []string{"Archive/New.md"}, source: "Sub/Src.md", give: "[[../Old]]", to: []string{"Archive/New.md"}, want: "[[../Archive/New]]"},
	{desc: "relative ../ into the same folder", vault: []string{"Sub/Old.md", "Old.md"}, source: "Sub/Src.md", give: "[[../Old]]", to: []string{"Sub/Old.md"}, want: "[[./Old]]"},
	{desc: "relative ./", vault: []string{"Sub/Deeper/New.md"}, source: "Sub/Src.md", give: "[[./Old.md]]", to: []string{"Sub/Deeper/New.md"}, want: "[[./Deeper/New.md]]"},

	// Frontmatter.
	{desc: "frontmatter property", vault: []string{"New.md"}, give: "---\nrelated: \"[[Old]]\"\n---\nbody [[Old]]\n", to: []string{"New.md", "New.md"},
		want: "---\nrelated: \"[[New]]\"\n---\nbody [[New]]\n"},
	{desc: "frontmatter list", vault: []string{"Folder/New.md", "Other.md"}, give: "---\nrelated: [\"[[Old]]\", \"[[Other]]\"]\n---\n", to: []string{"Folder/New.md", "Other.md"},
		want: "---\nrelated: [\"[[New]]\", \"[[Other]]\"]\n---\n"},
	{desc: "frontmatter block list", vault: []string{"X/New.md", "Y/New.md"}, give: "---\nup:\n  - \"[[Old|o]]\"\n---\n", to: []string{"Y/New.md"},
		want: "---\nup:\n  - \"[[Y/New|o]]\"\n---\n"},

	// Markdown links.
	{desc: "markdown link", vault: []string{"New.md"}, give: "[x](Old.md)", to: []string{"New.md"}, want: "[x](New.md)"},
	{desc: "markdown link with a heading and a title", vault: []string{"New.md"}, give: "[x](Old.md#Part%20two \"t\")", to: []string{"New.md"}, want: "[x](New.md#Part%20two \"t\")"},
	{desc: "markdown image", vault: []string{"New.md"}, give: "![x](Old.md)", to: []string{"New.md"}, want: "![x](New.md)"},
	{desc: "%20 kept", vault: []string{"New Name.md"}, give: "[x](Old%20Name.md)", to: []string{"New Name.md"}, want: "[x](New%20Name.md)"},
	{desc: "angle brackets kept", vault: []string{"New Name.md"}, give: "[x](<Old Name.md>)", to: []string{"New Name.md"}, want: "[x](<New Name.md>)"},
	{desc: "plain gets %20 for a space", vault: []string{"New Name (v2).md"}, give: "[x](Old.md)", to: []string{"New Name (v2).md"}, want: "[x](New%20Name%20%28v2%29.md)"},
	{desc: "without .md", vault: []string{"New.md"}, give: "[x](Old)", to: []string{"New.md"}, want: "[x](New)"},
	{desc: "relative ../", vault: []string{"Archive/Old.md"}, source: "Sub/Src.md", give: "[x](../Old.md)", to: []string{"Archive/Old.md"}, want: "[x](../Archive/Old.md)"},
	{desc: "relative ../ to the same folder", vault: []string{"Sub/Old.md"}, source: "Sub/Src.md", give: "[x](../Old.md)", to: []string{"Sub/Old.md"}, want: "[x](Old.md)"},
	{desc: "relative ./ kept", vault: []string{"Sub/In/Old.md"}, source: "Sub/Src.md", give: "[x](./Old.md)", to: []string{"Sub/In/Old.md"}, want: "[x](./In/Old.md)"},
	{desc: "vault path kept", vault: []string{"Folder/New.md", "A/Other.md"}, source: "A/Src.md", give: "[x](Folder/Old.md)", to: []string{"Folder/New.md"}, want: "[x](Folder/New.md)"},
	{desc: "path relative to the source's folder kept", vault: []string{"A/Sub/New.md", "A/Sub/Other.md"}, source: "A/Src.md",
		give: "[x](Sub/Old.md)", to: []string{"A/Sub/New.md"}, want: "[x](Sub/New.md)"},
	{desc: "leading slash kept", vault: []string{"B/New.md"}, source: "A/Src.md", give: "[x](/A/Old.md)", to: []string{"B/New.md"}, want: "[x](/B/New.md)"},
	// A bare markdown file name is a path relative to the note's folder:
	// it stays bare only while the target is in that folder.
	{desc: "bare file name, moved to the root", vault: []string{"Old.md"}, source: "A/Src.md", give: "[x](Old.md)", to: []string{"Old.md"}, want: "[x](../Old.md)"},
	{desc: "bare file name, ambiguous after the move", vault: []string{"Old.md", "Deep/Er/Old.md"}, source: "A/Src.md",
		give: "[x](Old.md)", to: []string{"Deep/Er/Old.md"}, want: "[x](../Deep/Er/Old.md)"},
	{desc: "vault path, moved to the root", vault: []string{"Old.md"}, give: "[x](Folder/Old.md)", to: []string{"Old.md"}, want: "[x](Old.md)"},
	{desc: "vault path, moved deeper", vault: []string{"A/B/C/Old.md"}, give: "[x](Folder/Old.md)", to: []string{"A/B/C/Old.md"}, want: "[x](A/B/C/Old.md)"},
	{desc: "non-ASCII kept as is", vault: []string{"Notes/東京 Trip.md"}, give: "[x](Tokyo.md) [y](Old/Tokyo.md)", to: []string{"Notes/東京 Trip.md", "Notes/東京 Trip.md"},
		want: "[x](Notes/東京%20Trip.md) [y](Notes/東京%20Trip.md)"},
	{desc: "non-ASCII encoded like raw", vault: []string{"Café Menu.md"}, give: "[x](Caf%C3%A9.md) [y](caf%c3%a9.md)", to: []string{"Café Menu.md", "Café Menu.md"},
		want: "[x](Caf%C3%A9%20Menu.md) [y](Caf%c3%a9%20Menu.md)"},
	{desc: "non-ASCII in angle brackets", vault: []string{"Notes/東京 Trip.md"}, give: "[x](<Old Trip.md>)", to: []string{"Notes/東京 Trip.md"}, want: "[x](<Notes/東京 Trip.md>)"},
	{desc: "ampersand", vault: []string{"R&D.md", "a&amp;b.md"}, give: "[x](Old.md) [y](Old.md)", to: []string{"R&D.md", "a&amp;b.md"},
		want: "[x](R&D.md) [y](a%26amp;b.md)"},
	{desc: "escapes in raw", vault: []string{"New_Name.md"}, give: "[x](Old\\_Name.md)", to: []string{"New_Name.md"}, want: "[x](New_Name.md)"},
	{desc: "trailing backslash only with .md", vault: []string{`a\.md`}, give: "[[Old|x]]", to: []string{`a\.md`}, want: "[[a\\.md|x]]"},
	{desc: "name that reads as a URL scheme", vault: []string{"A0:.md", "mailto:x.md"}, give: "[x](Old) [y](Old.md)", to: []string{"A0:.md", "mailto:x.md"},
		want: "[x](./A0:) [y](./mailto:x.md)"},
	{desc: "percent in a name", vault: []string{"50% off.md"}, give: "[x](Old.md) [[Old]]", to: []string{"50% off.md", "50% off.md"}, want: "[x](50%25%20off.md) [[50% off]]"},

	// Source moved: its own links follow.
	{desc: "moved source, relative links", vault: []string{"Other.md", "Deep/Sib.md"}, source: "Deep/Src.md",
		give: "[a](./Other.md) [b](Other.md) [[./Other]] [[Other]]", to: []string{"Other.md", "Other.md", "Other.md", "Other.md"},
		want: "[a](../Other.md) [b](../Other.md) [[../Other]] [[Other]]"},
	{desc: "untouched links", vault: []string{"New.md", "Keep.md"}, give: "[[Keep]] [[Old]] [k](Keep.md) [[missing]] ![i](p.png)", to: []string{"", "New.md", "", "", ""},
		want: "[[Keep]] [[New]] [k](Keep.md) [[missing]] ![i](p.png)"},
}

func TestRetarget(t *testing.T) {
	for _, tt := range retargetTests {
		t.Run(tt.desc, func(t *testing.T) {
			idx, source := tt.index()
			got := checkRetarget(t, idx, source, tt.give, tt.to, false)
			if got != tt.want {
				t.Errorf("rewritten note = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRetargetEdit runs the same cases through RetargetEdit, which sees
// the whole note.
func TestRetargetEdit(t *testing.T) {
	for _, tt := range retargetTests {
		t.Run(tt.desc, func(t *testing.T) {
			idx, source := tt.index()
			got := checkRetarget(t, idx, source, tt.give, tt.to, true)
			if got != tt.want {
				t.Errorf("rewritten note = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRetargetEditContext covers what only RetargetEdit can see: angle
// brackets around a destination without spaces, the quotes around a
// frontmatter link, backticks before a wikilink.
func TestRetargetEditContext(t *testing.T) {
	tests := []struct {
		desc     string
		vault    []string
		give     string
		to       []string
		want     string // by RetargetEdit
		wantText string // by Retarget, or "error"
	}{
		{desc: "angle brackets without a space", vault: []string{"New Name.md"}, give: "[x](<Old.md>)", to: []string{"New Name.md"},
			want: "[x](<New Name.md>)", wantText: "[x](<New%20Name.md>)"},
		{desc: "apostrophe in double quotes", vault: []string{"Bob's Notes.md"}, give: "---\nrel: \"[[Old]]\"\n---\n", to: []string{"Bob's Notes.md"},
			want: "---\nrel: \"[[Bob's Notes]]\"\n---\n", wantText: "error"},
		{desc: "apostrophe in single quotes", vault: []string{"Bob's Notes.md"}, give: "---\nrel: '[[Old]]'\n---\n", to: []string{"Bob's Notes.md"},
			want: "---\nrel: '[[Bob''s Notes]]'\n---\n", wantText: "error"},
		{desc: "double quote and backslash in double quotes", vault: []string{`A "B".md`, `a\b.md`}, give: "---\nrel: [\"[[Old]]\", \"[[Old|x]]\"]\n---\n",
			to: []string{`A "B".md`, `a\b.md`}, want: "---\nrel: [\"[[A \\\"B\\\"]]\", \"[[a\\\\b|x]]\"]\n---\n", wantText: "error"},
		{desc: "escapes in the target as written", vault: []string{"Thé.md"}, give: "---\nrel: \"[[Caf\\u00e9\\x20x|\\\"a\\\"]]\"\n---\n", to: []string{"Thé.md"},
			want: "---\nrel: \"[[Thé|\\\"a\\\"]]\"\n---\n", wantText: "---\nrel: \"[[Thé|\\\"a\\\"]]\"\n---\n"},
		{desc: "doubled apostrophe in single quotes", vault: []string{"Bob's.md", "It's.md"}, give: "---\nrel: '[[It''s|it''s]]'\n---\n", to: []string{"Bob's.md"},
			want: "---\nrel: '[[Bob''s|it''s]]'\n---\n", wantText: "error"},
		{desc: "quotes in a block scalar", vault: []string{`A "B's".md`}, give: "---\nrel: |\n  \"[[Old]]\" it's\n---\n", to: []string{`A "B's".md`},
			want: "---\nrel: |\n  \"[[A \"B's\"]]\" it's\n---\n", wantText: "error"},
		{desc: "link across a folded line in double quotes", vault: []string{"New.md"}, give: "---\nrel: \"see [[Old\n  Name|a]]\"\n---\n", to: []string{"New.md"},
			want: "---\nrel: \"see [[New|a]]\"\n---\n", wantText: "---\nrel: \"see [[New|a]]\"\n---\n"},
		{desc: "quoted scalar opened on an earlier line", vault: []string{"Bob's.md"}, give: "---\nrel: 'first\n  [[Old]]'\n---\n", to: []string{"Bob's.md"},
			want: "---\nrel: 'first\n  [[Bob''s]]'\n---\n", wantText: "error"},
		{desc: "double quote in single quotes", vault: []string{`A "B".md`}, give: "---\nrel: ['[[Old]]']\n---\n", to: []string{`A "B".md`},
			want: "---\nrel: ['[[A \"B\"]]']\n---\n", wantText: "error"},
		{desc: "comma in a plain scalar", vault: []string{"Smith, John.md"}, give: "---\nrel: see [[Old]]\n---\n", to: []string{"Smith, John.md"},
			want: "error", wantText: "error"},
		{desc: "apostrophe already there", vault: []string{"Bob's New.md"}, give: "---\nrel: \"[[Bob's Old]]\"\n---\n", to: []string{"Bob's New.md"},
			want: "---\nrel: \"[[Bob's New]]\"\n---\n", wantText: "---\nrel: \"[[Bob's New]]\"\n---\n"},
		{desc: "backtick, none before", vault: []string{"a`b.md"}, give: "x `c` y\n\nsee [[Old]] `d`", to: []string{"a`b.md"},
			want: "x `c` y\n\nsee [[a`b]] `d`", wantText: "error"},
		{desc: "backtick after one before", vault: []string{"a`b.md"}, give: "x ` y [[Old]]", to: []string{"a`b.md"},
			want: "error", wantText: "error"},
		{desc: "backtick in a markdown link", vault: []string{"a`b.md"}, give: "x ` y [l](Old.md)", to: []string{"a`b.md"},
			want: "x ` y [l](a%60b.md)", wantText: "x ` y [l](a%60b.md)"},
		{desc: "fragment with a stray percent", vault: []string{"New Name.md"}, give: "[x](Old.md#100%)", to: []string{"New Name.md"},
			want: "error", wantText: "error"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			c := retargetCase{vault: tt.vault}
			idx, source := c.index()
			for i, useEdit := range []bool{true, false} {
				want := []string{tt.want, tt.wantText}[i]
				if want == "error" {
					if err := retargetError(t, idx, source, tt.give, tt.to, useEdit); !errors.Is(err, ErrCannotRetarget) {
						t.Errorf("edit=%v: error = %v, want ErrCannotRetarget", useEdit, err)
					}
					continue
				}
				if got := checkRetarget(t, idx, source, tt.give, tt.to, useEdit); got != want {
					t.Errorf("edit=%v: rewritten note = %q, want %q", useEdit, got, want)
				}
			}
		})
	}
}

func TestRetargetErrors(t *testing.T) {
	tests := []struct {
		desc  string
		vault []string
		give  string
		want  string // the note to point the first link at
	}{
		{desc: "pipe in a wikilink", vault: []string{"a|b.md"}, give: "[[Old]]", want: "a|b.md"},
		{desc: "bracket in a wikilink", vault: []string{"a]b.md"}, give: "[[Old]]", want: "a]b.md"},
		{desc: "hash in a wikilink", vault: []string{"a#b.md"}, give: "[[Old]]", want: "a#b.md"},
		{desc: "hash in a folder", vault: []string{"C#/x.md", "D/x.md"}, give: "[[Old]]", want: "C#/x.md"},
		{desc: "hash in a markdown link", vault: []string{"a#b.md"}, give: "[x](Old.md)", want: "a#b.md"},
		{desc: "HTML in a wikilink", vault: []string{"<b>.md"}, give: "[[Old]]", want: "<b>.md"},
		{desc: "line break", vault: []string{"a\nb.md"}, give: "[[Old]]", want: "a\nb.md"},
		{desc: "not in the index", vault: []string{"New.md"}, give: "[[Old]]", want: "Gone.md"},
		{desc: "reference link", vault: []string{"New.md"}, give: "[x][r]\n\n[r]: Old.md\n", want: "New.md"},
		{desc: "self link", vault: []string{"New.md"}, give: "[[#Heading]]", want: "New.md"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			c := retargetCase{vault: tt.vault}
			idx, source := c.index()
			n := mustParse(t, source, tt.give)
			if len(n.Links) == 0 {
				t.Fatalf("no link in %q", tt.give)
			}
			l := n.Links[0]
			raw := ""
			if l.TargetStart >= 0 {
				raw = tt.give[l.TargetStart:l.TargetEnd]
			}
			got, err := Retarget(idx, source, l, raw, tt.want)
			if !errors.Is(err, ErrCannotRetarget) {
				t.Fatalf("Retarget(%q, %q) = %q, %v, want ErrCannotRetarget", raw, tt.want, got, err)
			}
			if msg := err.Error(); !strings.Contains(msg, source) || !strings.Contains(msg, tt.want) || !strings.Contains(msg, raw) {
				t.Errorf("Retarget error %q does not name source %q, raw %q and want %q", msg, source, raw, tt.want)
			}
			if _, err := RetargetEdit(idx, source, []byte(tt.give), l, tt.want); !errors.Is(err, ErrCannotRetarget) {
				t.Errorf("RetargetEdit(%q, %q) error = %v, want ErrCannotRetarget", raw, tt.want, err)
			}
		})
	}
}

// index returns the index of the case's vault, with its source.
func (c retargetCase) index() (*Index, string) {
	source := c.source
	if source == "" {
		source = "Src.md"
	}
	idx := NewIndex()
	idx.AddNote(source)
	for _, id := range c.vault {
		idx.AddNote(id)
	}
	return idx, source
}

// retargetAll points each link of the note src at to[i] and returns the
// edits, or the first error.
func retargetAll(t testing.TB, idx *Index, source, src string, to []string, useEdit bool) ([]Link, []Edit, error) {
	t.Helper()
	n := mustParse(t, source, src)
	if len(n.Links) != len(to) {
		t.Fatalf("note %q has %d links, the case gives %d targets: %+v", src, len(n.Links), len(to), n.Links)
	}
	var edits []Edit
	for i, l := range n.Links {
		if to[i] == "" {
			continue
		}
		if useEdit {
			e, err := RetargetEdit(idx, source, []byte(src), l, to[i])
			if err != nil {
				return nil, nil, err
			}
			edits = append(edits, e)
			continue
		}
		raw := src[l.TargetStart:l.TargetEnd]
		text, err := Retarget(idx, source, l, raw, to[i])
		if err != nil {
			return nil, nil, err
		}
		edits = append(edits, Edit{Start: l.TargetStart, End: l.TargetEnd, Text: text})
	}
	return n.Links, edits, nil
}

func retargetError(t testing.TB, idx *Index, source, src string, to []string, useEdit bool) error {
	t.Helper()
	_, _, err := retargetAll(t, idx, source, src, to, useEdit)
	return err
}

// checkRetarget rewrites the note src and checks that only the target
// ranges changed and that, parsed again, each link resolves to its new
// target (or, if left alone, to what it resolved to before).
func checkRetarget(t testing.TB, idx *Index, source, src string, to []string, useEdit bool) string {
	t.Helper()
	links, edits, err := retargetAll(t, idx, source, src, to, useEdit)
	if err != nil {
		t.Fatalf("retarget %q: %v", src, err)
	}
	out, err := ApplyEdits([]byte(src), edits)
	if err != nil {
		t.Fatalf("ApplyEdits(%q, %v): %v", src, edits, err)
	}
	checkOutsideEdits(t, src, string(out), edits)
	after := mustParse(t, source, string(out))
	if len(after.Links) != len(links) {
		t.Fatalf("rewritten note %q has %d links, want %d", out, len(after.Links), len(links))
	}
	for i, l := range after.Links {
		want := to[i]
		if want == "" {
			want, _ = idx.Resolve(source, links[i])
		}
		got, _ := idx.Resolve(source, l)
		if got != want {
			t.Errorf("link %d %q of the rewritten note resolves to %q, want %q", i, string(out)[l.Start:l.End], got, want)
		}
		if l.Kind != links[i].Kind || l.Fragment != links[i].Fragment || l.Alias != links[i].Alias {
			t.Errorf("link %d %q of the rewritten note = %+v, want kind, fragment and alias of %+v", i, string(out)[l.Start:l.End], l, links[i])
		}
	}
	return string(out)
}

// checkOutsideEdits checks that the bytes of src outside the edits are in
// out, unchanged and in place.
func checkOutsideEdits(t testing.TB, src, out string, edits []Edit) {
	t.Helper()
	edits = append([]Edit(nil), edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	at, shift := 0, 0
	for _, e := range edits {
		if got := out[at+shift : e.Start+shift]; got != src[at:e.Start] {
			t.Fatalf("bytes [%d,%d) = %q after the edits, want %q", at, e.Start, got, src[at:e.Start])
		}
		shift += len(e.Text) - (e.End - e.Start)
		at = e.End
	}
	if got := out[at+shift:]; got != src[at:] {
		t.Fatalf("bytes from %d = %q after the edits, want %q", at, got, src[at:])
	}
}

// fuzzNotes turns the lines of names into note IDs: NFC, with ".md", no
// empty, "." or ".." folder, at most eight. Lines that name an attachment
// (fuzzFiles) are left out.
func fuzzNotes(names string) []string {
	return fuzzPaths(names, false)
}

// fuzzFiles turns the lines of names that name an attachment ("a/b.png")
// into attachment paths, as fuzzNotes does notes.
func fuzzFiles(names string) []string {
	return fuzzPaths(names, true)
}

func fuzzPaths(names string, files bool) []string {
	var out []string
	for _, line := range strings.Split(names, "\n") {
		if len(out) == 8 {
			break
		}
		if !utf8.ValidString(line) || line == "" || IsAttachmentName(line) != files {
			continue
		}
		id := NFC(line)
		if !files && !HasMD(id) {
			id += ".md"
		}
		ok := true
		for _, seg := range strings.Split(id, "/") {
			if seg == "" || seg == "." || seg == ".." {
				ok = false
			}
		}
		if ok {
			out = append(out, id)
		}
	}
	return out
}

func FuzzRetarget(f *testing.F) {
	seeds := []struct{ names, src string }{
		{"Old\nSub/Old\nA/B/New Name", "[[Old]] [[Sub/Old|x]] [y](New%20Name.md) [z](<A/B/New Name.md#h>)"},
		{"Sub/Src\nOther\nSub/Deep/Other", "[[../Other]] [[./Deep/Other]] [a](../Other.md) [b](Deep/Other.md)"},
		{"東京 Trip\nCafé\nX/Café", "[[東京 Trip]] [c](Caf%C3%A9.md) [d](<X/Café.md>)"},
		{"a\nb\nc/a", "---\nrelated: [\"[[a]]\", \"[[b]]\"]\nup: '[[c/a]]'\nx: see [[b]]\n---\n| t | [[a\\|b]] |\n"},
		{"Bob's\nSmith, J\n50% off\nq(1)", "---\nr: \"[[Bob's]]\"\n---\n[x](q(1).md) [y](50%25%20off.md) `[[a]]` [[Smith, J]]"},
		{"a`b\nc\nd#e\nf|g", "x ` y [[c]] [z](c.md)\n\n[[c#h]] ![[c]] [w][r]\n\n[r]: c.md\n"},
		{"Old\nSub/New Name\nIt's", "[a][r] [r][] ![i][R]\n\n[r]: <Old.md#h> \"t\"\n[s]:\n  Sub/New%20Name.md\n[x][s]\n"},
		{"Old\nIt's\nA \"B\"", "---\nrel: '[[Old|it''s]]'\nq: \"[[Caf\\u00e9|say \\\"hi\\\"]]\"\nl: ['[[It''s]]', \"[[Old]]\"]\nm: \"x\n  [[Old\n  y]]\"\nb: |\n  \"[[Old]]\"\n---\n"},
		{"Sub/Src\nSub/pic.png\nDiagram.png\nAb/pic.png", "![d](../Diagram.png) [p](./pic.png) ![q](pic.png) ![[pic.png]] ![[./pic.png|w]] [m](../Missing.png)"},
	}
	for i, s := range seeds {
		f.Add(s.names, s.src, uint8(i))
	}
	f.Fuzz(func(t *testing.T, names, src string, shift uint8) {
		if len(src) > 2048 || len(names) > 1024 {
			return
		}
		idx := NewIndex()
		var notes []string
		for _, id := range fuzzNotes(names) {
			idx.AddNote(id)
			if got, ok := idx.Note(id); ok && got == id {
				notes = append(notes, id)
			}
		}
		for _, p := range fuzzFiles(names) {
			idx.AddFile(p)
		}
		if len(notes) == 0 {
			return
		}
		source := notes[int(shift)%len(notes)]
		n, err := testParser.ParseForRewrite(source, []byte(src))
		if err != nil {
			return
		}
		for i, l := range n.Links {
			if i == 32 {
				break // each link costs a parse: keep an input fast
			}
			if f, ok := idx.ResolveFile(source, l); ok {
				// The same file, from the note moved elsewhere.
				moved := path.Join(notes[(i+int(shift)+1)%len(notes)], "..", "Zq", path.Base(source))
				x := idx.Clone()
				x.RemoveNote(source)
				x.AddNote(moved)
				e, err := RetargetFileEdit(x, moved, []byte(src), l, f)
				if err != nil {
					if !errors.Is(err, ErrCannotRetarget) {
						t.Fatalf("RetargetFileEdit(%+v, %+v) error %v, want ErrCannotRetarget", l, f, err)
					}
					continue
				}
				checkFuzzFile(t, x, moved, src, n.Links, i, e, f)
				continue
			}
			cur, st := idx.Resolve(source, l)
			if st != Resolved {
				continue
			}
			for _, want := range []string{cur, notes[(i+int(shift))%len(notes)]} {
				for _, useEdit := range []bool{false, true} {
					var e Edit
					var err error
					if useEdit {
						e, err = RetargetEdit(idx, source, []byte(src), l, want)
					} else {
						raw := ""
						if l.TargetStart >= 0 {
							raw = src[l.TargetStart:l.TargetEnd]
						}
						e.Start, e.End = l.TargetStart, l.TargetEnd
						e.Text, err = Retarget(idx, source, l, raw, want)
					}
					if err != nil {
						if !errors.Is(err, ErrCannotRetarget) {
							t.Fatalf("Retarget(%+v, %q) error %v, want ErrCannotRetarget", l, want, err)
						}
						continue
					}
					checkFuzzRetarget(t, idx, source, src, n.Links, i, e, want)
				}
			}
		}
	})
}

// checkFuzzRetarget checks that the note src, with the edit e to its link
// i, parses to the same links, link i resolving to want and the others as
// before.
func checkFuzzRetarget(t *testing.T, idx *Index, source, src string, links []Link, i int, e Edit, want string) {
	t.Helper()
	out, after := applyAndParse(t, source, src, links, i, e)
	for j, l := range after.Links {
		wantID, wantSt := idx.Resolve(source, links[j])
		if j == i || sameTargetRange(links[j], links[i]) { // one reference definition
			wantID, wantSt = want, Resolved
			at := links[j].Start
			if at >= e.End { // a definition may come before the link
				at += len(e.Text) - (e.End - e.Start)
			}
			if l.Start != at || l.Kind != links[j].Kind {
				t.Fatalf("link %d to %q: %q parses to %+v, want it at %d", i, want, out, l, at)
			}
		}
		if id, st := idx.Resolve(source, l); id != wantID || st != wantSt {
			t.Fatalf("link %d to %q: in %q, link %d %+v resolves to %q (%s), want %q (%s)", i, want, out, j, l, id, st, wantID, wantSt)
		}
	}
}

// TestRetargetReferenceDefinition rewrites reference-style links through
// the ranges ParseForRewrite gives them: the destination of their
// definition, edited once however many links use it.
func TestRetargetReferenceDefinition(t *testing.T) {
	tests := []struct {
		desc   string
		vault  []string
		source string
		give   string
		to     string // the note every reference link now points at
		want   string
	}{
		{desc: "one definition, several links, title kept", vault: []string{"New Name.md"},
			give: "[a][r], [r][] and ![i][R]\n\n[r]: Old.md \"title\"\n", to: "New Name.md",
			want: "[a][r], [r][] and ![i][R]\n\n[r]: New%20Name.md \"title\"\n"},
		{desc: "angle brackets and a fragment", vault: []string{"New Name.md"},
			give: "[a][r]\n\n[r]: <Old Name.md#Part> 'title'\n", to: "New Name.md",
			want: "[a][r]\n\n[r]: <New Name.md#Part> 'title'\n"},
		{desc: "percent-encoded, on the next line", vault: []string{"Sub/New Name.md"},
			give: "[a][r]\n\n[r]:\n  Old%20Name.md (t)\n", to: "Sub/New Name.md",
			want: "[a][r]\n\n[r]:\n  Sub/New%20Name.md (t)\n"},
		{desc: "relative from a moved note", vault: []string{"Home.md"}, source: "Deep/Er/Src.md",
			give: "[h][home]\n\n> [home]: ../Home.md\n", to: "Home.md",
			want: "[h][home]\n\n> [home]: ../../Home.md\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			c := retargetCase{vault: tt.vault, source: tt.source}
			idx, source := c.index()
			n, err := testParser.ParseForRewrite(source, []byte(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			var edits []Edit
			done := map[[2]int]bool{}
			for _, l := range n.Links {
				e, err := RetargetEdit(idx, source, []byte(tt.give), l, tt.to)
				if err != nil {
					t.Fatalf("RetargetEdit(%q): %v", tt.give[l.Start:l.End], err)
				}
				if done[[2]int{e.Start, e.End}] {
					continue
				}
				done[[2]int{e.Start, e.End}] = true
				edits = append(edits, e)
			}
			out, err := ApplyEdits([]byte(tt.give), edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Fatalf("rewritten = %q, want %q", out, tt.want)
			}
			for _, l := range mustParse(t, source, string(out)).Links {
				if id, _ := idx.Resolve(source, l); id != tt.to {
					t.Errorf("link %q resolves to %q, want %q", string(out)[l.Start:l.End], id, tt.to)
				}
			}
		})
	}
}

func sameTargetRange(a, b Link) bool {
	return a.TargetStart >= 0 && a.TargetStart == b.TargetStart && a.TargetEnd == b.TargetEnd
}

// checkFuzzFile checks that the note src, moved to source (idx is the
// index after the move), with the edit e to its link i, parses to the same
// links, link i (and any sharing its reference definition) finding the
// file f, by a path if it did, and the others resolving as before the
// edit.
func checkFuzzFile(t *testing.T, idx *Index, source, src string, links []Link, i int, e Edit, f FileTarget) {
	t.Helper()
	out, after := applyAndParse(t, source, src, links, i, e)
	for j, l := range after.Links {
		if j == i || sameTargetRange(links[j], links[i]) {
			if g, ok := idx.ResolveFile(source, l); !ok || !g.Same(f) || g.ByName && !f.ByName {
				t.Fatalf("link %d to the file %+v: in %q, link %d %+v finds %+v", i, f, out, j, l, g)
			}
			continue
		}
		wantID, wantSt := idx.Resolve(source, links[j])
		if id, st := idx.Resolve(source, l); id != wantID || st != wantSt {
			t.Fatalf("link %d to the file %+v: in %q, link %d %+v resolves to %q (%s), want %q (%s)", i, f, out, j, l, id, st, wantID, wantSt)
		}
	}
}

// applyAndParse applies the edit e (to link i of links) to src, checks
// that nothing outside it changed, and parses the result as source: it
// must have as many links as before.
func applyAndParse(t *testing.T, source, src string, links []Link, i int, e Edit) ([]byte, *Note) {
	t.Helper()
	out, err := ApplyEdits([]byte(src), []Edit{e})
	if err != nil {
		t.Fatalf("ApplyEdits(%v) for link %+v: %v", e, links[i], err)
	}
	checkOutsideEdits(t, src, string(out), []Edit{e})
	after, err := testParser.Parse(source, out)
	if err != nil {
		t.Fatalf("Parse(%q): %v", out, err)
	}
	if len(after.Links) != len(links) {
		t.Fatalf("edit %v of link %d: %q parses to %d links, want %d", e, i, out, len(after.Links), len(links))
	}
	return out, after
}

// Retarget is retarget for a link whose raw target is written in angle
// brackets when it holds a space or a tab.
func Retarget(idx *Index, source string, l Link, raw string, want string) (text string, err error) {
	return retarget(idx, source, l, raw, want, linkContext{angle: strings.ContainsAny(raw, " \t")})
}
