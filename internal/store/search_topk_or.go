package store

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/vaultgraph/vaultgraph/internal/first"
)

// The any-term fallback's reads, narrowed as MaxScore does. Each term
// can add at most so much to a row's score: bm25 adds, per phrase, its
// idf times (k1+1) times f/(f+norm), below 1. With the terms of the
// highest bounds read first, a row not read so far has only terms still
// to read; once even all of them together (times their number, for
// Matched, and 1+TitleBoost) score less than the limit-th best row read
// so far scores already, no such row can be a hit, and the rest of the
// reads only count them (scanPhrases). The idfs come from the document
// counts of the all-term search just before (rankMemo), which read the
// same phrases of the same state of the index.

// rankMemo carries what the all-term search read over to the any-term
// fallback that follows it.
type rankMemo struct {
	st     *ftsStats // fts's stats, as of that search
	docHit []int64   // per phrase, the rows of fts that have it
}

// orBound is the narrowing of fts's reads for an any-term search.
type orBound struct {
	terms  []*matchNode
	term   []int     // per phrase, its term
	bound  []float64 // per phrase, above what it adds to a row's -bm25
	idf    []float64 // per phrase, bm25's (computed in Go: within rounding)
	st     *ftsStats
	size   []int32
	limit  int
	scope  topkScope
	anchor *tableHits // fts_anchor's rows, each read in full
	// best is the limit-th best score when the rows read were seen.
	best, seen float64
}

// newOrBound returns the narrowing of fts's reads for an any-term search
// of terms, or nil when memo is not of this state of the index (st) or
// the rows' lengths are not kept.
func (s *Store) newOrBound(ctx context.Context, conn *readTx, terms []*matchNode, phrases []matchPhrase, memo *rankMemo, limit int, scope topkScope, anchor *tableHits) (narrowing, error) {
	st, ok, err := s.stats(ctx, conn, "fts")
	if err != nil || !ok || memo == nil || memo.st != st || len(memo.docHit) != len(phrases) {
		return nil, wrapKeyword(err)
	}
	s.ranks.mu.Lock()
	size := st.size
	s.ranks.mu.Unlock()
	if size == nil || limit <= 0 {
		return nil, nil
	}
	o := &orBound{terms: terms, term: make([]int, len(phrases)), bound: make([]float64, len(phrases)), idf: make([]float64, len(phrases)),
		st: st, size: size, limit: limit, scope: scope, anchor: anchor}
	for i, n := range memo.docHit {
		o.idf[i] = idfFloor(math.Log(idfRatio(st, n)))
		o.bound[i] = o.idf[i] * (bm25K1 + 1)
		if o.term[i] = slices.IndexFunc(terms, func(t *matchNode) bool { return t.has(i) }); o.term[i] < 0 {
			return nil, nil
		}
	}
	return o, nil
}

// order reads the scans of the highest bounds first.
func (o *orBound) order(_ context.Context, _ *ftsReader, scans []phraseScan, _ []matchPhrase) error {
	sum := func(sc phraseScan) float64 {
		m := 0.0
		for _, i := range sc.serves {
			m += o.bound[i]
		}
		return m
	}
	slices.SortStableFunc(scans, func(a, b phraseScan) int { return cmp.Compare(sum(b), sum(a)) })
	return nil
}

// narrow bounds the score of a row that has only phrases left to read,
// and compares it with the limit-th best score of the rows read so far
// (a score that reading on can only raise), taken again when the rows
// read have grown by a quarter since.
func (o *orBound) narrow(h *tableHits, read []bool) bool {
	sum, left := 0.0, map[int]bool{}
	for i, done := range read {
		if !done {
			sum += o.bound[i]
			left[o.term[i]] = true
		}
	}
	if len(left) == 0 || len(h.docs) < o.limit {
		return false
	}
	most := float64(len(left)) * (1 + TitleBoost) * sum * (1 + 1e-9)
	if most >= o.best*(1-1e-9) && float64(len(h.docs)) >= 1.25*o.seen {
		o.best, o.seen = o.limitth(h), float64(len(h.docs))
	}
	return most < o.best*(1-1e-9)
}

// limitth is the limit-th best score (Matched times -bm25, title
// boosted) of the rows of h in scope, as read so far; 0 when fewer have
// one.
func (o *orBound) limitth(h *tableHits) float64 {
	k := first.New(o.limit, func(a, b float64) int { return cmp.Compare(b, a) })
	for r, doc := range h.docs {
		if !o.scope.keeps(doc) {
			continue
		}
		flags := h.flagsOf(int32(r))
		matched, title := 0, false
		for _, n := range o.terms {
			if n.match(flags, hasPhrase) {
				matched++
				title = title || n.match(flags, inTitle)
			}
		}
		if matched == 0 {
			continue
		}
		key := float64(matched) * -h.bm25(int32(r), o.size, o.st, o.idf)
		if title {
			key *= 1 + TitleBoost
		}
		k.Offer(key)
	}
	best := k.Sorted()
	if len(best) < o.limit {
		return 0
	}
	return best[o.limit-1]
}

// keep reads fts_anchor's rows in full: their scores add both tables'.
func (o *orBound) keep(rowid int64) bool {
	_, ok := o.anchor.row(rowid)
	return ok
}

// has reports whether phrase i is one of n's.
func (n *matchNode) has(i int) bool {
	if n.kids == nil {
		return n.phrase == i
	}
	return slices.ContainsFunc(n.kids, func(k *matchNode) bool { return k.has(i) })
}
