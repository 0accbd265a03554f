package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// Defaults of Keyword.
const (
	// DefaultKeywordLimit is how many hits Keyword returns when the
	// query gives no limit.
	DefaultKeywordLimit = 10
	// TitleBoost multiplies the relevance of a note whose title has the
	// query's terms by 1+TitleBoost. bm25 alone weighs a title match down
	// in a long note, as it counts the title in the note's length: "home"
	// would find short notes mentioning Home before Home.md.
	TitleBoost = 1.0
	// MaxKeywordTerms is how many words and phrases of a query are
	// searched for; the rest are ignored.
	MaxKeywordTerms = 32
	// CommonWordMinNotes is the vault size from which a query's words
	// found in at least half the notes count as common (see Keyword).
	CommonWordMinNotes = 100
	// SnippetTokens is the length of a snippet, in words.
	SnippetTokens = 30
	// HighlightOpen and HighlightClose mark the matching words in a
	// snippet.
	HighlightOpen, HighlightClose = "**", "**"
	// SnippetEllipsis marks where a snippet cuts the text.
	SnippetEllipsis = textfold.Ellipsis
)

// KeywordQuery is a full-text search.
type KeywordQuery struct {
	// Text is what the user typed: words and "quoted phrases". Nothing in
	// it is FTS5 syntax: operators, brackets, stars and unbalanced quotes
	// are plain text. See KeywordTerms.
	Text string
	// Any matches notes having any of the terms. Otherwise notes must have
	// every term, and only when none has, notes with some of them are
	// returned (each hit's Matched says how many).
	Any bool
	// Limit caps the hits; 0 means DefaultKeywordLimit.
	Limit int
	// IDs, when not nil, restricts the search to these notes, before
	// ranking (tag and folder filters). An empty, non-nil list finds
	// nothing.
	IDs []string
	// Exclude leaves these notes out, before ranking: a filter that keeps
	// most notes is cheaper as the few it drops.
	Exclude []string
	// TitleWeight is the bm25 weight of the title columns (the title and
	// its CJK bigrams); 0 means the Title of Weights.
	TitleWeight float64
	// Weights are the fields' bm25 weights; nil means DefaultFieldWeights.
	Weights *FieldWeights
	// NoSnippets leaves the hits' snippets empty: for a caller that keeps
	// only some hits and asks KeywordSnippets for theirs.
	NoSnippets bool
}

// KeywordHit is one note Keyword found.
type KeywordHit struct {
	ID string
	// BM25 is FTS5's bm25() of the note for the terms it matches, title
	// weighted: negative, and the lower the better.
	BM25 float64
	// Title is set when the note's title has every term (with the any-term
	// fallback: any term).
	Title bool
	// Snippet is about SnippetTokens words of the note's body around its
	// best match, on one line, the matching words between HighlightOpen
	// and HighlightClose, SnippetEllipsis where the text goes on. A first
	// heading that repeats the title is left out.
	Snippet string
	// Prior is the note's graph prior (set by the caller, see
	// SortByRelevance): Relevance is multiplied by 1+Prior.
	Prior float64
	// Matched is how many of the Terms searched for (the query's, common
	// words left out) the note has: all of them, except for the hits of an
	// any-term search or of the fallback when no note has every term.
	Matched, Terms int

	terms []Term // the terms searched for, after dropCommon (for KeywordSnippets)
	doc   int64  // the note's rowid when it was found, 0 if unknown (for KeywordSnippets)
}

// Relevance is how well the note matches the terms it has: -BM25, times
// 1+TitleBoost when the title has them. Keyword ranks hits by Relevance
// times Matched/Terms.
func (h KeywordHit) Relevance() float64 {
	r := -h.BM25
	if h.Title {
		r *= 1 + TitleBoost
	}
	return r * (1 + h.Prior)
}

