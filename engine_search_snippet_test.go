package vaultgraph

import (
	"strings"
	"testing"
	"unicode"
)

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
		if strings.Count(got, "**")%2 != 0 {
			t.Fatalf("windowText(%q, %q) = %q: unbalanced bold", text, word, got)
		}
		for _, span := range [][2]string{{"](", ")"}, {"[[", "|"}, {"https://", " "}, {"<a ", ">"}} {
			rest := got
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
				if strings.Contains(rest[:end], "**") {
					t.Fatalf("windowText(%q, %q) = %q: bold inside %s…%s", text, word, got, span[0], span[1])
				}
			}
		}
	})
}
