package vault

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testParser is shared by the tests: a Parser is safe for concurrent use.
var testParser = NewParser()

// mustParse parses src as the note id and fails the test on an error.
func mustParse(t testing.TB, id, src string) *Note {
	t.Helper()
	n, err := testParser.Parse(id, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q) error: %v", src, err)
	}
	if n == nil {
		t.Fatalf("Parse(%q) = nil note", src)
	}
	return n
}

// noRange stands for a link without a target range (TargetStart == -1),
// as a reference-style markdown link has.
const noRange = "<no range>"

// gotLink is a Link as the tests compare it: the byte ranges are replaced
// by the text they cover, so that a wrong offset shows as wrong text.
type gotLink struct {
	Kind     LinkKind
	Target   string
	Fragment string
	Alias    string
	Property string
	Text     string // src[Start:End]
	TargetAt string // src[TargetStart:TargetEnd], or noRange
	Line     int
}

func linksOf(t testing.TB, src string, links []Link) []gotLink {
	t.Helper()
	var out []gotLink
	for _, l := range links {
		g := gotLink{Kind: l.Kind, Target: l.Target, Fragment: l.Fragment, Alias: l.Alias, Property: l.Property, Line: l.Line}
		if l.Start < 0 || l.Start > l.End || l.End > len(src) {
			t.Fatalf("link %+v: range [%d,%d) outside the %d-byte source", l, l.Start, l.End, len(src))
		}
		g.Text = src[l.Start:l.End]
		switch {
		case l.TargetStart == -1 && l.TargetEnd == -1:
			g.TargetAt = noRange
		case l.Start <= l.TargetStart && l.TargetStart <= l.TargetEnd && l.TargetEnd <= l.End:
			g.TargetAt = src[l.TargetStart:l.TargetEnd]
		default:
			t.Fatalf("link %+v: target range [%d,%d) outside the link [%d,%d)", l, l.TargetStart, l.TargetEnd, l.Start, l.End)
		}
		out = append(out, g)
	}
	return out
}

