package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/vaultgraph/vaultgraph/internal/first"
)

// rankKey is the SQL of rank's order (ascending: bm25 is negative): the
// score times the terms matched, times 1+TitleBoost when the title
// matches. bestRanked is the same order in Go.
var rankKey = "matched * score * (1 + " + fmt.Sprint(TitleBoost) + " * in_title)"

// bestRanked returns the first limit of hits ordered as rankKey, then
// rowid: for an any-term search, whose Matched rank counts in Go. Only
// the best are sorted: a fallback has tens of thousands of hits.
func bestRanked(hits []hit, limit int) []hit {
	if limit > 0 && len(hits) > 4*limit {
		best := first.New(limit, rankedOrder)
		for _, x := range hits {
			best.Offer(x)
		}
		return best.Sorted()
	}
	slices.SortFunc(hits, rankedOrder)
	return hits[:min(limit, len(hits))]
}

// rankedOrder orders hits as rankKey, then rowid. The key is computed
// as SQL does (the factors are small integers).
func rankedOrder(a, b hit) int {
	if c := cmp.Compare(rankedKey(a), rankedKey(b)); c != 0 {
		return c
	}
	return cmp.Compare(a.rowid, b.rowid)
}

// rankedKey is rankKey of h.
func rankedKey(h hit) float64 {
	t := 1.0
	if h.Title {
		t += TitleBoost
	}
	return float64(h.Matched) * h.BM25 * t
}

// countMatched sets each hit's Matched to the number of terms it has in
// its own fields or, when anchored, in the anchor text of the links to
// it: one pass over each term's matches, where SQL would build a set per
// term and look every hit up in each.
func (s *Store) countMatched(ctx context.Context, rt *readTx, hits []hit, terms []Term, anchored bool) error {
	at := make(map[int64]int, len(hits))
	for i := range hits {
		at[hits[i].rowid] = i
		hits[i].Matched = 0
	}
	last := make([]int, len(hits)) // the last term counted for each hit, +1
	for ti, t := range terms {
		query, args := `SELECT rowid FROM fts WHERE fts MATCH ?`, []any{t.expr()}
		if anchored {
			query += ` UNION ALL SELECT rowid FROM fts_anchor WHERE fts_anchor MATCH ?`
			args = append(args, t.expr())
		}
		rows, err := rt.tx.QueryContext(ctx, query, args...)
		err = eachRow(rows, err, func(rows *sql.Rows) error {
			var r int64
			if err := rows.Scan(&r); err != nil {
				return err
			}
			if i, ok := at[r]; ok && last[i] != ti+1 {
				last[i] = ti + 1
				hits[i].Matched++
			}
			return nil
		})
		if err != nil {
			return wrapKeyword(err)
		}
	}
	return nil
}
