package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/vaultgraph/vaultgraph/internal/first"
)

// rankTerms runs rank for terms joined by op (AND, or OR with each hit's
// Matched counted): in Go (rankTopK) when it can read every phrase, else
// by SQL. It returns the match expression too.
func (s *Store) rankTerms(ctx context.Context, rt *readTx, terms []Term, op string, q KeywordQuery, memo *rankMemo) ([]hit, string, error) {
	expr := matchExpr(terms, op)
	if !s.sqlRank {
		hits, ok, err := s.rankTopK(ctx, rt, terms, op == "OR", q, memo)
		if err != nil || ok {
			return hits, expr, err
		}
	}
	var count []Term
	if op == "OR" {
		count = terms
	}
	hits, err := s.rank(ctx, rt, expr, count, len(terms), q)
	return hits, expr, err
}

// rankTopK is rank computed in Go (search_topk.go) for terms joined by
// AND, or by OR with each hit's Matched counted; ok is false when a
// phrase is not one plain token, or the index's rowids are out of
// bounds, and the caller ranks by SQL. An AND search leaves in memo
// what narrows the OR search of the same terms after it (orBound).
func (s *Store) rankTopK(ctx context.Context, conn *readTx, terms []Term, or bool, q KeywordQuery, memo *rankMemo) (hits []hit, ok bool, err error) {
	var p matchParser
	nodes := make([]*matchNode, len(terms))
	for i, t := range terms {
		if nodes[i] = p.parse(t.expr()); !p.ok {
			return nil, false, nil
		}
	}
	var scope topkScope
	if scope.in, err = scopeDocs(ctx, conn, q.IDs); err == nil {
		scope.out, err = scopeDocs(ctx, conn, q.Exclude)
	}
	if err != nil {
		return nil, false, fmt.Errorf("keyword search: %w", err)
	}
	var tables [2]rankedTable
	defer func() {
		for _, t := range tables {
			t.hits.release()
		}
	}()
	var nw narrowing
	if !or {
		nw = andTerms(nodes)
	}
	names, weights := [2]string{"fts", "fts_anchor"}, [2][]any{q.Weights.bm25Args(), q.Weights.anchorBM25Args()}
	for _, i := range []int{1, 0} { // fts_anchor first: orBound keeps its rows
		if i == 0 && or {
			if nw, err = s.newOrBound(ctx, conn, nodes, p.phrases, memo, q.Limit, scope, tables[1].hits); err != nil {
				return nil, false, err
			}
		}
		if ok, err = tables[i].read(ctx, s, conn, names[i], p.phrases, weights[i], nw); err != nil || !ok {
			return nil, ok, err
		}
	}
	if tables[0].hits.narrowed {
		kind := 0
		if or {
			kind = 1
		}
		s.narrowed[kind].Add(1)
	}
	if !or && memo != nil {
		*memo = rankMemo{st: tables[0].st, docHit: slices.Clone(tables[0].hits.docHit)}
	}
	root := &matchNode{and: !or, kids: nodes}
	anchored := false // a note in scope matches in fts_anchor
	for i, t := range tables {
		docs, origins := t.hits.matching(root, scope)
		anchored = anchored || i == 1 && len(docs) > 0
		if tables[i].size, ok, err = s.docSizes(ctx, conn, t.name, t.st, docs, origins); err != nil || !ok {
			return nil, ok, wrapKeyword(err)
		}
	}
	s.goRanked.Add(1)
	hits = combine(tables, root, scope, q.Limit, anchored)
	if err := s.hitIDs(ctx, conn, hits, tables[0].hits); err != nil {
		return nil, false, err
	}
	return hits, true, nil
}

// countTopK is commonCounts' count of the notes each of exprs matches
// in fts (all of them: the bit sets are counted whole), computed in Go
// from the index's pages; ok is false when a phrase is not one plain
// token or the reader gives up, and the caller counts by SQL.
func (s *Store) countTopK(ctx context.Context, conn *readTx, exprs []string) (counts []int64, ok bool, err error) {
	var p matchParser
	nodes := make([]*matchNode, len(exprs))
	for i, e := range exprs {
		if nodes[i] = p.parse(e); !p.ok {
			return nil, false, nil
		}
	}
	st, ok, err := s.stats(ctx, conn, "fts")
	if err != nil || !ok {
		return nil, false, wrapKeyword(err)
	}
	r, ok, err := conn.reader(ctx, "fts", &s.ranks.segs)
	if err != nil || !ok {
		return nil, false, wrapKeyword(err)
	}
	ones := slices.Repeat([]float64{1}, len(ftsColumns))
	h, ok, err := scanPhrases(ctx, r, p.phrases, ones, st.ids, countAll{})
	if err != nil || !ok {
		return nil, false, wrapKeyword(err)
	}
	defer h.release()
	counts = make([]int64, len(exprs))
	if h.seen == nil {
		return counts, true, nil // no row has any of them
	}
	for i, n := range nodes {
		counts[i] = n.ones(h.seen, int(st.ids+63)/64)
	}
	return counts, true, nil
}

