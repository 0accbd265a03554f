package textfold

import (
	"iter"
	"unicode/utf8"
)

// NonASCIITokens yields, in order, each of the tokens of s (Tokens) that
// is not all ASCII, with whether an all-ASCII token came before it since
// the token yielded last (or the start of s). It finds them from the
// non-ASCII bytes of s, 8 bytes at a time, without a step per ASCII
// character: the hidden columns of a note's body keep only such tokens,
// and a note in English has few (walking every token was most of the
// cost of those columns).
func NonASCIITokens(s string) iter.Seq2[bool, string] {
	return func(yield func(bool, string) bool) {
		skipped := false
		for i := 0; i < len(s); {
			p := IndexNonASCII(s, i)
			if p < 0 {
				return
			}
			r, n := utf8.DecodeRuneInString(s[p:])
			if !IsWordRune(r) {
				skipped = skipped || hasASCIIWord(s[i:p])
				i = p + n
				continue
			}
			// s[i-1] ends a token or a separator: the token with r
			// starts at i at the earliest.
			start := p
			for start > i && asciiWordBytes[s[start-1]] {
				start--
			}
			skipped = skipped || hasASCIIWord(s[i:start])
			end := tokenEnd(s, p+n)
			if !yield(skipped, s[start:end]) {
				return
			}
			skipped, i = false, end
		}
	}
}

// IndexNonASCII returns the index of the first byte of s from i on that
// is not ASCII, or -1.
func IndexNonASCII(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if (s[i]|s[i+1]|s[i+2]|s[i+3]|s[i+4]|s[i+5]|s[i+6]|s[i+7])&0x80 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return i
		}
	}
	return -1
}

// hasASCIIWord reports whether the ASCII text s has a letter or a digit.
func hasASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if asciiWordBytes[s[i]] {
			return true
		}
	}
	return false
}

// tokenEnd returns the end of the token of s that goes on at i.
func tokenEnd(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiWordBytes[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsWordRune(r) {
			return i
		}
		i += n
	}
	return i
}
