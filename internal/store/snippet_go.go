package store

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FTS5's snippet() made in Go, for the common case: a row whose every
// column is ASCII or Latin text (tokens61) and an expression whose every
// phrase is one plain token (matchParser). unicode61 then splits the
// text into runs of letters and digits, lower-cased and Latin accents
// removed, and the snippet is FTS5's own algorithm (fts5_aux.c, fts5SnippetFunction):
// each instance of a phrase in the body, in order of position (then of
// phrase), starts a window of SnippetTokens tokens scored 1000 per
// phrase seen in it and 1 per repeat, and moved back to centre its
// instances; the start of the sentence before it (a token after '.' or
// ':' and a space) is scored too, with 100 more (120 at the body's
// start); the best window, the first of equal ones, is written with its
// instances between the marks (fts5HighlightCb). Making the snippet so
// saves making the row in temp.snip (tokenizing all its columns) and
// the query over it. TestGoSnippetSameAsFTS5 compares the two.

// snipExpr is a search's match expression (matchExpr, OR) as goSnippet
// reads it; nil when it cannot.
type snipExpr struct {
	root    *matchNode
	phrases []matchPhrase
}

// newSnipExpr parses terms' match expression; nil when a phrase is not
// one plain token, or a term has CJK text (whose snippets are made in Go
// otherwise: bodyColumns).
func newSnipExpr(terms []Term) *snipExpr {
	if hasCJKTerm(terms) {
		return nil
	}
	var p matchParser
	root := p.parse(matchExpr(terms, "OR"))
	if !p.ok {
		return nil
	}
	return &snipExpr{root: root, phrases: p.phrases}
}

// textToken is a token of a text: bytes [start, end), folded.
type textToken struct {
	start, end int
	text       string
}

// tokens61 splits s as unicode61 (remove_diacritics 2) does: runs of
// letters and digits, lower-cased, Latin letters without their accents.
// ok is false when s has a character outside ASCII, Latin-1 (but µ),
// Latin Extended-A (but ſ) and the general punctuation: the ones whose
// category and folding are checked against FTS5 (TestTokens61SameAsFTS5).
func tokens61(s string) (out []textToken, ok bool) {
	start := -1
	var b strings.Builder
	for i, r := range s {
		var token bool
		switch {
		case r < utf8.RuneSelf:
			token = isASCIIAlnum(byte(r))
		case r >= 0xA0 && r <= 0x17E && r != 0xB5:
			token = unicode.IsLetter(r) || unicode.IsNumber(r)
		case r >= 0x2000 && r <= 0x2064:
		default:
			return nil, false
		}
		switch {
		case token && start < 0:
			start = i
			b.Reset()
			fallthrough
		case token:
			b.WriteString(fold61(r))
		case start >= 0:
			out = append(out, textToken{start, i, b.String()})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, textToken{start, len(s), b.String()})
	}
	return out, true
}

// fold61 is unicode61's folding of a letter or digit r of tokens61's
// characters: lower case, and a Latin letter without its accent (the
// letter its canonical decomposition starts with, when the rest are
// combining marks).
func fold61(r rune) string {
	if r < utf8.RuneSelf {
		return string(unicode.ToLower(r))
	}
	lower := string(unicode.ToLower(r))
	d := []rune(norm.NFD.String(lower))
	for _, m := range d[1:] {
		if !unicode.Is(unicode.Mn, m) {
			return lower
		}
	}
	return string(d[0])
}

func isASCIIAlnum(c byte) bool { return isASCIILetter(c) || c >= '0' && c <= '9' }

// matches reports whether token tok is an instance of phrase p.
func (p matchPhrase) matches(tok string) bool {
	return tok == p.token || p.prefix && strings.HasPrefix(tok, p.token)
}

// snippet returns FTS5's snippet of column 1 (the body) of the row cols
// and whether the row matches the expression at all; ok is false when a
// column has a character tokens61 does not split, or the body has words
// folded further than unicode61 folds them (its hidden column is not
// empty: the snippet is then made otherwise, see snippet), or a NUL byte
// (FTS5 returns its snippet as a C string, cut at the first NUL).
func (e *snipExpr) snippet(cols [len(ftsColumns)]string) (snip string, matched, ok bool) {
	if cols[3] != "" || strings.IndexByte(cols[1], 0) >= 0 { // the body's hidden column: see bodyColumns
		return "", false, false
	}
	flags := make([]uint8, len(e.phrases))
	var body []textToken
	for c, text := range cols {
		toks, ok := tokens61(text)
		if !ok {
			return "", false, false
		}
		if c == 1 {
			body = toks
		}
		for i, p := range e.phrases {
			if p.cols&(1<<c) != 0 && flags[i] == 0 && slices.ContainsFunc(toks, func(t textToken) bool { return p.matches(t.text) }) {
				flags[i] = hasPhrase
			}
		}
	}
	if !e.root.match(flags, hasPhrase) {
		return "", false, true
	}
	// The instances in the body, by position, then phrase.
	var insts []snipInst
	for pos, t := range body {
		for i, p := range e.phrases {
			if p.cols&(1<<1) != 0 && p.matches(t.text) {
				insts = append(insts, snipInst{phrase: i, off: pos})
			}
		}
	}
	start := bestWindow(cols[1], body, insts, len(e.phrases))
	return highlightWindow(cols[1], body, insts, start), true, true
}

