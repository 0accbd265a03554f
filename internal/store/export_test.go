package store

import (
	"context"
	"database/sql"
)

// SetSQLRank makes Keyword rank by SQL only (on) or in Go where it can
// (off, the default): tests compare the two.
func SetSQLRank(s *Store, on bool) { s.sqlRank = on }

// GoRanked is how many searches s ranked in Go.
func GoRanked(s *Store) int64 { return s.goRanked.Load() }

// CommonCounts returns commonCounts of the exact forms of words (as
// dropCommon asks them), counted by SQL (sql) or in Go, with an empty
// cache.
func CommonCounts(s *Store, words []string, sql bool) ([]int64, int64, error) {
	exprs := make([]string, len(words))
	for i, w := range words {
		exprs[i] = Term{Text: w, exact: true}.expr()
	}
	s.common = countCache{}
	s.sqlRank = sql
	defer func() { s.sqlRank = false }()
	return s.commonCounts(context.Background(), nil, exprs)
}

// Narrowed is how many all-term and any-term searches s ranked in Go
// with narrowed reads of fts (scanPhrases).
func Narrowed(s *Store) (and, or int64) { return s.narrowed[0].Load(), s.narrowed[1].Load() }

// markStems asks stemAsk alone and marks terms with the answers.
func (s *Store) markStems(ctx context.Context, terms []Term) error {
	return s.askFlags(ctx, nil, stemAsk(terms))
}

// CacheSizes returns PRAGMA cache_size of each idle connection of s.
func CacheSizes(ctx context.Context, s *Store) ([]int64, error) {
	n := s.db.Stats().Idle
	var sizes []int64
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		conns = append(conns, c)
		var size int64
		if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&size); err != nil {
			return nil, err
		}
		sizes = append(sizes, size)
	}
	return sizes, nil
}
