package textfold

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHasCJK: HasCJK answers as strings.IndexFunc(s, IsCJK) >= 0, for
// every rune alone, next to ASCII, and in random strings of valid and
// invalid UTF-8.
func TestHasCJK(t *testing.T) {
	want := func(s string) bool { return strings.IndexFunc(s, IsCJK) >= 0 }
	check := func(s string) {
		t.Helper()
		if got := HasCJK(s); got != want(s) {
			t.Fatalf("HasCJK(%q) = %v, want %v", s, got, want(s))
		}
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r&0xff == 0 || r < 0x3100 || IsCJK(r) != IsCJK(r-1) {
			s := string(r)
			check(s)
			check("a" + s + "b")
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", " ", "é", "Ж", "ー", "漢", "한", "\xe1", "\xe2\x80", "\xf0\x9f\x98\x80", "\xff", "\x80", "ᄀ", "。"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
}
