package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
	"golang.org/x/text/unicode/norm"
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
// the phrase of its parts in that order, wherever in the text it is. Words
// without CJK are not in the cjk columns.

// isCJK reports whether r is a CJK letter: Han (with 々 and 〇), Hiragana,
// Katakana (with the prolonged sound mark ー) or Hangul. Punctuation and
// symbols of those scripts (。「」㈱) are not.
func isCJK(r rune) bool {
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

// hasCJK reports whether s has a CJK letter.
func hasCJK(s string) bool { return strings.IndexFunc(s, isCJK) >= 0 }

// isWordRune reports whether unicode61 keeps r in a token: letters,
// digits, marks and private-use characters; anything else separates
// tokens.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Co, r)
}

// wordRuns splits s into unicode61's tokens, as written (runs of word
// characters).
func wordRuns(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
}

// cjkText is what the cjk columns hold for a title or body: the tokens of
// its words with CJK text (see appendCJK), separated by spaces; "" when it
// has none.
func cjkText(s string) string {
	if !hasCJK(s) {
		return ""
	}
	var toks []string
	for _, w := range wordRuns(vault.NFC(s)) {
		if hasCJK(w) {
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
	for w != "" {
		n := strings.IndexFunc(w, func(r rune) bool { return !isCJK(r) })
		if n == 0 { // a part without CJK
			n = strings.IndexFunc(w, isCJK)
			if n < 0 {
				n = len(w)
			}
			toks = append(toks, w[:n])
			w = w[n:]
			continue
		}
		if n < 0 {
			n = len(w)
		}
		run := []rune(w[:n])
		w = w[n:]
		for i := 0; i+1 < len(run); i++ {
			toks = append(toks, string(run[i:i+2]))
		}
		if len(run) == 1 || complete || w != "" {
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
	ws := wordRuns(t.Text)
	if !slices.ContainsFunc(ws, hasCJK) {
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
		if !hasCJK(w) {
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
			prefix = isCJK(end) && utf8.RuneCountInString(phrase[len(phrase)-1]) == 1 ||
				!isCJK(end) && !t.Phrase && !t.exact
		}
	}
	flush()
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, " AND ") + ")"
}

// cjkSnippet cuts a snippet of body around the first place that has the
// CJK text of the terms (the best snippet FTS5 makes of the body column
// can only highlight whole CJK runs, or nothing when only the cjk column
// matched), highlighting that text and the terms' other words. When the
// body has none of the terms' CJK text (the note matched by its title,
// say), it returns the start of the body and false.
func cjkSnippet(body string, terms []Term) (string, bool) {
	var needles []string // CJK runs, longest first
	var others []highlightWord
	for _, t := range terms {
		for _, w := range wordRuns(t.Text) {
			for _, part := range splitCJK(w) {
				if isCJK(firstRune(part)) {
					needles = append(needles, part)
				} else {
					prefix := !t.Phrase && !t.exact && utf8.RuneCountInString(part) > 1
					others = append(others, highlightWord{fold(part), prefix})
				}
			}
		}
	}
	slices.SortFunc(needles, func(a, b string) int { return len(b) - len(a) })
	body = vault.NFC(body)
	at := -1
	for _, n := range needles {
		if i := strings.Index(body, n); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	start, end := snippetWindow(body, max(at, 0))
	var b strings.Builder
	if start > 0 {
		b.WriteString(SnippetEllipsis)
	}
	text := body[start:end]
	closed := -1 // where the last highlight closed in b
	mark := func(s string) {
		if b.Len() == closed { // adjacent highlights: one
			trimmed := strings.TrimSuffix(b.String(), HighlightClose)
			b.Reset()
			b.WriteString(trimmed)
		} else {
			b.WriteString(HighlightOpen)
		}
		b.WriteString(s)
		b.WriteString(HighlightClose)
		closed = b.Len()
	}
	for i := 0; i < len(text); {
		if n := matchNeedle(text[i:], needles); n > 0 {
			mark(text[i : i+n])
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if isWordRune(r) && !isCJK(r) {
			n := strings.IndexFunc(text[i:], func(r rune) bool { return !isWordRune(r) || isCJK(r) })
			if n < 0 {
				n = len(text) - i
			}
			if w := fold(text[i : i+n]); slices.ContainsFunc(others, func(h highlightWord) bool { return h.match(w) }) {
				mark(text[i : i+n])
			} else {
				b.WriteString(text[i : i+n])
			}
			i += n
			continue
		}
		b.WriteString(text[i : i+size])
		i += size
	}
	if end < len(strings.TrimRightFunc(body, unicode.IsSpace)) {
		b.WriteString(SnippetEllipsis)
	}
	return b.String(), at >= 0
}

// highlightWord is a query word without CJK, folded, that cjkSnippet
// highlights.
type highlightWord struct {
	word   string
	prefix bool
}

func (h highlightWord) match(w string) bool {
	return w == h.word || h.prefix && strings.HasPrefix(w, h.word)
}

// fold is a word as unicode61 with remove_diacritics compares it: lower
// case, without diacritics.
func fold(s string) string {
	s = norm.NFD.String(s)
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
	return norm.NFC.String(s)
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// splitCJK splits a word into its CJK runs and its other parts.
func splitCJK(w string) []string {
	var parts []string
	for w != "" {
		cjk := isCJK(firstRune(w))
		n := strings.IndexFunc(w, func(r rune) bool { return isCJK(r) != cjk })
		if n < 0 {
			n = len(w)
		}
		parts = append(parts, w[:n])
		w = w[n:]
	}
	return parts
}

// matchNeedle returns the length of the first needle s starts with, or 0.
func matchNeedle(s string, needles []string) int {
	for _, n := range needles {
		if strings.HasPrefix(s, n) {
			return len(n)
		}
	}
	return 0
}

// snippetWindow returns the bytes [start, end) of text a snippet shows
// around the byte offset at: about SnippetTokens words, where a CJK
// character counts as half a word and punctuation as nothing. It starts up
// to a quarter of that before at, not before the line of at.
func snippetWindow(text string, at int) (start, end int) {
	const budget = 2 * SnippetTokens // in half words
	type unit struct{ start, end, cost int }
	var units []unit
	cur := -1 // the unit at or after at
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
			continue
		case isCJK(r):
			units = append(units, unit{i, i + size, 1})
		default: // a word, or punctuation (free)
			size = strings.IndexFunc(text[i:], func(r rune) bool { return unicode.IsSpace(r) || isCJK(r) })
			if size < 0 {
				size = len(text) - i
			}
			u := unit{i, i + size, 0}
			if strings.IndexFunc(text[u.start:u.end], isWordRune) >= 0 {
				u.cost = 2
			}
			units = append(units, u)
		}
		i += size
		if cur < 0 && units[len(units)-1].end > at {
			cur = len(units) - 1
		}
	}
	if cur < 0 {
		return 0, len(text)
	}
	first, last, spent := cur, cur, units[cur].cost
	for first > 0 && spent+units[first-1].cost <= budget/4 &&
		!strings.Contains(text[units[first-1].end:units[first].start], "\n") {
		first--
		spent += units[first].cost
	}
	for last+1 < len(units) && spent+units[last+1].cost <= budget {
		last++
		spent += units[last].cost
	}
	if first > 0 {
		start = units[first].start
	}
	end = units[last].end
	if last == len(units)-1 {
		end = len(text)
	}
	return start, end
}
