package textfold

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NFC returns s in Unicode normalisation form C, so that a name typed on
// Linux and the same name stored decomposed by macOS compare equal.
func NFC(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// Fold returns s lower-cased, with the compatibility forms of letters and
// digits replaced (ﬁ is fi, ａ is a), the accents of Latin, Greek and
// Cyrillic letters removed (Ελληνικά is ελληνικα, ё is е, й is и), final
// sigma as σ, and ß, ø, ł, đ, ð, æ, œ, þ, ı, ħ, ŧ spelled with plain
// letters (ss, o, l, d, d, ae, oe, th, i, h, t). Marks on other scripts
// change the letter (Japanese dakuten, Indic vowel signs), so they stay.
// Keyword search matches words as Fold makes them.
func Fold(s string) string {
	f, _ := FoldWord(NFC(s))
	return f
}

// FoldWord folds w (NFC) as Fold does, and reports whether SQLite's
// unicode61 tokenizer (remove_diacritics 2) folds it otherwise: then the
// full-text index keeps it as a marked token.
func FoldWord(w string) (folded string, differs bool) {
	if IsASCII(w) {
		return strings.ToLower(w), false
	}
	var b strings.Builder
	b.Grow(len(w))
	dropMarks := false // the last letter was folded: its marks go
	for _, r := range w {
		var d bool
		dropMarks, d = foldStep(&b, r, dropMarks, !differs)
		differs = differs || d
	}
	return b.String(), differs
}

// foldStep writes to b the fold of r, which follows a folded letter (whose
// marks go) when dropMarks. It returns dropMarks for the next rune and,
// when check, whether unicode61 folds r otherwise.
func foldStep(b *strings.Builder, r rune, dropMarks, check bool) (bool, bool) {
	switch {
	case r < utf8.RuneSelf:
		b.WriteRune(unicode.ToLower(r))
		return true, false
	case unicode.Is(unicode.Mn, r):
		if dropMarks {
			return true, check && !U61Diacritic(r)
		}
		b.WriteRune(r)
		return false, false
	}
	f, ok := foldRune(r)
	if !ok {
		b.WriteRune(r)
		return false, false
	}
	b.WriteString(f)
	return true, check && !u61Folds(r, f)
}

// Folded is a word folded (FoldRunes) with, for each byte of Text, the
// index of the rune of the word it comes from.
type Folded struct {
	Text string
	From []int
}

// FoldRunes folds the word w as FoldWord does, rune by rune, and keeps
// where each byte of the result comes from, so that a match in the folded
// text can be found in w.
func FoldRunes(w []rune) Folded {
	if !slices.ContainsFunc(w, func(r rune) bool { return r >= utf8.RuneSelf }) {
		b := make([]byte, len(w))
		from := make([]int, len(w))
		for i, c := range w {
			b[i], from[i] = byte(unicode.ToLower(c)), i
		}
		return Folded{Text: string(b), From: from}
	}
	var b strings.Builder
	var from []int
	dropMarks := false // as in FoldWord
	for i, c := range w {
		n := b.Len()
		dropMarks, _ = foldStep(&b, c, dropMarks, false)
		for range b.Len() - n {
			from = append(from, i)
		}
	}
	return Folded{Text: b.String(), From: from}
}

// foldRune folds a letter or digit of Latin, Greek or Cyrillic script
// (or one whose compatibility form is: ﬁ, ａ, ²); ok is false for the
// others, which stay as they are.
func foldRune(r rune) (f string, ok bool) {
	if s, ok := foldSpecial(unicode.ToLower(r)); ok {
		return s, true
	}
	var buf [utf8.UTFMax]byte
	src := buf[:utf8.EncodeRune(buf[:], r)]
	d := norm.NFKD.Properties(src).Decomposition()
	if !isWordText(d) { // ½ is 1⁄2: kept whole
		d = norm.NFD.Properties(src).Decomposition()
	}
	if d == nil {
		d = src
	}
	if base, _ := utf8.DecodeRune(d); !FoldsMarks(base) {
		return "", false
	}
	out := make([]byte, 0, len(d))
	for len(d) > 0 {
		c, n := utf8.DecodeRune(d)
		d = d[n:]
		if unicode.Is(unicode.Mn, c) {
			continue
		}
		c = unicode.ToLower(c)
		if s, ok := foldSpecial(c); ok {
			out = append(out, s...)
			continue
		}
		out = utf8.AppendRune(out, c)
	}
	return string(out), true
}

// FoldsMarks reports whether r is a letter of Latin, Greek or Cyrillic
// script (or another character below U+0530), whose accents folding
// removes: the combining marks after it are dropped.
func FoldsMarks(r rune) bool {
	return r < 0x0530 || (r >= 0x1D00 && r < 0x2000)
}

// SpecialFold spells a (lower-case) letter that carries its accent
// without a combining mark, so that no decomposition removes it: ß is ss,
// ø is o…; ok is false for other runes.
func SpecialFold(r rune) (s string, ok bool) {
	if r < 'ß' { // the first of specialFold: most text is ASCII
		return "", false
	}
	s, ok = specialFold[r]
	return s, ok
}

var specialFold = map[rune]string{
	'ß': "ss", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'æ': "ae", 'œ': "oe", 'þ': "th",
	'ı': "i", 'ħ': "h", 'ŧ': "t",
}

// foldSpecial is SpecialFold, with final sigma as σ (a form of the
// letter, as case is).
func foldSpecial(r rune) (string, bool) {
	if r == 'ς' {
		return "σ", true
	}
	return SpecialFold(r)
}

// u61Folds reports whether unicode61 turns r into f by itself: it
// lower-cases Latin, Greek and Cyrillic letters as Go does, and reduces a
// Latin letter that decomposes to an ASCII letter and accents to that
// letter (but for Ǡ and ǡ). The store's TestFoldUnicode61 checks it
// against SQLite's tokenizer for every character.
func u61Folds(r rune, f string) bool {
	latin := r >= 0xC0 && r < 0x250 || r >= 0x1E00 && r < 0x1F00
	switch {
	case f == string(r):
		return true
	case f == string(unicode.ToLower(r)):
		return latin || r >= 0x386 && r < 0x3F0 || r >= 0x400 && r < 0x528
	case !latin || r == 'Ǡ' || r == 'ǡ':
		return false
	}
	var buf [utf8.UTFMax]byte
	d := norm.NFD.Properties(buf[:utf8.EncodeRune(buf[:], r)]).Decomposition()
	return len(d) > 0 && d[0] < utf8.RuneSelf && f == string(unicode.ToLower(rune(d[0])))
}

// U61Diacritic reports whether unicode61 drops the combining mark r
// within a word (it ends the word at other marks).
func U61Diacritic(r rune) bool {
	switch {
	case r >= 0x300 && r <= 0x30C && r != 0x305, r == 0x30F, r == 0x311, r == 0x31B,
		r >= 0x323 && r <= 0x328, r == 0x32D, r == 0x32E, r == 0x330, r == 0x331:
		return true
	}
	return false
}

// IsASCII reports whether s is all ASCII: folding only lower-cases it.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isWordText reports whether every character of b is one unicode61 keeps
// in a word.
func isWordText(b []byte) bool {
	return !strings.ContainsFunc(string(b), func(r rune) bool { return !IsWordRune(r) })
}
