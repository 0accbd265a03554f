package embed

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFoldPiecesSameAsWhole: fold, which lower-cases ASCII runs itself and
// folds the rest in pieces, gives what foldUnicode gives for the whole
// text, on texts that put combining marks, ligatures, Hangul, final sigma
// and long runs of marks right after and before ASCII letters.
func TestFoldPiecesSameAsWhole(t *testing.T) {
	parts := []string{"a", "E", "z", " ", "\n", "-", "1", "é", "e\u0301", "E\u0301\u0327", "\u0301", "\u0327\u0301",
		"ﬁ", "Ｆ", "ß", "ẞ", "Ø", "ς", "Σ", "ΆΣ", "й", "И\u0306", "が", "か\u3099", "\u3099", "한", "\u1100\u1161", "\u1161",
		"ǅ", "İ", "ⅷ", "🙂", "\u034f", strings.Repeat("\u0301", 40), "Å", "A\u030a", "\u212b", "ﬀ", "x\u0338", "<\u0338"}
	r := rand.New(rand.NewPCG(8, 15))
	var f folder
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		want := string(new(folder).foldUnicode(nil, s))
		if got := string(f.fold(s)); got != want {
			t.Fatalf("fold(%+q) = %+q, want %+q", s, got, want)
		}
	}
}