func TestParseLinks(t *testing.T) {
	tests := []struct {
		desc string
		give string
		want []gotLink
	}{
		{
			desc: "wikilink",
			give: "See [[Target]].",
			want: []gotLink{{Kind: KindWiki, Target: "Target", Text: "[[Target]]", TargetAt: "Target", Line: 1}},
		},
		{
			desc: "wikilink with alias",
			give: "See [[Target|the alias]].",
			want: []gotLink{{Kind: KindWiki, Target: "Target", Alias: "the alias", Text: "[[Target|the alias]]", TargetAt: "Target", Line: 1}},
		},
		{
			desc: "wikilink to a heading",
			give: "[[Target#Some Heading]]",
			want: []gotLink{{Kind: KindWiki, Target: "Target", Fragment: "Some Heading", Text: "[[Target#Some Heading]]", TargetAt: "Target", Line: 1}},
		},
		{
			desc: "wikilink to a block",
			give: "[[Target#^b1]]",
			want: []gotLink{{Kind: KindWiki, Target: "Target", Fragment: "^b1", Text: "[[Target#^b1]]", TargetAt: "Target", Line: 1}},
		},
		{
			desc: "wikilink with heading and alias",
			give: "[[Target#H|shown]]",
			want: []gotLink{{Kind: KindWiki, Target: "Target", Fragment: "H", Alias: "shown", Text: "[[Target#H|shown]]", TargetAt: "Target", Line: 1}},
		},
		{
			desc: "self link to a heading: empty target, empty range right after the brackets",
			give: "Go to [[#Local]].",
			want: []gotLink{{Kind: KindWiki, Target: "", Fragment: "Local", Text: "[[#Local]]", TargetAt: "", Line: 1}},
		},
		{
			desc: "embed",
			give: "![[Target]]",
			want: []gotLink{{Kind: KindEmbed, Target: "Target", Text: "![[Target]]", TargetAt: "Target", Line: 1}},
		},
		{
			desc: "embedded image",
			give: "x ![[img.png]] y",
			want: []gotLink{{Kind: KindEmbed, Target: "img.png", Text: "![[img.png]]", TargetAt: "img.png", Line: 1}},
		},
		{
			desc: "nested headings split at the first #",
			give: "[[a#h1#h2]]",
			want: []gotLink{{Kind: KindWiki, Target: "a", Fragment: "h1#h2", Text: "[[a#h1#h2]]", TargetAt: "a", Line: 1}},
		},
		{
			desc: "escaped pipe inside a table",
			give: "| Note | Link |\n| --- | --- |\n| x | [[a\\|b]] |\n",
			want: []gotLink{{Kind: KindWiki, Target: "a", Alias: "b", Text: "[[a\\|b]]", TargetAt: "a", Line: 3}},
		},
		{
			desc: "escaped pipe with a heading inside a table",
			give: "| [[Home#Projects\\|home]] |\n",
			want: []gotLink{{Kind: KindWiki, Target: "Home", Fragment: "Projects", Alias: "home", Text: "[[Home#Projects\\|home]]", TargetAt: "Home", Line: 1}},
		},
		{
			desc: "wikilink with a folder path and unicode",
			give: "[[Notes/東京 Trip]]",
			want: []gotLink{{Kind: KindWiki, Target: "Notes/東京 Trip", Text: "[[Notes/東京 Trip]]", TargetAt: "Notes/東京 Trip", Line: 1}},
		},
		{
			desc: "decomposed target is NFC-normalised, range keeps the bytes as written",
			give: "[[Cafe\u0301]]",
			want: []gotLink{{Kind: KindWiki, Target: "Café", Text: "[[Cafe\u0301]]", TargetAt: "Cafe\u0301", Line: 1}},
		},
		{
			desc: "markdown link",
			give: "A [x](T.md) b",
			want: []gotLink{{Kind: KindMarkdown, Target: "T.md", Alias: "x", Text: "[x](T.md)", TargetAt: "T.md", Line: 1}},
		},
		{
			desc: "markdown link percent-encoded: target decoded, range as written",
			give: "[x](T%20Name.md)",
			want: []gotLink{{Kind: KindMarkdown, Target: "T Name.md", Alias: "x", Text: "[x](T%20Name.md)", TargetAt: "T%20Name.md", Line: 1}},
		},
		{
			desc: "markdown link with multibyte percent-encoding",
			give: "[c](Notes/Caf%C3%A9%20Menu.md)",
			want: []gotLink{{Kind: KindMarkdown, Target: "Notes/Café Menu.md", Alias: "c", Text: "[c](Notes/Caf%C3%A9%20Menu.md)", TargetAt: "Notes/Caf%C3%A9%20Menu.md", Line: 1}},
		},
		{
			desc: "markdown link with a backslash escape and an entity",
			give: `[x](a\_b&amp;c.md)`,
			want: []gotLink{{Kind: KindMarkdown, Target: "a_b&c.md", Alias: "x", Text: `[x](a\_b&amp;c.md)`, TargetAt: `a\_b&amp;c.md`, Line: 1}},
		},
		{
			desc: "markdown link with a bad percent-encoding keeps it as written",
			give: "[x](100%.md)",
			want: []gotLink{{Kind: KindMarkdown, Target: "100%.md", Alias: "x", Text: "[x](100%.md)", TargetAt: "100%.md", Line: 1}},
		},
		{
			desc: "markdown link in angle brackets",
			give: "[x](<T Name.md>)",
			want: []gotLink{{Kind: KindMarkdown, Target: "T Name.md", Alias: "x", Text: "[x](<T Name.md>)", TargetAt: "T Name.md", Line: 1}},
		},
		{
			desc: "relative markdown link with a heading",
			give: "[x](../T.md#H)",
			want: []gotLink{{Kind: KindMarkdown, Target: "../T.md", Fragment: "H", Alias: "x", Text: "[x](../T.md#H)", TargetAt: "../T.md", Line: 1}},
		},
		{
			desc: "markdown link with a title",
			give: `[x](T.md "The title")`,
			want: []gotLink{{Kind: KindMarkdown, Target: "T.md", Alias: "x", Text: `[x](T.md "The title")`, TargetAt: "T.md", Line: 1}},
		},
		{
			desc: "markdown link to a heading of the same note",
			give: "[x](#H)",
			want: []gotLink{{Kind: KindMarkdown, Target: "", Fragment: "H", Alias: "x", Text: "[x](#H)", TargetAt: "", Line: 1}},
		},
		{
			desc: "markdown link with emphasis in its text",
			give: "[the *plan*](Plan.md)",
			want: []gotLink{{Kind: KindMarkdown, Target: "Plan.md", Alias: "the plan", Text: "[the *plan*](Plan.md)", TargetAt: "Plan.md", Line: 1}},
		},
		{
			desc: "markdown image",
			give: "![a picture](img/p.png)",
			want: []gotLink{{Kind: KindImage, Target: "img/p.png", Alias: "a picture", Text: "![a picture](img/p.png)", TargetAt: "img/p.png", Line: 1}},
		},
		{
			desc: "external URLs are not links",
			give: "[a](https://example.com/x.md) [b](mailto:a@b.c) [c](obsidian://open?vault=v) <https://example.com> ![d](https://example.com/p.png) [e](//cdn.example.com/x)",
			want: nil,
		},
		{
			desc: "reference-style links: target from the definition, no target range",
			give: "[full][r1], [collapsed][], [shortcut].\n\n[r1]: One.md\n[collapsed]: Two%20Words.md\n[shortcut]: <Three.md#H>\n",
			want: []gotLink{
				{Kind: KindMarkdown, Target: "One.md", Alias: "full", Text: "[full][r1]", TargetAt: noRange, Line: 1},
				{Kind: KindMarkdown, Target: "Two Words.md", Alias: "collapsed", Text: "[collapsed][]", TargetAt: noRange, Line: 1},
				{Kind: KindMarkdown, Target: "Three.md", Fragment: "H", Alias: "shortcut", Text: "[shortcut]", TargetAt: noRange, Line: 1},
			},
		},
		{
			desc: "a reference without a definition is not a link",
			give: "[nothing][here]",
			want: nil,
		},
		{
			desc: "links in code are not links",
			give: "`[[A]]` and `[b](B.md)`\n\n```\n[[C]] [d](D.md)\n```\n\n~~~md\n![[E]]\n~~~\n\n    [[F]] indented code\n",
			want: nil,
		},
		{
			desc: "link after a code span on the same line",
			give: "`[[A]]` [[B]]",
			want: []gotLink{{Kind: KindWiki, Target: "B", Text: "[[B]]", TargetAt: "B", Line: 1}},
		},
		{
			desc: "links in lists, quotes and headings, with line numbers",
			give: "# [[H1]]\n\n- [[L1]]\n  - [[L2]] and [m](M.md)\n\n> quoted [[Q]]\n> > ![[QQ]]\n\n1. [[O]]\n",
			want: []gotLink{
				{Kind: KindWiki, Target: "H1", Text: "[[H1]]", TargetAt: "H1", Line: 1},
				{Kind: KindWiki, Target: "L1", Text: "[[L1]]", TargetAt: "L1", Line: 3},
				{Kind: KindWiki, Target: "L2", Text: "[[L2]]", TargetAt: "L2", Line: 4},
				{Kind: KindMarkdown, Target: "M.md", Alias: "m", Text: "[m](M.md)", TargetAt: "M.md", Line: 4},
				{Kind: KindWiki, Target: "Q", Text: "[[Q]]", TargetAt: "Q", Line: 6},
				{Kind: KindEmbed, Target: "QQ", Text: "![[QQ]]", TargetAt: "QQ", Line: 7},
				{Kind: KindWiki, Target: "O", Text: "[[O]]", TargetAt: "O", Line: 9},
			},
		},
		{
			desc: "several links on one line keep file order",
			give: "[[A]] [b](B.md) ![[C]] [[D|d]]",
			want: []gotLink{
				{Kind: KindWiki, Target: "A", Text: "[[A]]", TargetAt: "A", Line: 1},
				{Kind: KindMarkdown, Target: "B.md", Alias: "b", Text: "[b](B.md)", TargetAt: "B.md", Line: 1},
				{Kind: KindEmbed, Target: "C", Text: "![[C]]", TargetAt: "C", Line: 1},
				{Kind: KindWiki, Target: "D", Alias: "d", Text: "[[D|d]]", TargetAt: "D", Line: 1},
			},
		},
		{
			desc: "wikilink must close on its line",
			give: "[[Open\nClose]]",
			want: nil,
		},
		{
			desc: "frontmatter links: scalar, list, flow list, then body",
			give: "---\nrelated: \"[[Beta]]\"\nattendees:\n  - \"[[Alpha Plan]]\"\n  - \"[[B|bee]]\"\nup: [\"[[One]]\", \"[[Two#H]]\"]\nplain: text\n---\nBody [[Body]].\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "Beta", Property: "related", Text: "[[Beta]]", TargetAt: "Beta", Line: 2},
				{Kind: KindFrontmatter, Target: "Alpha Plan", Property: "attendees", Text: "[[Alpha Plan]]", TargetAt: "Alpha Plan", Line: 4},
				{Kind: KindFrontmatter, Target: "B", Alias: "bee", Property: "attendees", Text: "[[B|bee]]", TargetAt: "B", Line: 5},
				{Kind: KindFrontmatter, Target: "One", Property: "up", Text: "[[One]]", TargetAt: "One", Line: 6},
				{Kind: KindFrontmatter, Target: "Two", Fragment: "H", Property: "up", Text: "[[Two#H]]", TargetAt: "Two", Line: 6},
				{Kind: KindWiki, Target: "Body", Text: "[[Body]]", TargetAt: "Body", Line: 9},
			},
		},
		{
			desc: "frontmatter link after a multibyte key, unquoted and single-quoted",
			give: "---\n関連: '[[東京]]'\nnext: see [[N]] too\n---\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "東京", Property: "関連", Text: "[[東京]]", TargetAt: "東京", Line: 2},
				{Kind: KindFrontmatter, Target: "N", Property: "next", Text: "[[N]]", TargetAt: "N", Line: 3},
			},
		},
		{
			desc: "a YAML comment is not a frontmatter link",
			give: "---\nrelated: \"[[A]]\" # was [[B]]\n# old: \"[[C]]\"\n---\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "A", Property: "related", Text: "[[A]]", TargetAt: "A", Line: 2},
			},
		},
		{
			desc: "frontmatter link in a block scalar",
			give: "---\nsummary: |\n  First line.\n  See [[Block Link]].\nnext: 1\n---\n",
			want: []gotLink{{Kind: KindFrontmatter, Target: "Block Link", Property: "summary", Text: "[[Block Link]]", TargetAt: "Block Link", Line: 4}},
		},
		{
			desc: "frontmatter links in quoted values with escapes and folded lines",
			give: "---\nrel: '[[Old|it''s]]'\nq: \"[[Old|say \\\"hi\\\"]]\"\nu: \"[[Caf\\u00e9#H\\x20x|a]] [[B]]\"\nm: \"one\n  [[Two\n  Lines]]\"\n" +
				"s: 'x\n\n  [[It''s]]'\n---\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "Old", Alias: "it's", Property: "rel", Text: "[[Old|it''s]]", TargetAt: "Old", Line: 2},
				{Kind: KindFrontmatter, Target: "Old", Alias: `say "hi"`, Property: "q", Text: `[[Old|say \"hi\"]]`, TargetAt: "Old", Line: 3},
				{Kind: KindFrontmatter, Target: "Café", Fragment: "H x", Alias: "a", Property: "u", Text: `[[Caf\u00e9#H\x20x|a]]`, TargetAt: `Caf\u00e9`, Line: 4},
				{Kind: KindFrontmatter, Target: "B", Property: "u", Text: "[[B]]", TargetAt: "B", Line: 4},
				{Kind: KindFrontmatter, Target: "Two Lines", Property: "m", Text: "[[Two\n  Lines]]", TargetAt: "Two\n  Lines", Line: 6},
				{Kind: KindFrontmatter, Target: "It's", Property: "s", Text: "[[It''s]]", TargetAt: "It''s", Line: 10},
			},
		},
		{
			desc: "escaped brackets in double quotes are a link; a comment after the quotes is not",
			give: "---\nq: \"\\x5b[A]] [[B\\x5d]\" # [[C]]\n---\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "A", Property: "q", Text: `\x5b[A]]`, TargetAt: "A", Line: 2},
				{Kind: KindFrontmatter, Target: "B", Property: "q", Text: `[[B\x5d]`, TargetAt: "B", Line: 2},
			},
		},
		{
			desc: "unquoted [[X]] in YAML is a nested list, not a link",
			give: "---\nrelated: [[X]]\n---\n",
			want: nil,
		},
		{
			desc: "embed in a frontmatter value",
			give: "---\ncover: \"![[cover.png]]\"\n---\n",
			want: []gotLink{{Kind: KindFrontmatter, Target: "cover.png", Property: "cover", Text: "![[cover.png]]", TargetAt: "cover.png", Line: 2}},
		},
		{
			desc: "links in tags and aliases are not frontmatter links",
			give: "---\ntags: [a]\naliases: [\"[[Not]]\"]\n---\n",
			want: nil,
		},
		{
			desc: "CRLF line endings",
			give: "---\r\nrelated: \"[[F]]\"\r\n---\r\nline one\r\n[[T|a]] and [x](U.md)\r\n\r\n```\r\n[[Code]]\r\n```\r\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "F", Property: "related", Text: "[[F]]", TargetAt: "F", Line: 2},
				{Kind: KindWiki, Target: "T", Alias: "a", Text: "[[T|a]]", TargetAt: "T", Line: 5},
				{Kind: KindMarkdown, Target: "U.md", Alias: "x", Text: "[x](U.md)", TargetAt: "U.md", Line: 5},
			},
		},
		{
			desc: "byte-order mark before the frontmatter",
			give: "\uFEFF---\nrelated: \"[[F]]\"\n---\n[[T]]\n",
			want: []gotLink{
				{Kind: KindFrontmatter, Target: "F", Property: "related", Text: "[[F]]", TargetAt: "F", Line: 2},
				{Kind: KindWiki, Target: "T", Text: "[[T]]", TargetAt: "T", Line: 4},
			},
		},
		{
			desc: "unclosed frontmatter: no frontmatter, the body is parsed",
			give: "---\nrelated: \"[[F]]\"\nIt links to [[T]].\n",
			want: []gotLink{
				{Kind: KindWiki, Target: "F", Text: "[[F]]", TargetAt: "F", Line: 2},
				{Kind: KindWiki, Target: "T", Text: "[[T]]", TargetAt: "T", Line: 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Note.md", tt.give)
			got := linksOf(t, tt.give, n.Links)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q).Links =\n%s\nwant\n%s", tt.give, fmtLinks(got), fmtLinks(tt.want))
			}
		})
	}
}

