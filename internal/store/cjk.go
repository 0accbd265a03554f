package store

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// CJK text (Chinese, Japanese, Korean) has no spaces between words, and
// FTS5's unicode61 tokenizer makes a whole run of it one token: a word in
// the middle of a sentence would not be found. As Lucene's CJKAnalyzer
// does, the index also keeps the CJK runs of each note's title and body as
// overlapping bigrams, in the hidden columns cjktitle and cjk, and a query
// word with CJK text matches them as the phrase of its bigrams:
//
//	東京から京都へ  ->  東京 京か から ら京 京都 都へ へ
//	京都           ->  "京都"
//	新幹線         ->  "新幹 幹線"
//	京             ->  "京"*
//
// Each run ends with its last character alone: so a one-character query
// (a prefix of the bigrams) finds it at the end of a run too, and a phrase
// of bigrams never spans two runs ("新幹" and "幹線" in "新幹 幹線" are
// not "新幹線").
//
// A word mixing CJK and other characters is one token for unicode61
// ("Tokyo東京"): in the cjk columns its other parts are kept as words
// next to the bigrams ("tokyo 東京 京"), so a mixed query word matches as
// the phrase of its parts in that order, wherever in the text it is.
// Words without CJK are in the cjk columns only as folded (fold.go).

// cjkText is what the cjk columns hold for a title or body: the tokens of
// its words with CJK text (see appendCJK), separated by spaces; "" when it
// has none.
func cjkText(s string) string {
	if !textfold.HasCJK(s) {
		return ""
	}
	var toks []string
	for _, w := range textfold.NonASCIITokens(vault.NFC(s)) { // an ASCII word has no CJK
		if textfold.HasCJK(w) {
			toks = appendCJK(toks, w, true)
		}
	}
	return strings.Join(toks, " ")
}

// appendCJK appends the cjk-column tokens of the word w: its CJK runs as
// overlapping bigrams, its other parts as they are. A run of one
// character is itself; a longer run is followed by its last character
// alone, unless it ends w and w is not complete (a query word, which may
// go on in the text).
func appendCJK(toks []string, w string, complete bool) []string {
	rest := w
	for part, cjk := range textfold.SplitCJK(w) {
		rest = rest[len(part):]
		if !cjk {
			toks = append(toks, part)
			continue
		}
		run := []rune(part)
		for i := 0; i+1 < len(run); i++ {
			toks = append(toks, string(run[i:i+2]))
		}
		if len(run) == 1 || complete || rest != "" {
			toks = append(toks, string(run[len(run)-1]))
		}
	}
	return toks
}

// cjkExpr is the FTS5 expression that matches the term's CJK text in the
// cjk columns, "" for a term without CJK letters. The term's words with
// CJK text are matched as the phrase of their tokens (appendCJK), a run of
// such words as one phrase; its words without are matched in the title
// and body, as words (so "東京 Tokyo" is the phrase 東京 in the cjk
// columns and the word Tokyo anywhere, not necessarily next to each
// other). A phrase's last token is a prefix when it is one CJK character
// (the start of a bigram) or, for a word (not a quoted phrase), a part
// without CJK (the start of a word).
func (t Term) cjkExpr() string {
	ws := textfold.Words(t.Text)
	if !slices.ContainsFunc(ws, textfold.HasCJK) {
		return ""
	}
	var parts, phrase []string
	prefix := false
	flush := func() {
		if len(phrase) > 0 {
			p := `{cjktitle cjk} : "` + strings.Join(phrase, " ") + `"`
			if prefix {
				p += "*"
			}
			parts = append(parts, p)
			phrase, prefix = nil, false
		}
	}
	for i, w := range ws {
		last := i == len(ws)-1
		if !textfold.HasCJK(w) {
			flush()
			p := `{title body} : "` + w + `"`
			if last && !t.Phrase && !t.exact {
				p += "*"
			}
			parts = append(parts, p)
			continue
		}
		phrase = appendCJK(phrase, w, !last)
		if last {
			end, _ := utf8.DecodeLastRuneInString(w)
			// A last CJK token of one character is a prefix of bigrams;
			// a last part without CJK is a word's start.
			prefix = textfold.IsCJK(end) && utf8.RuneCountInString(phrase[len(phrase)-1]) == 1 ||
				!textfold.IsCJK(end) && !t.Phrase && !t.exact
		}
	}
	flush()
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, " AND ") + ")"
}
