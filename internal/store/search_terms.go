package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// KeywordTerms splits a query into the terms Keyword searches for: each
// "quoted phrase" (an unclosed quote runs to the end) and each other
// whitespace-separated word, in order, without duplicates, keeping only
// terms with a letter or a digit, at most MaxKeywordTerms. A term is
// matched as the tokenizer splits it ("foo-bar" is the phrase "foo bar");
// its CJK text is also matched as bigrams, anywhere in a run of CJK text
// (see cjkExpr), and a term without CJK text also as folded (see
// foldExpr).
func KeywordTerms(text string) []Term {
	text = strings.ToValidUTF8(text, " ")
	var terms []Term
	add := func(s string, phrase bool) {
		if len(terms) >= MaxKeywordTerms || !hasWordChar(s) {
			return
		}
		t := Term{Text: vault.NFC(strings.Join(strings.FieldsFunc(s, isSpace), " ")), Phrase: phrase}
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	for text != "" {
		before, after, quoted := strings.Cut(text, `"`)
		for _, w := range strings.FieldsFunc(before, isSpace) {
			add(w, false)
		}
		if !quoted {
			break
		}
		phrase, rest, _ := strings.Cut(after, `"`)
		add(phrase, true)
		text = rest
	}
	return terms
}

// Term is one word or phrase of a query.
type Term struct {
	Text string
	// Phrase is set for a quoted phrase: its words must follow each other
	// and none matches as a prefix. A word also matches as a prefix
	// ("meet" finds "meeting"), when it has two characters or more. CJK
	// text matches anywhere in a run of CJK text, quoted or not, and a
	// single CJK character as the start of a bigram.
	//
	// Words match as textfold.Fold makes them. A phrase finds text that has
	// letters unicode61 does not fold (Greek accents, ß, ø, ł, ё…) when it
	// is written as the text is (but for case and Latin accents), or when
	// each of its words has such a letter in the text ("ελληνικη κουζινα"
	// finds Ελληνική κουζίνα), not when only some have ("strasse am"
	// does not find "Straße am": the words of a phrase folded are matched
	// as the marked tokens only).
	Phrase bool
	// exact drops a word's prefix form (a common word).
	exact bool
	// unmarked drops the marked form of the folded words: the index has
	// none (see markUnmarked).
	unmarked bool
	// noStem and noStemWord drop the stem forms the index does not have
	// (see stemAsk).
	noStem, noStemWord bool
}

// expr is the FTS5 expression of the term: a quoted string, so that no
// character of it is syntax, and for a word also its prefix form, so
// that an exact match counts twice in bm25. A term with CJK text matches
// that in the title and body columns, or its bigrams in the hidden
// columns (cjkExpr); one without also matches its folded words
// (foldExpr).
func (t Term) expr() string {
	q := t.quoted()
	prefix := !t.Phrase && !t.exact && utf8.RuneCountInString(t.Text) >= 2
	if prefix {
		q = "(" + q + " OR " + q + "*)"
	}
	if c := t.cjkExpr(); c != "" {
		return "({title body} : " + q + " OR " + c + ")"
	}
	return t.stemExpr(t.foldExpr(q, prefix))
}

// stemExpr adds to e, the expression of a word, the word's English stem
// (Stem): in the stems column (the stems of the text's words that differ
// from the word) and, when it differs from the word, as a word anywhere.
// The stems column weighs less than the others (FieldWeights), so a note
// with the word as typed or as a prefix ranks above one that has only a
// word of the same stem. A phrase, a word of several tokens ("e-ink") or
// a word not all ASCII letters is not stemmed.
func (t Term) stemExpr(e string) string {
	if t.Phrase {
		return e
	}
	s := Stem(t.Text)
	if s == "" || t.noStem && (t.noStemWord || s == strings.ToLower(t.Text)) {
		return e
	}
	e = "(" + e
	if !t.noStem {
		e += ` OR {stems} : "` + stemMarker + s + `"`
	}
	if s != strings.ToLower(t.Text) && !t.noStemWord {
		e += ` OR "` + s + `"`
	}
	return e + ")"
}

// hasCJKTerm reports whether a term has CJK text.
func hasCJKTerm(terms []Term) bool {
	return slices.ContainsFunc(terms, func(t Term) bool { return textfold.HasCJK(t.Text) })
}

// quoted is the term as an FTS5 string: its words, as written.
func (t Term) quoted() string { return `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"` }

func isSpace(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// hasWordChar reports whether s has a character the tokenizer keeps
// (letters and digits); terms without one would match nothing.
func hasWordChar(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) >= 0
}

// matchExpr joins the terms' expressions with op (AND or OR).
func matchExpr(terms []Term, op string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		parts[i] = t.expr()
	}
	return strings.Join(parts, " "+op+" ")
}