func fmtLinks(ls []gotLink) string {
	if len(ls) == 0 {
		return "  (none)"
	}
	lines := make([]string, len(ls))
	for i, l := range ls {
		lines[i] = fmt.Sprintf("  %s target=%q fragment=%q alias=%q property=%q text=%q targetAt=%q line=%d",
			l.Kind, l.Target, l.Fragment, l.Alias, l.Property, l.Text, l.TargetAt, l.Line)
	}
	return strings.Join(lines, "\n")
}

func TestParseSelfLinkRange(t *testing.T) {
	tests := []struct {
		desc string
		give string
		want string // src[Start:TargetStart]
	}{
		{desc: "wikilink", give: "x [[#H]]", want: "[["},
		{desc: "embed", give: "![[#^b]]", want: "![["},
		{desc: "markdown", give: "[a](#H)", want: "[a]("},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Note.md", tt.give)
			if len(n.Links) != 1 {
				t.Fatalf("Parse(%q) has %d links, want 1", tt.give, len(n.Links))
			}
			l := n.Links[0]
			if !l.IsSelf() {
				t.Errorf("Parse(%q).Links[0].IsSelf() = false, want true", tt.give)
			}
			if got := tt.give[l.Start:l.TargetStart]; got != tt.want || l.TargetStart != l.TargetEnd {
				t.Errorf("Parse(%q) self link: text before target %q, target range [%d,%d), want %q and an empty range",
					tt.give, got, l.TargetStart, l.TargetEnd, tt.want)
			}
		})
	}
}

