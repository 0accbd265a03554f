package vaultgraph

import (
	"context"
	"strings"
	"testing"
	"unicode"
)

// TestSearchSnippetsSkipLinks: in every search mode, a snippet's bold
// marks are balanced and never inside a link's destination, a wikilink's
// target or a URL (testvault links to Café Menu in each form).
func TestSearchSnippetsSkipLinks(t *testing.T) {
	e := builtinSearchEngine(t)
	for _, mode := range []SearchMode{SearchKeyword, SearchSemantic, SearchHybrid} {
		for _, query := range []string{"café", "menu", "home", "example", "alpha plan", "notes"} {
			hits, _, err := e.Search(context.Background(), SearchQuery{Query: query, Mode: mode, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				if where := boldInLink(h.Snippet); where != "" {
					t.Errorf("Search(%q, %s) snippet of %s = %q: bold inside %s", query, mode, h.ID, h.Snippet, where)
				}
			}
		}
	}
}

// boldInLink returns the kind of link a snippet has bold marks in (or
// unbalanced marks), or "".
func boldInLink(snip string) string {
	if strings.Count(snip, "**")%2 != 0 {
		return "an unbalanced pair"
	}
	for _, span := range [][2]string{{"](", ")"}, {"[[", "]]"}, {"://", " "}} {
		rest := snip
		for {
			i := strings.Index(rest, span[0])
			if i < 0 {
				break
			}
			rest = rest[i+len(span[0]):]
			end := strings.Index(rest, span[1])
			if end < 0 {
				end = len(rest)
			}
			inside := rest[:end]
			if target, _, ok := strings.Cut(inside, "|"); ok && span[0] == "[[" {
				inside = target // an alias may be bold
			}
			if strings.Contains(inside, "**") {
				return span[0] + "…" + span[1]
			}
		}
	}
	return ""
}

// FuzzWindowTextLinks: whatever the words around them, a semantic
// snippet never puts bold marks in a link's destination, a wikilink's
// target or a URL, and its marks are balanced.
func FuzzWindowTextLinks(f *testing.F) {
	f.Add("see", "café", "Menu", 200)
	f.Add("", "a1", "end of it", 12)
	f.Add("東京 the", "東京", "x", 30)
	f.Fuzz(func(t *testing.T, before, word, after string, n int) {
		word = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsNumber(r) {
				return r
			}
			return -1
		}, word)
		plain := func(r rune) rune {
			if strings.ContainsRune("*[]()<>|:!`\\/.…", r) || r == 0xFDD0 || r == 0xFDD1 {
				return ' '
			}
			return r
		}
		before, after = strings.Map(plain, before), strings.Map(plain, after)
		if word == "" {
			return
		}
		text := before + " [" + word + "](" + word + ".md) [[" + word + "|" + word + "]] ![x](i/" + word +
			".png) https://x.org/" + word + " <a href=\"" + word + "\">" + word + "</a> " + after
		n = n%300 + 1
		if n < 1 {
			n = -n + 1
		}
		got := windowText(text, "T", snippetWords(word), n)
		if where := boldInLink(got); where != "" {
			t.Fatalf("windowText(%q, %q) = %q: bold inside %s", text, word, got, where)
		}
		if i := strings.Index(got, "<a "); i >= 0 && strings.Contains(got[i:i+strings.Index(got[i:]+">", ">")], "**") {
			t.Fatalf("windowText(%q, %q) = %q: bold inside an HTML tag", text, word, got)
		}
	})
}
