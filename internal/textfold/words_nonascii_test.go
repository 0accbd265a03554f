package textfold

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNonASCIITokens: NonASCIITokens yields the tokens of Tokens that are
// not all ASCII, each with whether all-ASCII tokens were passed over
// before it, on texts of ASCII, accents, marks, CJK, private use,
// separators outside ASCII and invalid UTF-8, long runs of ASCII among
// them (the 8-byte steps).
func TestNonASCIITokens(t *testing.T) {
	parts := []string{"a", "Z", "9", " ", "-", "_", "é", "e\u0301", "\u0301", "東京", "한", "\ue000", "\xff", "\xe6\x9d",
		"ß", "Σ", "🙂", "²", "Ⅷ", "\u00a0", "'", "\n", "—", "plain words here", "0123456789abcdef"}
	r := rand.New(rand.NewPCG(15, 27))
	for range 30000 {
		var b strings.Builder
		for range r.IntN(16) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		var want []string
		skipped := false
		for _, w := range Tokens(s) {
			if IsASCII(w) {
				skipped = true
				continue
			}
			want = append(want, fmt.Sprintf("%v:%s", skipped, w))
			skipped = false
		}
		var got []string
		for skipped, w := range NonASCIITokens(s) {
			got = append(got, fmt.Sprintf("%v:%s", skipped, w))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("NonASCIITokens(%+q) = %q, want %q", s, got, want)
		}
	}
}
