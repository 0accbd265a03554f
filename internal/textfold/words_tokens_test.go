package textfold

import (
	"iter"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTokensSameAsRuns: Tokens yields what Runs(s, IsWordRune) yields,
// and the texts Words gives, on texts of ASCII, accents, marks, CJK,
// private use and invalid UTF-8.
func TestTokensSameAsRuns(t *testing.T) {
	parts := []string{"a", "Z", "9", " ", "-", "_", "é", "e\u0301", "\u0301", "東京", "한", "\ue000", "\xff", "\xe6\x9d",
		"ß", "Σ", "🙂", "²", "Ⅷ", "\u00a0", "'", "\n"}
	r := rand.New(rand.NewPCG(15, 26))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(14) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		var got, want []string
		for i, w := range Tokens(s) {
			got = append(got, strings.Repeat(".", i)+w)
		}
		for i, w := range Runs(s, IsWordRune) {
			want = append(want, strings.Repeat(".", i)+w)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("Tokens(%+q) = %q, want %q", s, got, want)
		}
		var texts []string
		for _, w := range Tokens(s) {
			texts = append(texts, w)
		}
		if words := Words(s); strings.Join(texts, "|") != strings.Join(words, "|") {
			t.Fatalf("Tokens(%+q) = %q, want the words %q", s, texts, words)
		}
	}
}

// Tokens yields the byte offset and text of each of unicode61's tokens
// of s, as written.
func Tokens(s string) iter.Seq2[int, string] { return Runs(s, IsWordRune) }
