package store

import (
	"context"
	"slices"
)

// Which marked and stem tokens the full-text tables have (unmarkedAsk,
// stemAsk) is asked by every search. SQL's answer holds only while both
// tables are unchanged (selectFlags); the tables' segments give the same
// answers, and their reads are kept between searches (fts_read_cache.go).
// A flag only leaves out a form of a word no live row has, so the reads
// name live rows (tombstones applied), as a match does.

// tokenCheck asks whether a live row of table has token (with prefix: a
// token it starts).
type tokenCheck struct {
	table, token string
	prefix       bool
}

// flagCheck is a selectFlags column as token checks: true when each
// group has a check that holds (an AND of ORs).
type flagCheck [][]tokenCheck

// plainCheck is the check of a live row of table matching quoted, an
// FTS5 string of one plain token (with a * after it, a prefix); ok is
// false for another string.
func plainCheck(table, quoted string) (tokenCheck, bool) {
	var p matchParser
	p.parse(quoted)
	if !p.ok || len(p.phrases) != 1 || p.phrases[0].cols != ftsColumnBits {
		return tokenCheck{}, false
	}
	return tokenCheck{table: table, token: p.phrases[0].token, prefix: p.phrases[0].prefix}, true
}

// liveFlags answers checks from the tables' segments; ok is false when
// a check is missing or the reader cannot tell, and the caller asks SQL.
func (s *Store) liveFlags(ctx context.Context, conn *readTx, checks []flagCheck) ([]bool, bool, error) {
	if s.sqlRank || len(checks) == 0 {
		return nil, false, nil
	}
	for _, c := range checks {
		if len(c) == 0 || slices.ContainsFunc(c, func(g []tokenCheck) bool { return len(g) == 0 }) {
			return nil, false, nil
		}
	}
	live := map[tokenCheck]bool{}
	out := make([]bool, len(checks))
	for i, groups := range checks {
		out[i] = true
		for _, g := range groups {
			hit := false
			for _, c := range g {
				v, seen := live[c]
				if !seen {
					r, ok, err := conn.reader(ctx, c.table, &s.ranks.segs)
					if err == nil && ok {
						v, ok, err = r.live(ctx, c.token, c.prefix)
					}
					if err != nil || !ok {
						return nil, false, wrapKeyword(err)
					}
					live[c] = v
				}
				if hit = v; hit {
					break
				}
			}
			if out[i] = hit; !hit {
				break
			}
		}
	}
	return out, true, nil
}

// live reports whether a live row of the index has token (with prefix:
// a token it starts); ok is false when the reader gives up. A segment's
// tombstones are read only when it has a row of token: most segments
// have none of a search's rarer tokens (its stems and folded forms).
func (f *ftsReader) live(ctx context.Context, token string, prefix bool) (found, ok bool, err error) {
	defer func() { f.stopped = false }() // the reader serves other reads after
	for i, sg := range f.segs {
		var dead *tombSet
		var deadErr error
		read := false
		// The check ends at the first live row (ftsReader.stopped): a
		// kept read is replayed no further, a read to be kept goes on.
		f.stopped = false
		ok, err := f.scanKept(ctx, sg, token, prefix, nil, func(_ string, p *ftsPosting) bool {
			if !read {
				dead, deadErr = f.tombstones(ctx, i)
				read = true
			}
			found = deadErr == nil && !dead.has(p.rowid)
			f.stopped = found || deadErr != nil
			return !f.stopped
		})
		switch {
		case deadErr != nil:
			return false, false, deadErr
		case err != nil:
			return false, false, err
		case found:
			return true, true, nil
		case !ok:
			return false, false, nil
		}
	}
	return false, true, nil
}

// flagAsk is a question of selectFlags (its columns, their arguments and
// token checks) and what to do with the answers.
type flagAsk struct {
	cols   []string
	args   []any
	checks []flagCheck
	set    func(found []bool)
}

// askFlags asks the questions in one selectFlags call, so that their
// reads share one read transaction: rt, or one of their own when rt is
// nil.
func (s *Store) askFlags(ctx context.Context, rt *readTx, asks ...flagAsk) error {
	var all flagAsk
	for _, a := range asks {
		all.cols, all.args, all.checks = append(all.cols, a.cols...), append(all.args, a.args...), append(all.checks, a.checks...)
	}
	var found []bool
	if len(all.cols) > 0 {
		rt, done, err := s.useRead(ctx, rt)
		if err != nil {
			return err
		}
		defer done()
		if found, err = s.selectFlags(ctx, rt, all.cols, all.args, all.checks); err != nil {
			return err
		}
	}
	for _, a := range asks {
		a.set(found[:len(a.cols)])
		found = found[len(a.cols):]
	}
	return nil
}
