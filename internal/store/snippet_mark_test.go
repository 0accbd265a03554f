package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// linkBody has the word café in every place a link can hold it.
const linkBody = "Links: [the café](Café%20Menu.md) and ![café pic](img/café.png).\n" +
	"Wiki [[Café Menu|our café]] and [[Café Menu]] and ![[café.png]].\n" +
	"Auto <https://café.example/café> bare https://café.example/menu?q=café and www.café.example/x.\n" +
	"Html <a href=\"café.html\" title=\"café\">café</a>.\n" +
	"[ref]: café.md\n" +
	"Plain café here."

// TestKeywordSnippetLinks: a snippet bolds the word in link text, an
// alias and plain text, never in a link destination, URL, wikilink target
// or HTML tag; its marks are balanced.
func TestKeywordSnippetLinks(t *testing.T) {
	s := storeOf(t, []struct{ id, title, body string }{{"Links.md", "Links", linkBody}})
	hits, err := s.Keyword(context.Background(), KeywordQuery{Text: "café"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("Keyword(café) = %v, %v", hits, err)
	}
	checkLinkSnippet(t, "Keyword(café)", hits[0].Snippet)
	snips, err := s.KeywordSnippets(context.Background(), []KeywordHit{{ID: "Links.md", terms: hits[0].terms}})
	if err != nil {
		t.Fatal(err)
	}
	checkLinkSnippet(t, "KeywordSnippets(café)", snips["Links.md"])
	// A folded-only match (Cafe written with a combining accent) goes
	// through the snippet made in Go: the same rule.
	go2 := strings.ReplaceAll(linkBody, "café", "cafe\u0301")
	s2 := storeOf(t, []struct{ id, title, body string }{{"Links.md", "Links", go2}})
	hits, err = s2.Keyword(context.Background(), KeywordQuery{Text: "cafe"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("Keyword(cafe) = %v, %v", hits, err)
	}
	checkLinkSnippet(t, "Keyword(cafe), decomposed", strings.ReplaceAll(hits[0].Snippet, "cafe\u0301", "café"))
}

// checkLinkSnippet checks a snippet of linkBody (or of its window).
func checkLinkSnippet(t *testing.T, what, got string) {
	t.Helper()
	if strings.Count(got, HighlightOpen)%2 != 0 {
		t.Errorf("%s = %q: unbalanced bold marks", what, got)
	}
	for _, bad := range []string{"(**", "%20**", "/**", "**.png", "[[**", "**%20", "q=**", "www.**", "\"**", "**.html", "**.md", "**.example"} {
		if strings.Contains(got, bad) {
			t.Errorf("%s = %q: bold in a link target or URL (%q)", what, got, bad)
		}
	}
	for _, want := range []string{"[the **café**]", "|our **café**]]", "[[Café Menu]]", ">**café**</a>"} {
		if strings.Contains(got, strings.ReplaceAll(want, "**", "")) && !strings.Contains(got, want) {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	if !strings.Contains(got, "[the **café**]") && !strings.Contains(got, "Plain **café** here") {
		t.Errorf("%s = %q: no bold café in text", what, got)
	}
}

func TestHighlight(t *testing.T) {
	o, c := MarkOpen, MarkClose
	tests := []struct{ desc, give, source, want string }{
		{"plain", "a " + o + "b" + c + " c", "a b c", "a **b** c"},
		{"link destination", "[" + o + "x" + c + "](" + o + "x" + c + ".md)", "[x](x.md)", "[**x**](x.md)"},
		{"cut before the link: the source says", "…" + o + "x" + c + ".md) y", "[x](x.md) y", "…x.md) y"},
		{"unclosed at the end: closed", "a " + o + "b", "a b", "a **b**"},
		{"stray close: dropped", "a" + c + " b", "a b", "a b"},
		{"empty mark: nothing", "a" + o + c + "b", "ab", "ab"},
		{"not in the source: the snippet alone", "[" + o + "x" + c + "](" + o + "x" + c + ")", "zzz", "[**x**](x)"},
		{"note text with **: kept as it is", "**a** " + o + "b" + c, "**a** b", "**a** **b**"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := Highlight(tt.give, tt.source); got != tt.want {
				t.Errorf("Highlight(%q, %q) = %q, want %q", tt.give, tt.source, got, tt.want)
			}
		})
	}
}

// TestLinkRangesLinear: texts full of openings that never close take
// linear time (a note can be megabytes).
func TestLinkRangesLinear(t *testing.T) {
	for _, s := range []string{
		strings.Repeat("[[a\n", 250_000) + "]]",
		strings.Repeat("[[", 500_000),
		strings.Repeat("<a ", 300_000),
		strings.Repeat("](", 500_000),
		strings.Repeat("]] [[", 200_000),
	} {
		start := time.Now()
		linkRanges(s)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("linkRanges of %d bytes (%q…) took %v", len(s), s[:10], d)
		}
	}
}

func TestLinkRanges(t *testing.T) {
	tests := []struct {
		give string
		want []string // the protected text
	}{
		{"[a](b c) d", []string{"](b c)"}},
		{"[a](<b c>) d", []string{"](<b c>)"}},
		{"[a](b(c)d) e", []string{"](b(c)d)"}},
		{"[[T|a]] [[U]]", []string{"[[T|", "]]", "[[U]]"}},
		{"x <https://e.org/a> y", []string{"<https://e.org/a>"}},
		{"x https://e.org/a y", []string{"https://e.org/a"}},
		{"x www.e.org/a y", []string{"www.e.org/a"}},
		{"<a href=\"x\">t</a>", []string{"<a href=\"x\">", "</a>"}},
		{"[r]: x.md\nmore", []string{"]: x.md"}},
		{"a < b > c, [x] (y), [[open", nil},
		{"[[a\nb]] [[c]]", []string{"[[c]]"}},
		{"[[a [[b]]", []string{"[[a [[b]]"}},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range linkRanges(tt.give) {
			got = append(got, tt.give[r[0]:r[1]])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("linkRanges(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

// FuzzHighlight: any snippet with marks anywhere (unbalanced, nested, in
// links) becomes its text without marks plus balanced bold marks between
// whole characters.
func FuzzHighlight(f *testing.F) {
	f.Add("[a](b) c", "[a](b) c", uint64(0b1010101))
	f.Add("…x https://e.org/y z", "w x https://e.org/y z", uint64(0xffff))
	f.Add("é東京", "é東京", uint64(0b11011))
	f.Fuzz(func(t *testing.T, text, source string, marks uint64) {
		if strings.ContainsAny(text+source, "*"+MarkOpen+MarkClose) || !utf8.ValidString(text) {
			return
		}
		// A mark before rune i when bit i is set; open or close by bit i+32.
		var b strings.Builder
		i := 0
		for _, r := range text {
			if i < 32 && marks&(1<<i) != 0 {
				if marks&(1<<(i+32)) != 0 {
					b.WriteString(MarkOpen)
				} else {
					b.WriteString(MarkClose)
				}
			}
			b.WriteRune(r)
			i++
		}
		got := Highlight(b.String(), source)
		if strings.ReplaceAll(got, "**", "") != text {
			t.Fatalf("Highlight(%q, %q) = %q: not the text with bold marks", b.String(), source, got)
		}
		if strings.Count(got, "**")%2 != 0 || !utf8.ValidString(got) {
			t.Fatalf("Highlight(%q, %q) = %q: unbalanced or not UTF-8", b.String(), source, got)
		}
	})
}