func TestParseTags(t *testing.T) {
	tests := []struct {
		desc string
		give string
		want []string
	}{
		{desc: "inline tag", give: "Text #tag here.", want: []string{"tag"}},
		{desc: "tag at the start of a line", give: "#start of line\nand #second", want: []string{"start", "second"}},
		{desc: "nested tag", give: "#nested/tag and #a/b/c", want: []string{"nested/tag", "a/b/c"}},
		{desc: "trailing punctuation ends a tag", give: "(see #one), #two. #three!", want: []string{"one", "two", "three"}},
		{desc: "dashes, underscores and digits", give: "#a-b_c #y2024 #1a", want: []string{"a-b_c", "y2024", "1a"}},
		{desc: "unicode tag", give: "東京の旅行 #旅行 #café", want: []string{"旅行", "café"}},
		{desc: "tag in a list, a quote and a heading text", give: "- item #inlist\n\n> quote #inquote\n\n## Heading #inheading\n", want: []string{"inlist", "inquote", "inheading"}},
		{desc: "code span is not a tag", give: "`#notatag` and `` #no ``", want: nil},
		{desc: "fenced code is not a tag", give: "```\n#fenced\n```\n~~~\n#tilde\n~~~\n", want: nil},
		{desc: "indented code is not a tag", give: "para\n\n    #indented\n", want: nil},
		{desc: "headings are not tags", give: "# Heading\n## Second\n###### Sixth\n", want: nil},
		{desc: "URL fragment is not a tag", give: "example.com/#x and https://example.com/#anchor and [l](https://example.com/#frag)", want: nil},
		{desc: "a # inside a word is not a tag", give: "a#b C#sharp", want: nil},
		{desc: "pure numbers are not tags", give: "#123 and #2024 and #0", want: nil},
		{desc: "a lone # is not a tag", give: "a # b #", want: nil},
		{desc: "wikilink fragment is not a tag", give: "[[Note#Heading]] [x](N.md#H)", want: nil},
		{desc: "block id is not a tag", give: "A paragraph. ^block1", want: nil},
		{desc: "frontmatter list", give: "---\ntags:\n  - one\n  - two/sub\n---\n", want: []string{"one", "two/sub"}},
		{desc: "frontmatter flow list", give: "---\ntags: [one, two]\n---\n", want: []string{"one", "two"}},
		{desc: "frontmatter comma string", give: "---\ntags: \"project, beta\"\n---\n", want: []string{"project", "beta"}},
		{desc: "frontmatter space string", give: "---\ntags: alpha beta\n---\n", want: []string{"alpha", "beta"}},
		{desc: "frontmatter single string", give: "---\ntags: archive\n---\n", want: []string{"archive"}},
		{desc: "frontmatter tag key", give: "---\ntag: solo\n---\n", want: []string{"solo"}},
		{desc: "frontmatter tags with #", give: "---\ntags: [\"#hashed\", plain]\n---\n", want: []string{"hashed", "plain"}},
		{desc: "frontmatter numeric tag dropped", give: "---\ntags: [123, x1]\n---\n", want: []string{"x1"}},
		{desc: "frontmatter empty tags", give: "---\ntags:\n---\n", want: nil},
		{desc: "frontmatter first, then body", give: "---\ntags: [fm]\n---\n#body", want: []string{"fm", "body"}},
		{desc: "case of the first occurrence is kept", give: "---\ntags: [Project]\n---\n#project #PROJECT", want: []string{"Project"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Note.md", tt.give)
			if !reflect.DeepEqual(n.Tags, tt.want) {
				t.Errorf("Parse(%q).Tags = %q, want %q", tt.give, n.Tags, tt.want)
			}
			if cap(n.Tags) != len(n.Tags) {
				t.Errorf("Parse(%q).Tags: cap %d, len %d: the note keeps room it never uses", tt.give, cap(n.Tags), len(n.Tags))
			}
		})
	}
}

