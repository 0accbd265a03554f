package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// bodyColumns are what the snippet queries select for snippet: the body
// (Highlight looks for links in it), and whether to make the snippet in
// Go: when a term has CJK text or the note has words unicode61 does not
// fold (a hidden column has them).
func bodyColumns(terms []Term) string {
	if hasCJKTerm(terms) {
		return "snip.body, 1"
	}
	return "snip.body, snip.cjk <> ''"
}

// snippet is the snippet of a hit, cleaned: FTS5's snip of body, or when
// inGo is set, one made in Go (textSnippet) if body has a word that
// matches only as folded, or for a query with CJK text if body has it.
// When it lacks it, FTS5's snip is kept if it highlights a word, else the
// body's start is cut as CJK text is (FTS5 counts a whole CJK run as one
// word: 30 of them are pages). Its marks become bold outside links
// (Highlight).
func snippet(snip, body, title string, inGo bool, terms []Term) string {
	source := body
	if inGo {
		c, cjk, folded := textSnippet(body, terms)
		if folded || hasCJKTerm(terms) && (cjk || !strings.Contains(snip, MarkOpen)) {
			snip, source = c, vault.NFC(body)
		}
	}
	return cleanSnippet(Highlight(snip, source), title)
}

// cleanSnippet puts a snippet on one line and drops a first heading that
// only repeats the note's title (the caller shows the title anyway).
func cleanSnippet(snip, title string) string {
	text := strings.TrimLeft(snip, " \t\r\n")
	line, rest, _ := strings.Cut(text, "\n")
	// The heading's words may be bold (HighlightClose is HighlightOpen).
	if textfold.IsTitleHeading(strings.ReplaceAll(line, HighlightOpen, ""), title) {
		text = rest
	}
	return strings.Join(strings.FieldsFunc(text, isSpace), " ")
}

