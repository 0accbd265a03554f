package store

import (
	"strings"
	"testing"
)

// TestStemTextManyWords: a scratch that meets more words than it keeps
// (maxStemLocal), in one call and across calls, still gives each text the
// stems column a plain reading of the rule gives: each stem that differs
// from its word, once, in first-seen order.
func TestStemTextManyWords(t *testing.T) {
	var words []string
	for i := range maxStemLocal + 5000 {
		w := ""
		for n := i + 26*26; n > 0; n /= 26 {
			w += string(rune('a' + n%26))
		}
		words = append(words, w+[]string{"ing", "s", "ed", "", "ations"}[i%5])
	}
	var b strings.Builder
	for i, w := range words {
		b.WriteString(w + " " + words[i/2] + " ") // every word twice, far apart
	}
	text := b.String()
	var want []string
	seen := map[string]bool{}
	for _, w := range strings.Fields(text) {
		if s := Stem(w); s != "" && !strings.EqualFold(s, w) && !seen[s] {
			seen[s] = true
			want = append(want, stemMarker+s)
		}
	}
	for round := range 3 {
		for _, give := range []string{text, "connections " + text[:2000]} {
			wantCol := strings.Join(want, " ")
			if give != text {
				wantCol = stemMarker + "connect " + stemText(text[:2000])
			}
			if got := stemText(give); got != wantCol {
				t.Fatalf("round %d: stemText of %d bytes gives %d bytes, want %d", round, len(give), len(got), len(wantCol))
			}
		}
	}
}