// scopeFilter is the SQL condition (and its arguments) that keeps a
// keyword search to q.IDs and away from q.Exclude.
func scopeFilter(q KeywordQuery) (string, []any) {
	filter := ""
	var args []any
	for _, f := range []struct {
		ids []string
		op  string
	}{{q.IDs, "IN"}, {q.Exclude, "NOT IN"}} {
		if f.ids == nil {
			continue
		}
		list, _ := json.Marshal(f.ids) // strings always marshal
		// The unary + keeps SQLite from handing the rowids to FTS5 as
		// lookups: one match evaluation per allowed note, minutes for a
		// large vault, where a filter after one evaluation takes ms.
		filter += " AND +rowid " + f.op + " (SELECT rowid FROM notes WHERE id IN (SELECT value FROM json_each(?)))"
		args = append(args, string(list))
	}
	return filter, args
}

// dropCommon leaves out the common words of terms, or when all of them
// are common, drops their prefix forms (see Keyword).
func (s *Store) dropCommon(ctx context.Context, rt *readTx, terms []Term) ([]Term, error) {
	var words []int // indexes of the words
	var exprs []string
	for i, t := range terms {
		if !t.Phrase {
			t.exact = true
			words, exprs = append(words, i), append(exprs, t.expr())
		}
	}
	if len(words) == 0 {
		return terms, nil
	}
	counts, half, err := s.commonCounts(ctx, rt, exprs)
	if err != nil {
		return nil, err
	}
	if half < 0 {
		return terms, nil
	}
	common := map[int]bool{}
	for j, i := range words {
		if counts[j] >= half {
			common[i] = true
		}
	}
	if len(common) == len(terms) {
		for i := range terms {
			terms[i].exact = true
		}
		return terms, nil
	}
	var kept []Term
	for i, t := range terms {
		if !common[i] {
			kept = append(kept, t)
		}
	}
	return kept, nil
}

// commonCounts returns how many notes match each of exprs, counting to
// half the notes at most, and that half; -1 when the vault has fewer
// than CommonWordMinNotes notes. The counts are kept (countCache):
// common words are in most queries. They are read in rt, or when it is
// nil, in a read transaction of their own. The notes are counted by
// fts's averages record, which holds its rows: one per note, written
// and deleted with the note's row in the same transaction.
func (s *Store) commonCounts(ctx context.Context, rt *readTx, exprs []string) ([]int64, int64, error) {
	rt, done, err := s.useRead(ctx, rt)
	if err != nil {
		return nil, 0, err
	}
	defer done()
	// One read: the change count is of the state counted and keyed
	// (-1 without one).
	var avg, structure []byte
	before := int64(-1)
	state := `SELECT (SELECT block FROM fts_data WHERE id = 1), (SELECT block FROM fts_data WHERE id = 10)`
	err = rt.QueryRowContext(ctx, state+`, coalesce((SELECT n FROM snapgen), -1)`).Scan(&avg, &structure, &before)
	if err != nil {
		before = -1 // an index without the change count
		err = rt.QueryRowContext(ctx, state).Scan(&avg, &structure)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("keyword search: %w", err)
	}
	notes, _ := getVarint(avg) // no record: no rows
	if notes < CommonWordMinNotes {
		return nil, -1, nil
	}
	// A word is common from half the notes: each count stops there, so
	// that "the" costs half its posting list.
	half := (int64(notes) + 1) / 2
	now := commonState{key: fmt.Sprintf("%d\x00%s\x00%s", notes, avg, structure), gen: before, half: half}
	counts := make([]int64, len(exprs))
	var todo []string
	var which []int
	for i, e := range exprs {
		if n, ok := s.common.get(now, e); ok {
			counts[i] = n
			continue
		}
		todo, which = append(todo, e), append(which, i)
	}
	if len(which) == 0 {
		return counts, half, nil
	}
	got, exact, err := s.countExprs(ctx, rt, todo, half)
	if err != nil {
		return nil, 0, err
	}
	// The counts are of a state at least as new as before.
	for j, i := range which {
		counts[i] = min(got[j], half)
		s.common.put(now, exprs[i], got[j], exact || got[j] < half)
	}
	return counts, half, nil
}