// textSnippet cuts a snippet of body, made in Go where FTS5's snippet
// cannot serve: it highlights a CJK run whole or not at all, and nothing
// when only a hidden column matched (CJK bigrams, folded words). It
// highlights the terms' CJK text anywhere, and their other words where a
// word of the body folds (textfold.Fold) to one of them, or starts so for
// a word's prefix form. The snippet is around the first CJK text of the terms,
// else the first such word, else the start of the body. cjk reports
// whether the body has the terms' CJK text, folded whether it has a word
// that matches only as folded (not as unicode61 folds it).
func textSnippet(body string, terms []Term) (snip string, cjk, folded bool) {
	needles, others := snippetTerms(terms)
	body = vault.NFC(body)
	at := -1
	for _, n := range needles {
		if i := strings.Index(body, n); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	cjk = at >= 0
	if len(others) > 0 {
		for i, w := range textfold.Runs(body, isOtherWordRune) {
			f, differs := textfold.FoldWord(w)
			if !slices.ContainsFunc(others, func(h matchPhrase) bool { return h.matches(f) }) {
				continue
			}
			if at < 0 {
				at = i
			}
			if differs {
				folded = true
				break
			}
		}
	}
	start, end := snippetWindow(body, max(at, 0))
	var b strings.Builder
	if start > 0 {
		b.WriteString(SnippetEllipsis)
	}
	highlight(&b, body[start:end], needles, others)
	if end < len(strings.TrimRightFunc(body, unicode.IsSpace)) {
		b.WriteString(SnippetEllipsis)
	}
	return b.String(), cjk, folded
}

// snippetTerms splits the words of terms into the CJK runs textSnippet
// looks for (needles, longest first) and its other words, folded (their
// cols unused).
func snippetTerms(terms []Term) (needles []string, others []matchPhrase) {
	for _, t := range terms {
		for _, w := range textfold.Words(t.Text) {
			for part, inCJK := range textfold.SplitCJK(w) {
				if inCJK {
					needles = append(needles, part)
				} else {
					prefix := !t.Phrase && !t.exact && utf8.RuneCountInString(part) > 1
					f, _ := textfold.FoldWord(part)
					others = append(others, matchPhrase{token: f, prefix: prefix})
				}
			}
		}
	}
	slices.SortFunc(needles, func(a, b string) int { return len(b) - len(a) })
	return needles, others
}

// highlight writes text to b with the needles and the words matching
// others marked, adjacent highlights merged into one.
func highlight(b *strings.Builder, text string, needles []string, others []matchPhrase) {
	closed := -1 // where the last highlight closed in b
	mark := func(s string) {
		if b.Len() == closed { // adjacent highlights: one
			trimmed := strings.TrimSuffix(b.String(), MarkClose)
			b.Reset()
			b.WriteString(trimmed)
		} else {
			b.WriteString(MarkOpen)
		}
		b.WriteString(s)
		b.WriteString(MarkClose)
		closed = b.Len()
	}
	for i := 0; i < len(text); {
		if j := slices.IndexFunc(needles, func(n string) bool { return strings.HasPrefix(text[i:], n) }); j >= 0 {
			mark(needles[j])
			i += len(needles[j])
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if isOtherWordRune(r) {
			n := strings.IndexFunc(text[i:], func(r rune) bool { return !isOtherWordRune(r) })
			if n < 0 {
				n = len(text) - i
			}
			if w, _ := textfold.FoldWord(text[i : i+n]); slices.ContainsFunc(others, func(h matchPhrase) bool { return h.matches(w) }) {
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
}

// isOtherWordRune reports whether r is part of a word without CJK text.
func isOtherWordRune(r rune) bool { return textfold.IsWordRune(r) && !textfold.IsCJK(r) }

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
		case textfold.IsCJK(r):
			units = append(units, unit{i, i + size, 1})
		default: // a word, or punctuation (free)
			size = strings.IndexFunc(text[i:], func(r rune) bool { return unicode.IsSpace(r) || textfold.IsCJK(r) })
			if size < 0 {
				size = len(text) - i
			}
			u := unit{i, i + size, 0}
			if strings.IndexFunc(text[u.start:u.end], textfold.IsWordRune) >= 0 {
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

// snipHit is a note's ID and snippet.
type snipHit struct{ id, snippet string }

// hitSnippets makes the snippets of the notes rowids (in temp.snip,
// fillSnip) for terms, by rowid: FTS5's where the note's text matches
// expr, the terms' expression, else (a note found by the anchor text of
// the links to it only) one made in Go from the body (anchorSnippet). A
// note that is gone is left out. One statement does the matches, in one
// pass over the rowids' range of temp.snip, setting up the terms'
// iterators once: CROSS JOIN keeps temp.snip the outer loop, and "+"
// keeps the rowid list out of FTS5's hands, which would ask again for
// each rowid.
func hitSnippets(ctx context.Context, q querier, rowids []int64, terms []Term, expr string) (map[int64]snipHit, error) {
	out := make(map[int64]snipHit, len(rowids))
	if len(rowids) == 0 {
		return out, nil
	}
	list, _ := json.Marshal(rowids) // numbers always marshal
	rows, err := q.QueryContext(ctx, `SELECT snip.rowid, notes.id, notes.title, snippet(snip, 1, ?, ?, ?, ?), `+bodyColumns(terms)+`
		FROM snip CROSS JOIN notes ON notes.rowid = snip.rowid
		WHERE snip MATCH ? AND snip.rowid BETWEEN ? AND ? AND +snip.rowid IN (SELECT value FROM json_each(?))`,
		MarkOpen, MarkClose, SnippetEllipsis, SnippetTokens, expr, slices.Min(rowids), slices.Max(rowids), string(list))
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var rowid int64
		var id, title, snip, body string
		var inGo bool
		if err := rows.Scan(&rowid, &id, &title, &snip, &body, &inGo); err != nil {
			return err
		}
		out[rowid] = snipHit{id, snippet(snip, body, title, inGo, terms)}
		return nil
	})
	var missing []int64
	for _, r := range rowids {
		if _, ok := out[r]; !ok {
			missing = append(missing, r)
		}
	}
	if err == nil && len(missing) > 0 {
		list, _ = json.Marshal(missing)
		rows, err = q.QueryContext(ctx, `SELECT snip.rowid, notes.id, notes.title, snip.body
			FROM snip JOIN notes ON notes.rowid = snip.rowid WHERE snip.rowid IN (SELECT value FROM json_each(?))`, string(list))
		err = eachRow(rows, err, func(rows *sql.Rows) error {
			var rowid int64
			var id, title, body string
			if err := rows.Scan(&rowid, &id, &title, &body); err != nil {
				return err
			}
			out[rowid] = snipHit{id, anchorSnippet(body, title, terms)}
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("keyword snippets: %w", err)
	}
	return out, nil
}