func TestParseDuplicateTags(t *testing.T) {
	tests := []struct {
		desc     string
		give     string
		wantTags []string
		wantWarn []string // substrings, one per expected warning
	}{
		{desc: "no duplicates", give: "#a #b", wantTags: []string{"a", "b"}},
		{desc: "inline duplicate", give: "#a #b #a", wantTags: []string{"a", "b"}, wantWarn: []string{"duplicate tag ignored: a"}},
		{desc: "frontmatter and inline in another case", give: "---\ntags: [Project]\n---\n#project", wantTags: []string{"Project"}, wantWarn: []string{"duplicate tag ignored: project"}},
		{desc: "many repeats, one warning", give: "#x #x #X #x", wantTags: []string{"x"}, wantWarn: []string{"duplicate tag ignored: x"}},
		{desc: "two duplicated tags, two warnings", give: "---\ntags: [a, b, a]\n---\n#b", wantTags: []string{"a", "b"}, wantWarn: []string{"duplicate tag ignored: a", "duplicate tag ignored: b"}},
		{desc: "nested tag is not a duplicate of its parent", give: "#a #a/b", wantTags: []string{"a", "a/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Note.md", tt.give)
			if !reflect.DeepEqual(n.Tags, tt.wantTags) {
				t.Errorf("Parse(%q).Tags = %q, want %q", tt.give, n.Tags, tt.wantTags)
			}
			if len(n.Warnings) != len(tt.wantWarn) {
				t.Fatalf("Parse(%q).Warnings = %q, want %d warnings like %q", tt.give, n.Warnings, len(tt.wantWarn), tt.wantWarn)
			}
			for i, w := range tt.wantWarn {
				if !strings.Contains(n.Warnings[i], w) {
					t.Errorf("Parse(%q).Warnings[%d] = %q, want it to contain %q", tt.give, i, n.Warnings[i], w)
				}
			}
		})
	}
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestParseFrontmatter(t *testing.T) {
	tests := []struct {
		desc        string
		give        string
		wantProps   []Property
		wantAliases []string
		wantTitle   string
		wantBody    int // BodyStart
	}{
		{
			desc: "typed properties",
			give: "---\nstatus: active\npriority: 2\nbig: 9007199254740993\nratio: 1.5\ndone: false\nok: yes\ncreated: 2024-03-01\nat: 2024-06-01T09:30:00Z\nlist: [a, 1, 2.5, true]\nempty:\nquoted: \"2024-01-01\"\nmap: {k: v}\n---\n",
			wantProps: []Property{
				{Key: "status", Value: "active"},
				{Key: "priority", Value: int64(2)},
				{Key: "big", Value: int64(9007199254740993)},
				{Key: "ratio", Value: 1.5},
				{Key: "done", Value: false},
				{Key: "ok", Value: "yes"}, // YAML 1.2: yes is a string
				{Key: "created", Value: date(2024, time.March, 1)},
				{Key: "at", Value: time.Date(2024, time.June, 1, 9, 30, 0, 0, time.UTC)},
				{Key: "list", Value: []any{"a", int64(1), 2.5, true}},
				{Key: "empty", Value: nil},
				{Key: "quoted", Value: "2024-01-01"},
				{Key: "map", Value: map[string]any{"k": "v"}},
			},
			wantTitle: "Note",
			wantBody:  197,
		},
		{
			desc:      "list of dates",
			give:      "---\ndays:\n  - 2024-01-02\n  - 2024-01-03\n---\n",
			wantProps: []Property{{Key: "days", Value: []any{date(2024, time.January, 2), date(2024, time.January, 3)}}},
			wantTitle: "Note",
			wantBody:  44,
		},
		{
			desc:        "aliases list, tags and aliases are not properties",
			give:        "---\ntags: [x]\naliases: [Alpha, AP]\n---\n",
			wantAliases: []string{"Alpha", "AP"},
			wantTitle:   "Note",
			wantBody:    39,
		},
		{
			desc:        "aliases block list",
			give:        "---\naliases:\n  - One\n  - Two Words\n---\n",
			wantAliases: []string{"One", "Two Words"},
			wantTitle:   "Note",
			wantBody:    39,
		},
		{
			desc:        "alias string",
			give:        "---\naliases: Only One\n---\n",
			wantAliases: []string{"Only One"},
			wantTitle:   "Note",
			wantBody:    26,
		},
		{
			desc:        "alias key",
			give:        "---\nalias: Old\n---\n",
			wantAliases: []string{"Old"},
			wantTitle:   "Note",
			wantBody:    19,
		},
		{
			desc:      "title",
			give:      "---\ntitle: Tag Examples\n---\nbody",
			wantProps: []Property{{Key: "title", Value: "Tag Examples"}},
			wantTitle: "Tag Examples",
			wantBody:  28,
		},
		{
			desc:      "title is trimmed",
			give:      "---\ntitle: \"  Spaced  \"\n---\n",
			wantProps: []Property{{Key: "title", Value: "  Spaced  "}},
			wantTitle: "Spaced",
			wantBody:  28,
		},
		{
			desc:      "empty title falls back to the file name",
			give:      "---\ntitle: \"\"\n---\n",
			wantProps: []Property{{Key: "title", Value: ""}},
			wantTitle: "Note",
			wantBody:  18,
		},
		{
			desc:      "a number is a title too",
			give:      "---\ntitle: 2024\n---\n",
			wantProps: []Property{{Key: "title", Value: int64(2024)}},
			wantTitle: "2024",
			wantBody:  20,
		},
		{
			desc:      "title key in another case",
			give:      "---\nTitle: Upper\n---\n",
			wantProps: []Property{{Key: "Title", Value: "Upper"}},
			wantTitle: "Upper",
			wantBody:  21,
		},
		{
			desc:      "empty frontmatter",
			give:      "---\n---\n# Heading\n",
			wantTitle: "Note",
			wantBody:  8,
		},
		{
			desc:      "blank frontmatter",
			give:      "---\n\n---\n",
			wantTitle: "Note",
			wantBody:  9,
		},
		{
			desc:      "a heading is not the title",
			give:      "# Not The Title\n",
			wantTitle: "Note",
			wantBody:  0,
		},
		{
			desc:      "unclosed frontmatter is no frontmatter",
			give:      "---\ntitle: Nope\nno closing line\n",
			wantTitle: "Note",
			wantBody:  0,
		},
		{
			desc:      "frontmatter must start on the first line",
			give:      "\n---\ntitle: Nope\n---\n",
			wantTitle: "Note",
			wantBody:  0,
		},
		{
			desc:      "CRLF frontmatter",
			give:      "---\r\ntitle: Windows\r\ncount: 3\r\n---\r\nbody\r\n",
			wantProps: []Property{{Key: "title", Value: "Windows"}, {Key: "count", Value: int64(3)}},
			wantTitle: "Windows",
			wantBody:  36,
		},
		{
			desc:      "byte-order mark",
			give:      "\uFEFF---\ntitle: BOM\n---\n",
			wantProps: []Property{{Key: "title", Value: "BOM"}},
			wantTitle: "BOM",
			wantBody:  22,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Folder/Note.md", tt.give)
			if !reflect.DeepEqual(n.Properties, tt.wantProps) {
				t.Errorf("Parse(%q).Properties = %#v, want %#v", tt.give, n.Properties, tt.wantProps)
			}
			if !reflect.DeepEqual(n.Aliases, tt.wantAliases) {
				t.Errorf("Parse(%q).Aliases = %q, want %q", tt.give, n.Aliases, tt.wantAliases)
			}
			if n.Title != tt.wantTitle {
				t.Errorf("Parse(%q).Title = %q, want %q", tt.give, n.Title, tt.wantTitle)
			}
			if n.BodyStart != tt.wantBody {
				t.Errorf("Parse(%q).BodyStart = %d, want %d", tt.give, n.BodyStart, tt.wantBody)
			}
			if len(n.Warnings) > 0 {
				t.Errorf("Parse(%q).Warnings = %q, want none", tt.give, n.Warnings)
			}
		})
	}
}