// countExprs counts the notes each of exprs matches: in Go (countTopK),
// exactly, or else by SQL, up to half (exact false).
func (s *Store) countExprs(ctx context.Context, rt *readTx, exprs []string, half int64) (counts []int64, exact bool, err error) {
	if !s.sqlRank {
		if counts, ok, err := s.countTopK(ctx, rt, exprs); err != nil || ok {
			return counts, true, err
		}
	}
	query := "SELECT 0"
	var args []any
	for _, e := range exprs {
		query += ", (SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT ?))"
		args = append(args, e, half)
	}
	got := make([]int64, len(exprs)+1)
	dest := make([]any, len(got))
	for i := range got {
		dest[i] = &got[i]
	}
	if err := rt.tx.QueryRowContext(ctx, query, args...).Scan(dest...); err != nil {
		return nil, false, fmt.Errorf("keyword search: %w", err)
	}
	return got[1:], false, nil
}

// commonCacheSize bounds the expressions countCache and commonCache
// keep.
const commonCacheSize = 4096

// commonCache keeps selectFlags' answers for one state of the
// full-text index, named by key: FTS5's averages and structure
// records, which every write to the index changes.
type commonCache struct {
	mu     sync.Mutex
	key    string
	counts map[string]bool
}

func (c *commonCache) get(key, expr string) (v, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok = c.counts[expr]
	return v, ok && c.key == key
}

func (c *commonCache) put(key, expr string, v bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key != key || c.counts == nil || len(c.counts) >= commonCacheSize {
		c.key, c.counts = key, map[string]bool{}
	}
	c.counts[expr] = v
}

// commonState is a state of the index as commonCounts reads it: key
// names it exactly (the notes' count and FTS5's averages and structure
// records, which every write to the index changes), gen is its change
// count (snapgen.n), half commonCounts' half.
type commonState struct {
	key       string
	gen, half int64
}

// commonCount is a count commonCache keeps: n notes matched at state at,
// exactly or (not exact) at least.
type commonCount struct {
	n     int64
	exact bool
	at    commonState
}

// countCache keeps the counts of commonCounts. A count answers for
// the state it was made at, and for a later one (by change count) when
// the changes since cannot have moved it across that state's half:
// each change adds or removes at most one matching note, so a word in
// 800 of 10,000 notes stays uncommon for thousands of writes, and only
// a word near half the notes is counted again.
type countCache struct {
	mu     sync.Mutex
	counts map[string]commonCount
	puts   int // counts made, for tests
}

// get returns the count of expr at state now, capped at now.half; ok
// is false when it must be counted again.
func (c *countCache) get(now commonState, expr string) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.counts[expr]
	switch {
	case !ok:
		return 0, false
	case k.at.key == now.key:
		return min(k.n, now.half), true
	case k.at.gen < 0 || now.gen < k.at.gen:
		return 0, false
	}
	moved := now.gen - k.at.gen // at most this many notes changed
	switch {
	case k.n-moved >= now.half:
		return now.half, true // common still
	case k.exact && k.n+moved < now.half:
		return k.n, true // uncommon still; the count is below now's half
	}
	return 0, false
}

// put keeps n, the count of expr at state at (exact or at least).
func (c *countCache) put(at commonState, expr string, n int64, exact bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil || len(c.counts) >= commonCacheSize {
		c.counts = map[string]commonCount{}
	}
	c.counts[expr] = commonCount{n: n, exact: exact, at: at}
	c.puts++
}
