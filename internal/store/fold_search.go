package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
)

// foldExpr is the FTS5 expression of a term without CJK text, given q,
// the expression of its text as written: q, or the term's words folded,
// as marked tokens in the hidden columns (unless the index has none for
// them: unmarked) or, when textfold.Fold changes them beyond unicode61, in the
// title and body (so "Straße" finds "Strasse" too). A term of several
// words, or a phrase, matches the phrase of their marked tokens: the
// words as written otherwise. The marked form of a word is its prefix
// form only, so an exact match counts once in bm25, not twice as in q: a
// note spelled as the query ranks above one found as folded.
//
// q and the folded words are matched in every column, as a column filter
// is costly; the hidden columns have only marked
// tokens, CJK bigrams and the other parts of words with CJK text. A
// term that could match a marked token as written (its word is a prefix
// of the marker, or starts with it: "vg") is filtered to the title and
// body.
func (t Term) foldExpr(q string, prefix bool) string {
	folded, differs, ok := t.foldedWords()
	if differs {
		f := `"` + strings.Join(folded, " ") + `"`
		if prefix {
			f = "(" + f + " OR " + f + "*)"
		}
		q += " OR " + f
	}
	if t.nearMarker() {
		q = "{title body} : (" + q + ")"
	}
	if !ok || t.unmarked {
		return q
	}
	// The prefix form only: the exact form too would slow the snippets.
	m := `"` + foldMarker + strings.Join(folded, " "+foldMarker) + `"`
	if prefix {
		m += "*"
	}
	return "(" + q + " OR {cjktitle cjk} : " + m + ")"
}

// foldedWords returns the words of the term folded, whether textfold.Fold changes
// one of them beyond unicode61, and whether they have marked forms (each
// is markable).
func (t Term) foldedWords() (folded []string, differs, ok bool) {
	ok = true
	for _, w := range textfold.Words(t.Text) {
		f, d := textfold.FoldWord(w)
		differs = differs || d
		ok = ok && markable(f)
		folded = append(folded, f)
	}
	return folded, differs, ok && len(folded) > 0
}

// nearMarker reports whether a token of the term, folded, is a prefix of
// foldMarker or starts with it.
func (t Term) nearMarker() bool {
	for _, tok := range strings.FieldsFunc(t.Text, func(r rune) bool { return !textfold.IsU61Rune(r) }) {
		if f := textfold.Fold(tok); strings.HasPrefix(f, foldMarker) || strings.HasPrefix(foldMarker, f) {
			return true
		}
	}
	return false
}

// markUnmarked sets unmarked on the terms whose folded words have no
// marked token in the index (each word looked up as a prefix in the
// fts_vocab table): their expressions leave the marked form out. In a
// vault without such words, that is every term, and queries cost what
// they did without folding; otherwise each of a query's passes over the
// index would look the marked forms up again.
func (s *Store) markUnmarked(ctx context.Context, terms []Term) error {
	return s.askFlags(ctx, nil, unmarkedAsk(terms))
}

// unmarkedAsk is markUnmarked's question.
func unmarkedAsk(terms []Term) flagAsk {
	var which []int
	var cols []string
	var args []any
	var checks []flagCheck
	for i, t := range terms {
		if textfold.HasCJK(t.Text) {
			continue
		}
		folded, _, ok := t.foldedWords()
		if !ok {
			continue
		}
		words := uniqueWords(folded)
		if words == nil {
			continue // too many words to look up: keep the marked form
		}
		var all []string
		var check flagCheck
		sqlOnly := false
		for _, f := range words {
			all = append(all, "EXISTS (SELECT 1 FROM fts_vocab WHERE term >= ? AND term <= ?)")
			// Tokens are compared as bytes: every token that starts
			// with the marked word sorts between these two.
			args = append(args, foldMarker+f, foldMarker+f+"\U0010FFFF")
			c, ok := plainCheck("fts", `"`+foldMarker+f+`"*`)
			sqlOnly = sqlOnly || !ok
			check = append(check, []tokenCheck{c})
		}
		if sqlOnly {
			check = flagCheck{nil} // asked of SQL
		}
		which = append(which, i)
		cols = append(cols, "("+strings.Join(all, " AND ")+")")
		checks = append(checks, check)
	}
	return flagAsk{cols: cols, args: args, checks: checks, set: func(found []bool) {
		for j, i := range which {
			terms[i].unmarked = !found[j]
		}
	}}
}

// maxVocabChecks bounds the words of one term looked up in fts_vocab: a
// term of thousands of words ("a/a/a/…") would otherwise make an SQL
// expression deeper than SQLite allows. A term with more distinct words
// keeps its marked form (unmarked false), which is always correct, only
// slower.
const maxVocabChecks = 8

// uniqueWords returns the distinct words of ws in order, or nil when there
// are more than maxVocabChecks of them.
func uniqueWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !slices.Contains(out, w) {
			if len(out) == maxVocabChecks {
				return nil
			}
			out = append(out, w)
		}
	}
	return out
}

// selectFlags evaluates boolean SQL expressions (cols, with their args)
// over the full-text tables in one query, in rt. checks are the same as token checks (search_flags.go), which answer
// when the tables' segments can be read. SQL's answers are kept while
// both tables are unchanged (s.flags): the same words come back in query
// after query.
func (s *Store) selectFlags(ctx context.Context, rt *readTx, cols []string, args []any, checks []flagCheck) ([]bool, error) {
	if found, ok, err := s.liveFlags(ctx, rt, checks); err != nil || ok {
		return found, err
	}
	var state string // both tables' averages and structure records
	err := rt.tx.QueryRowContext(ctx, `SELECT hex((SELECT block FROM fts_data WHERE id = 1)) || ',' || hex((SELECT block FROM fts_data WHERE id = 10))
		|| ',' || hex((SELECT block FROM fts_anchor_data WHERE id = 1)) || ',' || hex((SELECT block FROM fts_anchor_data WHERE id = 10))`).Scan(&state)
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	found := make([]bool, len(cols))
	keys := make([]string, len(cols))
	var dest, todoArgs []any
	var todo []string
	for i, c := range cols {
		n := strings.Count(c, "?")
		keys[i] = fmt.Sprintf("%s%q", c, args[:n])
		if v, ok := s.flags.get(state, keys[i]); ok {
			found[i] = v
		} else {
			todo, todoArgs, dest = append(todo, c), append(todoArgs, args[:n]...), append(dest, &found[i])
		}
		args = args[n:]
	}
	if len(todo) == 0 {
		return found, nil
	}
	if err := rt.tx.QueryRowContext(ctx, "SELECT "+strings.Join(todo, ", "), todoArgs...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	for i, f := range found {
		s.flags.put(state, keys[i], f)
	}
	return found, nil
}
