package store

import (
	"context"
	"sort"
	"strings"
)

// smallSegmentPages is the most leaf pages a small segment has: the
// segments of one write or of a merge of a few. A small segment's rows
// are read whole, in one query, and kept (scanSmall); its page estimate
// is 1 (a read of it takes about one).
const smallSegmentPages = 32

// small reports whether sg has at most smallSegmentPages pages.
func small(sg ftsSegment) bool { return sg.last-sg.first < smallSegmentPages }

// scanSmall is scanKept on a small segment: every row of every token of
// sg (id names its content) is decoded once and kept in f.cache, and a
// read of token (prefix: of the tokens it starts) replays the rows of
// its tokens. A small segment is new, and a search asks it for a dozen
// tokens (the words' forms, stems and folded spellings, in two tables),
// each of which would parse its pages up to the token again.
func (f *ftsReader) scanSmall(ctx context.Context, sg ftsSegment, id segIdent, token string, prefix bool, found func(string, *ftsPosting) bool) (bool, error) {
	k := segReadKey{table: f.table, gen: f.conn.low, seg: id, whole: true}
	r := f.cache.rowsOf(k)
	if r == nil {
		var ok bool
		var err error
		if r, ok, err = f.readSmall(ctx, sg); err != nil {
			return false, err
		}
		if !ok { // read as without the cache, which tells what is wrong
			sc := segmentScan{lo: append([]byte{mainKeyPrefix}, token...), prefix: prefix}
			return f.scanSegment(ctx, sg, &sc, found)
		}
		f.cache.putWhole(k, r)
	}
	from := sort.SearchStrings(r.toks, token)
	to := from
	for to < len(r.toks) && (r.toks[to] == token || prefix && strings.HasPrefix(r.toks[to], token)) {
		to++
	}
	return r.replayRange(from, to, found), nil
}

// readSmall reads every row of every token of the main index in sg; ok
// is false when a page is not as expected, or a token's rowids do not
// go up.
func (f *ftsReader) readSmall(ctx context.Context, sg ftsSegment) (*segRead, bool, error) {
	r := &segRead{pages: -1, rows: true}
	sc := segmentScan{lo: []byte{mainKeyPrefix}, prefix: true}
	sc.found = func(tok string, p *ftsPosting) bool {
		r.add(tok, p)
		return true
	}
	pages, ok := int64(0), true
	past := false
	done, err := f.eachLeaf(ctx, sg, sg.first, func(p []byte) (bool, bool) {
		pages++
		if past {
			return false, true
		}
		past, ok = sc.page(p)
		return false, ok
	})
	if err != nil || !done || !ok || pages != sg.last-sg.first+1 || sc.d != nil && sc.d.open {
		return nil, false, err
	}
	return r, !r.unsorted && sort.StringsAreSorted(r.toks), nil
}
