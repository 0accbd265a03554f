package store

import (
	"iter"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
	"golang.org/x/text/unicode/norm"
)

// FTS5's unicode61 tokenizer (with remove_diacritics 2) lower-cases
// letters and removes the accents of Latin letters, and nothing more:
// Greek with tonos or dialytika (Αθήνα), final sigma, Cyrillic ё and й,
// and the letters that carry their accent without a combining mark (ß, ø,
// ł, đ, æ, œ, þ, ı) keep them, as do compatibility forms (ﬁ, ａ). Fold
// folds those too, as the builtin embedder does.
//
// For each word of a note's title or body that Fold changes beyond what
// unicode61 does, the index keeps the folded word as a marked token
// (foldMarker, then the word) in the hidden columns: cjktitle for the
// title, cjk for the body, after the CJK bigrams. A query word also
// matches its marked folded form there, so "αθηνα", "ΑΘΗΝΑ" and "αθην"
// find Αθήνα, and "strasse" and "stras" find Straße. The marked tokens
// are terms of their own, with small doclists (a vault in English has
// almost none), so the extra lookups cost ordinary queries little. Words
// with CJK text are not folded.
//
// The marked tokens follow the text's order, and the bare marker stands
// for each run of other words between them, so that a phrase of marked
// tokens matches only words that follow each other in the text:
//
//	Η Αθήνα είναι η πρωτεύουσα της Ελλάδας
//	-> vgfoldαθηνα vgfoldειναι vgfold vgfoldπρωτευουσα vgfoldτησ vgfoldελλαδασ
//
// Each occurrence is kept, not each distinct word once: bm25 then ranks a
// note that says Αθήνα ten times above one that says it once, as it does
// for the words unicode61 folds, and phrases of folded words work. The
// cost is in the index: for a Greek text, about as many tokens again;
// for a Russian one, its words with ё or й; for English, French or German,
// hardly any.

// foldMarker starts each folded token of the hidden columns. It is ASCII
// letters, which unicode61 keeps in the token; alone, it marks a gap.
const foldMarker = "vgfold"

// Fold returns s lower-cased, with the compatibility forms of letters and
// digits replaced (ﬁ is fi, ａ is a), the accents of Latin, Greek and
// Cyrillic letters removed (Ελληνικά is ελληνικα, ё is е, й is и), final
// sigma as σ, and ß, ø, ł, đ, ð, æ, œ, þ, ı, ħ, ŧ spelled with plain
// letters (ss, o, l, d, d, ae, oe, th, i, h, t). Marks on other scripts
// change the letter (Japanese dakuten, Indic vowel signs), so they stay.
// Keyword search matches words as Fold makes them.
func Fold(s string) string {
	f, _ := foldWord(vault.NFC(s))
	return f
}

// foldWord folds w (NFC) as Fold does, and reports whether unicode61
// folds it otherwise: then the index keeps it as a marked token.
func foldWord(w string) (string, bool) {
	if isASCII(w) {
		return strings.ToLower(w), false
	}
	var b strings.Builder
	b.Grow(len(w))
	differs := false
	dropMarks := false // the last letter was folded: its marks go
	for _, r := range w {
		if r < utf8.RuneSelf {
			b.WriteRune(unicode.ToLower(r))
			dropMarks = true
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			if dropMarks {
				differs = differs || !u61Diacritic(r)
				continue
			}
			b.WriteRune(r)
			continue
		}
		f, ok := foldRune(r)
		dropMarks = ok
		if !ok {
			b.WriteRune(r)
			continue
		}
		b.WriteString(f)
		differs = differs || !u61Folds(r, f)
	}
	return b.String(), differs
}

// foldRune folds a letter or digit of Latin, Greek or Cyrillic script
// (or one whose compatibility form is: ﬁ, ａ, ²); ok is false for the
// others, which stay as they are.
func foldRune(r rune) (f string, ok bool) {
	if s, ok := specialFold[unicode.ToLower(r)]; ok {
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
	if base, _ := utf8.DecodeRune(d); !foldsMarks(base) {
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
		if s, ok := specialFold[c]; ok {
			out = append(out, s...)
			continue
		}
		out = utf8.AppendRune(out, c)
	}
	return string(out), true
}

// foldsMarks reports whether r is a letter of Latin, Greek or Cyrillic
// script (or another character below U+0530), whose accents Fold
// removes.
func foldsMarks(r rune) bool {
	return r < 0x0530 || (r >= 0x1D00 && r < 0x2000)
}

// specialFold spells the (lower-case) letters that carry their accent
// without a combining mark, so that no decomposition removes it.
var specialFold = map[rune]string{
	'ß': "ss", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'æ': "ae", 'œ': "oe", 'þ': "th",
	'ı': "i", 'ħ': "h", 'ŧ': "t", 'ς': "σ",
}

// u61Folds reports whether unicode61 turns r into f by itself: it
// lower-cases Latin, Greek and Cyrillic letters as Go does, and reduces a
// Latin letter that decomposes to an ASCII letter and accents to that
// letter (but for Ǡ and ǡ). TestFoldUnicode61 checks it against SQLite's
// tokenizer for every character.
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

// u61Diacritic reports whether unicode61 drops the combining mark r
// within a word (it ends the word at other marks).
func u61Diacritic(r rune) bool {
	switch {
	case r >= 0x300 && r <= 0x30C && r != 0x305, r == 0x30F, r == 0x311, r == 0x31B,
		r >= 0x323 && r <= 0x328, r == 0x32D, r == 0x32E, r == 0x330, r == 0x331:
		return true
	}
	return false
}

func isASCII(s string) bool {
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
	for _, r := range string(b) {
		if !isWordRune(r) {
			return false
		}
	}
	return true
}

// foldText is what the hidden columns hold, after the CJK bigrams, for a
// title or body (NFC): the marked folded form of each of its words that
// unicode61 folds otherwise, in order, the bare marker for each run of
// other words between them; "" when it has none.
func foldText(s string) string {
	if isASCII(s) {
		return ""
	}
	var b strings.Builder
	gap := false
	for w := range eachWord(s) {
		if isASCII(w) || hasCJK(w) {
			gap = true
			continue
		}
		f, differs := foldWord(w)
		if !differs || !markable(f) {
			gap = true
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
			if gap {
				b.WriteString(foldMarker + " ")
			}
		}
		b.WriteString(foldMarker)
		b.WriteString(f)
		gap = false
	}
	return b.String()
}

// eachWord yields the words of s as wordRuns splits them.
func eachWord(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range s {
			switch in := isWordRune(r); {
			case in && start < 0:
				start = i
			case !in && start >= 0:
				if !yield(s[start:i]) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(s[start:])
		}
	}
}

// hiddenText is what a hidden column (cjktitle, cjk) holds for a title or
// body: its CJK bigrams (cjkText), then its marked folded words
// (foldText), the bare marker between them.
func hiddenText(s string) string {
	s = vault.NFC(s)
	c, f := cjkText(s), foldText(s)
	switch {
	case c == "":
		return f
	case f == "":
		return c
	}
	return c + " " + foldMarker + " " + f
}

// markable reports whether the folded word f makes a marked token: it has
// a letter or digit, and unicode61 keeps it whole (a word with marks of
// other scripts would be several tokens, and is matched as written).
func markable(f string) bool {
	return hasWordChar(f) && strings.IndexFunc(f, func(r rune) bool { return !isU61Rune(r) }) < 0
}
