package store

import (
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
)

// FTS5's snippet() made in Go, for the common case: a row whose every
// column is ASCII and an expression whose every phrase is one plain
// token (matchParser). unicode61 then splits the text into the runs of
// ASCII letters and digits and lower-cases them, nothing more, and the
// snippet is FTS5's own algorithm (fts5_aux.c, fts5SnippetFunction):
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

// asciiToken is a token of ASCII text: bytes [start, end), lower-cased.
type asciiToken struct {
	start, end int
	text       string
}

// asciiTokens splits ASCII text as unicode61 does: runs of letters and
// digits, lower-cased.
func asciiTokens(s string) []asciiToken {
	var out []asciiToken
	for i := 0; i < len(s); {
		if !isASCIIAlnum(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isASCIIAlnum(s[j]) {
			j++
		}
		out = append(out, asciiToken{i, j, strings.ToLower(s[i:j])})
		i = j
	}
	return out
}

func isASCIIAlnum(c byte) bool { return isASCIILetter(c) || c >= '0' && c <= '9' }

// matches reports whether token tok is an instance of phrase p.
func (p matchPhrase) matches(tok string) bool {
	return tok == p.token || p.prefix && strings.HasPrefix(tok, p.token)
}

// snippet returns FTS5's snippet of column 1 (the body) of the row cols
// and whether the row matches the expression at all; ok is false when a
// column is not ASCII.
func (e *snipExpr) snippet(cols [len(ftsColumns)]string) (snip string, matched, ok bool) {
	flags := make([]uint8, len(e.phrases))
	var body []asciiToken
	for c, text := range cols {
		if !textfold.IsASCII(text) {
			return "", false, false
		}
		toks := asciiTokens(text)
		if c == 1 {
			body = toks
		}
		for i, p := range e.phrases {
			if p.cols&(1<<c) == 0 || flags[i] != 0 {
				continue
			}
			for _, t := range toks {
				if p.matches(t.text) {
					flags[i] = hasPhrase
					break
				}
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
// only (anchorOnlySnippets); ok is false when it cannot be made in Go.
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
func bestWindow(text string, toks []asciiToken, insts []snipInst, phrases int) int {
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
		jj := 0
		for ; jj < len(firsts)-1; jj++ {
			if firsts[jj+1] > in.off {
				break
			}
		}
		if firsts[jj] < in.off {
			score, _ := windowScore(insts, phrases, len(toks), firsts[jj])
			if firsts[jj] == 0 {
				score += 120
			} else {
				score += 100
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
func highlightWindow(text string, toks []asciiToken, insts []snipInst, start int) string {
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
	for pos, t := range toks {
		if pos < start || pos > end {
			continue
		}
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