// rankedTable is what rankTopK reads of one full-text table.
type rankedTable struct {
	name string
	hits *tableHits
	st   *ftsStats
	idf  []float64
	size []int32 // the rows' lengths, by rowid: those of the matches at least
}

// read reads table's stats and the phrases' postings, weighted (nw:
// see scanPhrases).
func (t *rankedTable) read(ctx context.Context, s *Store, conn *readTx, table string, phrases []matchPhrase, weights []any, nw narrowing) (bool, error) {
	st, ok, err := s.stats(ctx, conn, table)
	if err != nil || !ok {
		return false, wrapKeyword(err)
	}
	w := make([]float64, len(ftsColumns))
	for i := range w {
		w[i], _ = weights[i].(float64)
	}
	if !exactWeights(w) {
		return false, nil
	}
	r, ok, err := conn.reader(ctx, table, &s.ranks.segs)
	if err != nil || !ok {
		return false, wrapKeyword(err)
	}
	if t.hits, ok, err = scanPhrases(ctx, r, phrases, w, st.ids, nw); err != nil || !ok {
		return false, wrapKeyword(err)
	}
	t.name, t.st = table, st
	if t.idf, err = idf(ctx, conn, st, t.hits.docHit); err != nil {
		return false, wrapKeyword(err)
	}
	return true, nil
}

func wrapKeyword(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("keyword search: %w", err)
}

// combine turns the two tables' postings into rank's hits: the notes
// in scope that match root (its terms' nodes, all of them or any) in
// fts, or in fts_anchor when anchored (a note in scope matches there),
// scored by the sum of the two bm25, best limit first.
func combine(tables [2]rankedTable, root *matchNode, scope topkScope, limit int, anchored bool) []hit {
	nodes, or := root.kids, !root.and
	ft, an := tables[0], tables[1]
	// matches reports whether row doc of t matches node n (nil: root).
	matches := func(t rankedTable, n *matchNode, doc int64) (int32, bool) {
		r, ok := t.hits.row(doc)
		if n == nil {
			return r, ok && t.hits.ok[r]
		}
		return r, ok && n.match(t.hits.flagsOf(r), hasPhrase)
	}
	matched := func(doc int64) int {
		if !or {
			return len(nodes)
		}
		n := 0
		for _, k := range nodes {
			if _, ok := matches(ft, k, doc); ok {
				n++
			} else if _, ok := matches(an, k, doc); anchored && ok {
				n++
			}
		}
		return n
	}
	best := first.New(limit, func(a, b offered) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.rowid, b.rowid)
	})
	offer := func(h hit) { // as rankedOrder orders hits, on a small copy
		best.Offer(offered{key: rankedKey(h), rowid: h.rowid, bm25: h.BM25, title: h.Title, matched: h.Matched})
	}
	for r, doc := range ft.hits.docs {
		if !ft.hits.ok[r] || !scope.keeps(doc) {
			continue
		}
		h := hit{rowid: doc, KeywordHit: KeywordHit{
			BM25: ft.hits.bm25(int32(r), ft.size, ft.st, ft.idf), Title: root.match(ft.hits.flagsOf(int32(r)), inTitle),
			Matched: matched(doc),
		}}
		if ar, ok := matches(an, nil, doc); anchored && ok {
			h.BM25 += an.hits.bm25(ar, an.size, an.st, an.idf)
		}
		offer(h)
	}
	if anchored {
		for r, doc := range an.hits.docs {
			if !an.hits.ok[r] || !scope.keeps(doc) {
				continue
			}
			if _, ok := matches(ft, nil, doc); ok {
				continue // scored with its own text above
			}
			offer(hit{rowid: doc, KeywordHit: KeywordHit{BM25: an.hits.bm25(int32(r), an.size, an.st, an.idf), Matched: matched(doc)}})
		}
	}
	kept := best.Sorted()
	hits := make([]hit, len(kept))
	for i, o := range kept {
		hits[i] = hit{rowid: o.rowid, KeywordHit: KeywordHit{BM25: o.bm25, Title: o.title, Matched: o.matched, Terms: len(nodes)}}
	}
	return hits
}

// offered is a hit combine offers for the best: its ranking key
// (rankedKey) and the fields of its hit.
type offered struct {
	key, bm25 float64
	rowid     int64
	matched   int
	title     bool
}

// matching sets h.ok, whether each row matches root, and returns the
// rows that do and that scope keeps, with their origins, in lists made
// at their size.
func (h *tableHits) matching(root *matchNode, scope topkScope) (docs, origins []int64) {
	h.ok = make([]bool, len(h.docs))
	n := 0
	for r, doc := range h.docs {
		h.ok[r] = root.match(h.flagsOf(int32(r)), hasPhrase)
		if h.ok[r] && scope.keeps(doc) {
			n++
		}
	}
	docs, origins = make([]int64, 0, n), make([]int64, 0, n)
	for r, doc := range h.docs {
		if h.ok[r] && scope.keeps(doc) {
			docs, origins = append(docs, doc), append(origins, h.origin[r])
		}
	}
	return docs, origins
}
