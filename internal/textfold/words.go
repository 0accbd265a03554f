package textfold

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsWordRune reports whether unicode61 keeps r in a token: letters,
// digits, marks and private-use characters; anything else separates
// tokens.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf { // the same answer, without the tables
		return IsASCIIWordByte(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Co, r)
}

// IsASCIIWordByte reports whether an ASCII character is a letter or a
// digit: the only ASCII characters unicode61 keeps in a token, and those
// for which unicode.IsLetter or unicode.IsDigit is true, answered without
// their tables.
func IsASCIIWordByte(c byte) bool {
	return asciiWordBytes[c] // a load, not three comparisons a byte
}

// asciiWordBytes is true at the letters and digits of ASCII.
var asciiWordBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// IsU61Rune reports whether unicode61 keeps r in a token once it removes
// diacritics: letters, digits, private-use characters and the accents it
// removes (other combining marks end a token).
func IsU61Rune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || U61Diacritic(r)
}

// Words splits s into unicode61's tokens, as written (runs of word
// characters, IsWordRune).
func Words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !IsWordRune(r) })
}

// Runs yields the byte offset and text of each run of s of runes for
// which in reports true.
func Runs(s string, in func(rune) bool) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		start := -1
		for i := 0; i < len(s); {
			r, n := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[i:])
			}
			ok := in(r)
			switch {
			case ok && start < 0:
				start = i
			case !ok && start >= 0:
				if !yield(start, s[start:i]) {
					return
				}
				start = -1
			}
			i += n
		}
		if start >= 0 {
			yield(start, s[start:])
		}
	}
}

// WordRuns returns the [start, end) rune ranges of the words of r, as
// Words splits them.
func WordRuns(r []rune) [][2]int {
	var out [][2]int
	start := -1
	for i, c := range r {
		in := IsWordRune(c)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(r)})
	}
	return out
}

// IsCJK reports whether r is a CJK letter: Han (with 々 and 〇), Hiragana,
// Katakana (with the prolonged sound mark ー) or Hangul. Punctuation and
// symbols of those scripts (。「」㈱) are not.
func IsCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	switch r {
	case 'ー', 'ｰ', 'ﾞ', 'ﾟ': // Common script, yet parts of kana words
		return true
	}
	return (unicode.IsLetter(r) || unicode.IsNumber(r)) &&
		unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// HasCJK reports whether s has a CJK letter. It is strings.IndexFunc(s,
// IsCJK) >= 0 without a call per rune: no rune below U+1100 is CJK, and a
// byte below 0xE1 starts none from U+1100 on (nor is it inside one), so
// only the runes that start at a byte from 0xE1 on are decoded and tested.
func HasCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0xE1 {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(s[i:]); IsCJK(r) {
			return true
		}
	}
	return false
}

// SplitCJK yields the parts of the word w in order, its CJK runs and its
// other parts, each with whether it is CJK.
func SplitCJK(w string) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		for w != "" {
			r, _ := utf8.DecodeRuneInString(w)
			cjk := IsCJK(r)
			n := strings.IndexFunc(w, func(r rune) bool { return IsCJK(r) != cjk })
			if n < 0 {
				n = len(w)
			}
			if !yield(w[:n], cjk) {
				return
			}
			w = w[n:]
		}
	}
}

// IsCJKIdeograph is BERT's "Chinese character" test (CJK Unified
// Ideographs and their extensions, compatibility ideographs), which
// tokenizers that follow BERT split around.
func IsCJKIdeograph(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF || r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F || r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B820 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}