func TestNoteProperty(t *testing.T) {
	n := mustParse(t, "N.md", "---\nStatus: active\n---\n")
	tests := []struct {
		desc   string
		give   string
		want   any
		wantOK bool
	}{
		{desc: "same case", give: "Status", want: "active", wantOK: true},
		{desc: "other case", give: "status", want: "active", wantOK: true},
		{desc: "missing", give: "nope", want: nil, wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, ok := n.Property(tt.give)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Property(%q) = %v, %v, want %v, %v", tt.give, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestParseTitle(t *testing.T) {
	tests := []struct {
		desc string
		id   string
		src  string
		want string
	}{
		{desc: "base name", id: "Projects/Alpha Plan.md", src: "# Heading", want: "Alpha Plan"},
		{desc: "root note", id: "Home.md", src: "", want: "Home"},
		{desc: "upper-case extension", id: "a/b/Shout.MD", src: "", want: "Shout"},
		{desc: "dots in the name", id: "Note v1.2.md", src: "", want: "Note v1.2"},
		{desc: "unicode", id: "Notes/東京 Trip.md", src: "", want: "東京 Trip"},
		{desc: "frontmatter wins", id: "x.md", src: "---\ntitle: Given\n---\n", want: "Given"},
		{desc: "malformed frontmatter: base name", id: "Notes/Broken YAML.md", src: "---\ntitle: [unclosed\n---\n", want: "Broken YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, tt.id, tt.src)
			if n.Title != tt.want {
				t.Errorf("Parse(%q, %q).Title = %q, want %q", tt.id, tt.src, n.Title, tt.want)
			}
			if n.ID != tt.id {
				t.Errorf("Parse(%q, %q).ID = %q, want %q", tt.id, tt.src, n.ID, tt.id)
			}
		})
	}
}

func TestParseFileIdentity(t *testing.T) {
	a := mustParse(t, "a.md", "same")
	b := mustParse(t, "b.md", "same")
	c := mustParse(t, "a.md", "other")
	if a.Hash == "" || a.Hash != b.Hash || a.Hash == c.Hash {
		t.Errorf("Parse hashes = %q, %q, %q, want equal for equal content and different otherwise", a.Hash, b.Hash, c.Hash)
	}
	if a.Size != 4 {
		t.Errorf("Parse(%q).Size = %d, want 4", "same", a.Size)
	}
}

// TestParseForRewrite checks the target ranges ParseForRewrite gives
// reference-style links: the destination of the definition they use.
// Every other field, and every other link, is as Parse gives it.
func TestParseForRewrite(t *testing.T) {
	tests := []struct {
		desc string
		give string
		want []string // for each link: its text, then "=>" and its target range's text
	}{
		{
			desc: "full, collapsed, shortcut and image share a definition with a title",
			give: "[a][r], [R][], [r] and ![i][ r ].\n\n[r]: Target.md \"title\"\n",
			want: []string{"[a][r] => Target.md", "[R][] => Target.md", "[r] => Target.md", "![i][ r ] => Target.md"},
		},
		{
			desc: "angle brackets, percent-encoding, a fragment, a title in parentheses",
			give: "[a][x] [b][y]\n\n[x]: <Target Name.md#Part> (t)\n[y]: Target%20Name.md#Part\n",
			want: []string{"[a][x] => Target Name.md", "[b][y] => Target%20Name.md"},
		},
		{
			desc: "destination on the next line, label across a line and with spaces",
			give: "[a][my  label] [b][two\nlines]\n\n[My Label]:\n   Next.md 'title'\n[two lines]: T2.md\n",
			want: []string{"[a][my  label] => Next.md", "[b][two\nlines] => T2.md"},
		},
		{
			desc: "the first definition of a label wins; one in code is none",
			give: "```\n[r]: Code.md\n```\n\n[a][r]\n\n[r]: First.md\n[r]: Second.md\n",
			want: []string{"[a][r] => First.md"},
		},
		{
			desc: "definitions in a quote and a list",
			give: "[a][q] [b][l]\n\n> [q]: Quoted.md\n\n- [l]:\n  Listed.md\n",
			want: []string{"[a][q] => Quoted.md", "[b][l] => Listed.md"},
		},
		{
			desc: "an unused definition is no link; inline links and wikilinks as Parse gives them",
			give: "[[W]] [i](In.md) [a][u]\n\n[unused]: Unused.md\n[u]: Used.md\n",
			want: []string{"[[W]] => W", "[i](In.md) => In.md", "[a][u] => Used.md"},
		},
		{
			desc: "a definition with an external destination gives no link",
			give: "[a][e] [b][f]\n\n[e]: https://example.com/x.md\n[f]: F.md\n",
			want: []string{"[b][f] => F.md"},
		},
		{
			desc: "after frontmatter and a byte-order mark",
			give: "\uFEFF---\nrel: \"[[X]]\"\n---\n[a][r]\n\n[r]: <../Up Here.md>\n",
			want: []string{"[[X]] => X", "[a][r] => ../Up Here.md"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n, err := testParser.ParseForRewrite("Sub/Note.md", []byte(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			plain := mustParse(t, "Sub/Note.md", tt.give)
			if len(plain.Links) != len(n.Links) {
				t.Fatalf("ParseForRewrite gives %d links, Parse %d", len(n.Links), len(plain.Links))
			}
			var got []string
			for i, l := range n.Links {
				if l.TargetStart < 0 || l.TargetStart > l.TargetEnd || l.TargetEnd > len(tt.give) {
					t.Fatalf("link %+v: target range outside the note", l)
				}
				got = append(got, tt.give[l.Start:l.End]+" => "+tt.give[l.TargetStart:l.TargetEnd])
				p := plain.Links[i]
				if p.TargetStart == -1 {
					p.TargetStart, p.TargetEnd = l.TargetStart, l.TargetEnd
				}
				if !reflect.DeepEqual(p, l) {
					t.Errorf("link %d = %+v, Parse gives %+v", i, l, plain.Links[i])
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseForRewrite(%q) links\n%q\nwant\n%q", tt.give, got, tt.want)
			}
		})
	}
}

// FuzzParseForRewrite checks that ParseForRewrite gives the links Parse
// gives, except that a reference-style link without a target range may
// get one: inside the note, around a destination that decodes to the
// link's target.
func FuzzParseForRewrite(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte("[a][r] [R][] ![i][ r ]\n\n> [r]:\n> <T N.md#h> \"t\"\n[r]: Second.md\n```\n[q]: x.md\n```\n"))
	f.Add([]byte("[a][b\nc]\n\n- [B  C]:\n  X%20Y.md (t)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		plain, err := parseBounded(t, testParser, src)
		if err != nil {
			return
		}
		start := time.Now()
		n, err := testParser.ParseForRewrite("Fuzz/Note.md", src)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("ParseForRewrite(%d bytes) took %v", len(src), d)
		}
		if err != nil {
			t.Fatalf("ParseForRewrite: %v, Parse did not fail", err)
		}
		if len(n.Links) != len(plain.Links) {
			t.Fatalf("ParseForRewrite gives %d links, Parse %d", len(n.Links), len(plain.Links))
		}
		for i, l := range n.Links {
			p := plain.Links[i]
			if p.TargetStart == -1 && l.TargetStart != -1 {
				if l.TargetStart < 0 || l.TargetStart > l.TargetEnd || l.TargetEnd > len(src) {
					t.Fatalf("link %+v: target range outside the %d-byte note", l, len(src))
				}
				dest := string(src[l.TargetStart:l.TargetEnd])
				if got := cleanTarget(decodeDestination(unescapeDestination(dest))); got != l.Target {
					t.Fatalf("link %+v: its range holds %q, which reads as %q", l, dest, got)
				}
				p.TargetStart, p.TargetEnd = l.TargetStart, l.TargetEnd
			}
			if !reflect.DeepEqual(p, l) {
				t.Fatalf("ParseForRewrite link %d = %+v, Parse gives %+v", i, l, plain.Links[i])
			}
		}
	})
}
