package embed

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestFoldPiecesSameAsWhole: fold, which lower-cases ASCII runs itself and
// folds the rest in pieces, gives what foldUnicode gives for the whole
// text, on texts that put combining marks, ligatures, Hangul, final sigma
// and long runs of marks right after and before ASCII letters.
func TestFoldPiecesSameAsWhole(t *testing.T) {
	parts := []string{"a", "E", "z", " ", "\n", "-", "1", "é", "e\u0301", "E\u0301\u0327", "\u0301", "\u0327\u0301",
		"ﬁ", "Ｆ", "ß", "ẞ", "Ø", "ς", "Σ", "ΆΣ", "й", "И\u0306", "が", "か\u3099", "\u3099", "한", "\u1100\u1161", "\u1161",
		"ǅ", "İ", "ⅷ", "🙂", "\u034f", strings.Repeat("\u0301", 40), "Å", "A\u030a", "\u212b", "ﬀ", "x\u0338", "<\u0338",
		strings.Repeat("Ab ", 25), strings.Repeat("x", 63), strings.Repeat("Y", 64)}
	r := rand.New(rand.NewPCG(8, 15))
	var f folder
	for range 20000 {
		s := joinParts(r, parts)
		want := string(new(folder).foldUnicode(nil, s))
		if got := string(f.fold(s)); got != want {
			t.Fatalf("fold(%+q) = %+q, want %+q", s, got, want)
		}
	}
}

// TestWordCacheSameVectors: a state that embeds text after text, keeping
// their words (wordCache) and starting again when it holds too many,
// gives each text the vector a new state gives it, to the bit.
func TestWordCacheSameVectors(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		const letters = "abcdefghijklmnopqrstuvwxyzéü東"
		rs := []rune(letters)
		b := make([]rune, 1+r.IntN(9))
		for i := range b {
			b[i] = rs[r.IntN(len(rs))]
		}
		return string(b)
	}
	vocab := make([]string, 3*maxCachedWords)
	for i := range vocab {
		vocab[i] = word()
	}
	st := new(builtinState)
	st.reset()
	for n := range 100 {
		var b strings.Builder
		for range 50 + r.IntN(3000) {
			b.WriteString(vocab[r.IntN(len(vocab))>>(r.IntN(8))]) // Zipf-like: low indices often
			b.WriteString([]string{" ", " ", ". ", "\n", "-"}[r.IntN(5)])
		}
		text := b.String()
		got := st.vector(make([]float32, BuiltinDim), text)
		fresh := new(builtinState)
		fresh.reset()
		want := fresh.vector(make([]float32, BuiltinDim), text)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("text %d: component %d = %v with the cache, %v without", n, i, got[i], want[i])
			}
		}
	}
	if len(st.cache.infos) > 2*maxCachedWords {
		t.Errorf("the cache holds %d words, want at most about %d", len(st.cache.infos), maxCachedWords)
	}
}

// TestNormalizeSameAsAppend: folder.normalize, which runs the
// normaliser's iterator, gives the bytes of norm.Form.AppendString, on
// texts with long runs of combining marks (the stream-safe limit of 30),
// Hangul, ligatures and compatibility forms.
func TestNormalizeSameAsAppend(t *testing.T) {
	parts := []string{"a", "E", " ", "é", "e\u0301", "\u0301", "\u0327\u0301", "ﬁ", "Ｆ", "ß", "ς", "И\u0306", "か\u3099",
		"한", "\u1100\u1161", "\u1161", "ǅ", "ⅷ", "🙂", "\u034f", strings.Repeat("\u0301", 40), strings.Repeat("\u0327\u0301", 17),
		"\u212b", "x\u0338", "\xff", "\xe2\x82", "Москва", strings.Repeat("x", 70)}
	r := rand.New(rand.NewPCG(5, 9))
	var f folder
	for range 20000 {
		s := joinParts(r, parts)
		for _, form := range []norm.Form{norm.NFKD, norm.NFC} {
			want := string(form.AppendString([]byte("<"), s))
			if got := string(f.normalize(form, []byte("<"), s)); got != want {
				t.Fatalf("normalize(%v, %+q) = %+q, want %+q", form, s, got, want)
			}
		}
	}
}

// TestFoldAllocatesNothing: folding a text with accents, once its
// buffers have grown, allocates nothing (the normaliser's Append made a
// reorder buffer on the heap for every piece).
func TestFoldAllocatesNothing(t *testing.T) {
	text := strings.Repeat("Zürich naïve coöperate Ἀθῆναι Москва ﬁne ", 20)
	var f folder
	f.fold(text)
	if n := testing.AllocsPerRun(20, func() { f.fold(text) }); n != 0 {
		t.Errorf("fold allocates %v times a text, want 0", n)
	}
}

// FuzzNormalize: folder.normalize gives the bytes of
// norm.Form.AppendString for any text, in both forms fold uses.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "é", "e\u0301", strings.Repeat("\u0301", 40), "\u1100\u1161\u11a8", "ﬁ", "\xff\u0301"} {
		f.Add(s)
	}
	var fo folder
	f.Fuzz(func(t *testing.T, s string) {
		for _, form := range []norm.Form{norm.NFKD, norm.NFC} {
			want := string(form.AppendString(nil, s))
			if got := string(fo.normalize(form, nil, s)); got != want {
				t.Fatalf("normalize(%v, %+q) = %+q, want %+q", form, s, got, want)
			}
		}
	})
}

// joinParts joins 1 to 12 of parts, picked by r.
func joinParts(r *rand.Rand, parts []string) string {
	var b strings.Builder
	for range 1 + r.IntN(12) {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}