// rowSnippet is the snippet of the row (its title and columns) for
// terms, as KeywordSnippets writes it: FTS5's, cleaned (snippet), or for
// a row that does not match, one made as for a note found by anchor text
// only (anchorSnippet); ok is false when it cannot be made in Go.
func (e *snipExpr) rowSnippet(row func() (string, [len(ftsColumns)]string), terms []Term) (string, bool) {
	title, cols := row()
	snip, matched, ok := e.snippet(cols)
	switch {
	case !ok:
		return "", false
	case !matched:
		return anchorSnippet(cols[1], title, terms), true
	}
	return snippet(snip, cols[1], title, false, terms), true
}

// snipInst is an instance of a phrase in the body: its token's place.
type snipInst struct{ phrase, off int }

// windowScore is fts5SnippetScore: the score of the window of
// SnippetTokens tokens from from, and (adjust) the start that centres
// its instances.
func windowScore(insts []snipInst, phrases, size, from int) (score, adjusted int) {
	seen := make([]bool, phrases)
	first, last := -1, 0
	for _, in := range insts {
		if in.off < from || in.off >= from+SnippetTokens {
			continue
		}
		if seen[in.phrase] {
			score++
		} else {
			score += 1000
		}
		seen[in.phrase] = true
		if first < 0 {
			first = in.off
		}
		last = in.off + 1
	}
	adjusted = first - (SnippetTokens-(last-first))/2
	if adjusted+SnippetTokens > size {
		adjusted = size - SnippetTokens
	}
	return score, max(adjusted, 0)
}

// bestWindow is the first token of the snippet fts5SnippetFunction
// picks.
func bestWindow(text string, toks []textToken, insts []snipInst, phrases int) int {
	var firsts []int // the tokens that start a sentence (fts5SentenceFinderCb)
	for pos, t := range toks {
		if pos == 0 {
			firsts = append(firsts, 0)
			continue
		}
		i := t.start - 1
		for i >= 0 && strings.IndexByte(" \t\n\r", text[i]) >= 0 {
			i--
		}
		if i != t.start-1 && i >= 0 && (text[i] == '.' || text[i] == ':') {
			firsts = append(firsts, pos)
		}
	}
	best, start := 0, 0
	for _, in := range insts {
		if score, adjusted := windowScore(insts, phrases, len(toks), in.off); score > best {
			best, start = score, adjusted
		}
		if len(firsts) == 0 || len(toks) <= SnippetTokens {
			continue
		}
		// The last sentence start at or before the instance.
		jj, _ := slices.BinarySearch(firsts, in.off+1)
		jj = max(jj-1, 0)
		if firsts[jj] < in.off {
			score, _ := windowScore(insts, phrases, len(toks), firsts[jj])
			score += 100
			if firsts[jj] == 0 {
				score += 20
			}
			if score > best {
				best, start = score, firsts[jj]
			}
		}
	}
	return start
}

// highlightWindow writes the SnippetTokens tokens of text from start as
// fts5HighlightCb does: the instances (coalesced: one per token) between
// MarkOpen and MarkClose, SnippetEllipsis where the text goes on.
func highlightWindow(text string, toks []textToken, insts []snipInst, start int) string {
	var marked []int // the tokens with an instance, from start
	for _, in := range insts {
		if in.off >= start && (len(marked) == 0 || marked[len(marked)-1] != in.off) {
			marked = append(marked, in.off)
		}
	}
	next := func() int { // the next marked token, or -1
		if len(marked) == 0 {
			return -1
		}
		return marked[0]
	}
	end := start + SnippetTokens - 1
	var b strings.Builder
	if start > 0 {
		b.WriteString(SnippetEllipsis)
	}
	off, open := 0, false
	for pos := start; pos <= min(end, len(toks)-1); pos++ {
		t := toks[pos]
		if start != 0 && pos == start {
			off = t.start
		}
		if at := next(); open && (pos <= at || at < 0) && t.start > off {
			b.WriteString(MarkClose)
			open = false
		}
		if pos == next() {
			if !open {
				b.WriteString(text[off:t.start])
				b.WriteString(MarkOpen)
				off, open = t.start, true
			}
			b.WriteString(text[off:t.end])
			off = t.end
			marked = marked[1:]
		}
		if pos == end {
			if open {
				b.WriteString(MarkClose)
				open = false
			}
			b.WriteString(text[off:t.end])
			off = t.end
		}
	}
	if open {
		b.WriteString(MarkClose)
	}
	if end >= len(toks)-1 {
		b.WriteString(text[off:])
	} else {
		b.WriteString(SnippetEllipsis)
	}
	return b.String()
}