// SortByRelevance orders hits best first by Relevance times the share
// of the terms matched, equal hits by ID: as Keyword returns them, after
// the caller set their Prior.
func SortByRelevance(hits []KeywordHit) {
	slices.SortStableFunc(hits, func(a, b KeywordHit) int {
		if c := cmp.Compare(float64(b.Matched)*b.Relevance(), float64(a.Matched)*a.Relevance()); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Keyword searches the notes' titles and bodies with FTS5 and returns the
// best hits first, by Relevance (bm25, title weighted, title matches
// boosted) times the share of the terms a note has (less than all only for
// an any-term search or the fallback). Words match as textfold.Fold makes them:
// in any letter case, without diacritics in Latin, Greek and Cyrillic
// script ("cafe" finds "Café", "αθηνα" Αθήνα, "елка" ёлка), with ß, ø, ł
// and the like spelled in plain letters ("strasse" finds Straße, "lodz"
// Łódź), and the other way round ("Straße" finds Strasse). A query
// without terms finds nothing.
//
// In a vault of CommonWordMinNotes notes or more, words found in at least
// half the notes ("the", "and") are common: bm25 gives them no weight (it
// clamps their IDF to about 0), yet they cost a pass over most of the
// index. A query's common words are left out when it has other terms, and
// matched exactly (without prefixes) when it has not.
func (s *Store) Keyword(ctx context.Context, q KeywordQuery) ([]KeywordHit, error) {
	terms := KeywordTerms(q.Text)
	if len(terms) == 0 || (q.IDs != nil && len(q.IDs) == 0) {
		return nil, nil
	}
	// One read transaction for the search's reads (search_read.go).
	rt, done, err := s.readConn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	// unmarkedAsk and stemAsk in one question.
	if err := s.askFlags(ctx, rt, unmarkedAsk(terms), stemAsk(terms)); err != nil {
		return nil, err
	}
	terms, err = s.dropCommon(ctx, rt, terms)
	if err != nil {
		return nil, err
	}
	if q.Limit <= 0 {
		q.Limit = DefaultKeywordLimit
	}
	w := DefaultFieldWeights
	if q.Weights != nil {
		w = *q.Weights
	}
	if q.TitleWeight > 0 {
		w.Title = q.TitleWeight
	}
	q.Weights = &w
	var hits []hit
	var expr string
	var memo rankMemo
	if !q.Any || len(terms) == 1 {
		if hits, expr, err = s.rankTerms(ctx, rt, terms, "AND", q, &memo); err != nil {
			return nil, err
		}
	}
	if len(hits) == 0 && len(terms) > 1 {
		if hits, expr, err = s.rankTerms(ctx, rt, terms, "OR", q, &memo); err != nil {
			return nil, err
		}
	}
	return s.details(ctx, rt, expr, terms, hits, !q.NoSnippets)
}

// hit is a ranked note before its details are read.
type hit struct {
	rowid int64
	KeywordHit
}

// rank runs the match expression and returns the best q.Limit hits by
// rowid, without IDs and snippets (the notes table is joined for those
// only). With count set (an any-term match), each hit's Matched is the
// number of those terms it has, counted in Go (countMatched).
func (s *Store) rank(ctx context.Context, rt *readTx, expr string, count []Term, nTerms int, q KeywordQuery) ([]hit, error) {
	filter, filterArgs := scopeFilter(q)
	// Whether the anchor text of a note that passes filter matches expr.
	var anchored bool
	err := rt.tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM fts_anchor WHERE fts_anchor MATCH ? "+filter+")",
		append([]any{expr}, filterArgs...)...).Scan(&anchored)
	if err != nil {
		return nil, wrapKeyword(err)
	}
	matched := fmt.Sprint(nTerms)
	titleExpr := "{title cjktitle} : (" + expr + ")"
	args := q.Weights.bm25Args()
	// A note matches in its own fields (fts) or in the anchor text of the
	// links to it (fts_anchor); a note found in both scores the sum. When
	// no anchor text matches, fts alone is ranked (no union to group).
	query := `SELECT rowid, ` + bm25Call("fts") + ` AS score,
			rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?) AS in_title, ` + matched + ` AS matched
		FROM fts WHERE fts MATCH ? ` + filter
	args = append(append(args, titleExpr), expr)
	if anchored {
		// The parts are named s, not score: ORDER BY's score must be
		// their sum, and a column of m would hide the alias.
		query = `WITH m(rowid, s) AS (
			SELECT rowid, ` + bm25Call("fts") + ` FROM fts WHERE fts MATCH ?
			UNION ALL
			SELECT rowid, ` + bm25Call("fts_anchor") + ` FROM fts_anchor WHERE fts_anchor MATCH ?
		)
		SELECT rowid, sum(s) AS score,
			rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?) AS in_title, ` + matched + ` AS matched
		FROM m
		WHERE 1 ` + filter + `
		GROUP BY rowid`
		args = slices.Concat(q.Weights.bm25Args(), []any{expr}, q.Weights.anchorBM25Args(), []any{expr, titleExpr})
	}
	args = append(args, filterArgs...)
	if count == nil {
		query += `
		ORDER BY ` + rankKey + `, rowid
		LIMIT ?`
		args = append(args, q.Limit)
	}
	rows, err := rt.tx.QueryContext(ctx, query, args...)
	hits, err := scanRows(rows, err, func(rows *sql.Rows, h *hit) error {
		h.Terms = nTerms
		return rows.Scan(&h.rowid, &h.BM25, &h.Title, &h.Matched)
	})
	if err != nil {
		return nil, wrapKeyword(err)
	}
	if count != nil {
		if err := s.countMatched(ctx, rt, hits, count, anchored); err != nil {
			return nil, err
		}
		hits = bestRanked(hits, q.Limit)
	}
	return hits, nil
}

// details reads the ranked hits' note IDs (in rt) and snippets
// (highlighting what expr, the terms' expression, matches) and returns
// them in order, equal hits by ID. A hit whose note row is gone (a write
// in between), or whose file is when snippets are read from the files,
// is dropped.
func (s *Store) details(ctx context.Context, rt *readTx, expr string, terms []Term, hits []hit, snippets bool) ([]KeywordHit, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	if !snippets {
		return plainDetails(ctx, rt, terms, hits)
	}
	rowids := make([]int64, len(hits))
	for i, h := range hits {
		rowids[i] = h.rowid
	}
	conn, err := s.snipConn(ctx, rowids, nil)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	byRow, err := hitSnippets(ctx, conn, rowids, terms, expr)
	if err != nil {
		return nil, err
	}
	out := make([]KeywordHit, 0, len(hits))
	for _, h := range hits {
		d, ok := byRow[h.rowid]
		if !ok {
			continue
		}
		h.ID, h.Snippet, h.terms, h.doc = d.id, d.snippet, terms, h.rowid
		out = append(out, h.KeywordHit)
	}
	// Ties were ranked by rowid: order them by ID, as every list is. The
	// key is the one SQL sorted by (exactly: the factors are small
	// integers and powers of two).
	SortByRelevance(out)
	return out, nil
}

// anchorSnippet is the snippet of a note found by the anchor text of
// the links to them alone: made in Go from body (textSnippet).
func anchorSnippet(body, title string, terms []Term) string {
	snip, _, _ := textSnippet(body, terms)
	return cleanSnippet(Highlight(snip, vault.NFC(body)), title)
}
