package store

import (
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// FTS5's unicode61 tokenizer (with remove_diacritics 2) lower-cases
// letters and removes the accents of Latin letters, and nothing more:
// Greek with tonos or dialytika (Αθήνα), final sigma, Cyrillic ё and й,
// and the letters that carry their accent without a combining mark (ß, ø,
// ł, đ, æ, œ, þ, ı) keep them, as do compatibility forms (ﬁ, ａ).
// textfold.Fold folds those too.
//
// For each word of a note's title or body that textfold.FoldWord folds
// beyond what unicode61 does, the index keeps the folded word as a
// marked token (foldMarker, then the word) in the hidden columns:
// cjktitle for the title, cjk for the body, after the CJK bigrams. A
// query word also matches its marked folded form there, so "αθηνα",
// "ΑΘΗΝΑ" and "αθην" find Αθήνα, and "strasse" and "stras" find Straße.
// Words with CJK text are not folded.
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
// for the words unicode61 folds, and phrases of folded words work.

// foldMarker starts each folded token of the hidden columns. It is ASCII
// letters, which unicode61 keeps in the token; alone, it marks a gap.
const foldMarker = "vgfold"

// foldText is what the hidden columns hold, after the CJK bigrams, for a
// title or body (NFC): the marked folded form of each of its words that
// unicode61 folds otherwise, in order, the bare marker for each run of
// other words between them; "" when it has none.
func foldText(s string) string {
	if textfold.IsASCII(s) {
		return ""
	}
	var b strings.Builder
	gap := false
	// All-ASCII words are never folded otherwise: they are only gaps.
	for skipped, w := range textfold.NonASCIITokens(s) {
		gap = gap || skipped
		if textfold.HasCJK(w) {
			gap = true
			continue
		}
		f, differs := textfold.FoldWord(w)
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
	return hasWordChar(f) && strings.IndexFunc(f, func(r rune) bool { return !textfold.IsU61Rune(r) }) < 0
}
