package store

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"strings"
)

// The reads of Keyword's ranking in Go (search_topk.go): which tokens'
// rows to read from the index, in what order, and what each row adds.

// phraseScan is one read of the index: the rows of token, or of every
// token it starts (prefix), for the phrases of serves.
type phraseScan struct {
	token  string
	prefix bool
	serves []int
	pages  int64 // the leaf pages its rows take (ftsReader.order)
}

// planScans groups phrases into the fewest reads: a prefix read serves
// every phrase whose token it starts.
func planScans(phrases []matchPhrase) []phraseScan {
	order := make([]int, len(phrases))
	for i := range order {
		order[i] = i
	}
	// Prefixes first, shortest first: each then serves all it can.
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := phrases[a], phrases[b]
		if pa.prefix != pb.prefix {
			if pa.prefix {
				return -1
			}
			return 1
		}
		return cmp.Compare(len(pa.token), len(pb.token))
	})
	var scans []phraseScan
	for _, i := range order {
		p := phrases[i]
		j := slices.IndexFunc(scans, func(sc phraseScan) bool { // a scan that reads p's rows
			return sc.prefix && strings.HasPrefix(p.token, sc.token) || !sc.prefix && !p.prefix && p.token == sc.token
		})
		if j < 0 {
			scans = append(scans, phraseScan{token: p.token, prefix: p.prefix})
			j = len(scans) - 1
		}
		scans[j].serves = append(scans[j].serves, i)
	}
	return scans
}

// scanPhrases reads the rows of the phrases' tokens from the index (r),
// weighting each instance by its column's weight; rows bounds the
// rowids. ok is false when the reader gives up.
//
// nw (nil: none) may narrow the reads: once it says a row not read so
// far (nor kept) cannot be a hit, the later reads only count such rows
// (bm25's document counts, count), without summing their instances, nor
// reading them when every phrase a read serves is in every column. A
// rare word then spares the decoding of a common one's long lists.
func scanPhrases(ctx context.Context, r *ftsReader, phrases []matchPhrase, weights []float64, rows int64, nw narrowing) (*tableHits, bool, error) {
	h := &tableHits{idx: takeIdx(int(rows)), docs: takeDocs(), origin: takeDocs(), docHit: make([]int64, len(phrases)), n: len(phrases)}
	if nw == nil {
		nw = andTerms(nil)
	}
	scans := planScans(phrases)
	if err := nw.order(ctx, r, scans, phrases); err != nil {
		return nil, false, err
	}
	read := make([]bool, len(phrases))
	narrow := nw.narrow(h, read) // only the rows in h (or kept) can be hits
	out := func(rowid int64) bool { return h.idx[rowid] == 0 && !nw.keep(rowid) }
	for _, sc := range scans {
		var skip func(int64) bool
		// With every phrase the scan serves matched in every column, a
		// row that has one needs no instance read.
		if narrow && !slices.ContainsFunc(sc.serves, func(i int) bool { return phrases[i].cols != ftsColumnBits }) {
			skip = func(rowid int64) bool { return rowid >= 0 && rowid < int64(len(h.idx)) && out(rowid) }
		}
		var last string
		var by *[len(ftsColumns)][]int
		ok, err := r.scan(ctx, sc.token, sc.prefix, rows, skip, func(token string, p *ftsPosting) {
			if token != last || by == nil {
				last, by = token, servedBy(token, sc.serves, phrases)
			}
			if narrow && out(p.rowid) {
				h.count(p, by)
				return
			}
			h.add(p, by, weights, r.origin)
		})
		if err != nil || !ok {
			return nil, false, err
		}
		for _, i := range sc.serves {
			read[i] = true
		}
		if !narrow && nw.narrow(h, read) {
			narrow, h.narrowed = true, true
		}
	}
	return h, true, nil
}

// narrowing decides when scanPhrases may leave out the rows not in its
// hits so far.
type narrowing interface {
	// order sorts the reads.
	order(ctx context.Context, r *ftsReader, scans []phraseScan, phrases []matchPhrase) error
	// narrow reports whether, with the phrases of read read into h, a
	// row not in h (nor kept) can no longer be a hit.
	narrow(h *tableHits, read []bool) bool
	// keep reports whether a row not in h is read in full all the same.
	keep(rowid int64) bool
}

// andTerms narrows the reads of an AND search (of these terms, two or
// more): they go from the fewest pages up, and once every phrase of one
// term is read, a row not read so far cannot match.
type andTerms []*matchNode

func (a andTerms) order(ctx context.Context, r *ftsReader, scans []phraseScan, _ []matchPhrase) error {
	if len(a) < 2 || len(scans) < 2 {
		return nil
	}
	return r.order(ctx, scans)
}

func (a andTerms) narrow(_ *tableHits, read []bool) bool {
	return slices.ContainsFunc(a, func(n *matchNode) bool { return n.read(read) })
}

func (a andTerms) keep(int64) bool { return false }

// countAll narrows every read: rows are only counted (countTopK).
type countAll struct{}

func (countAll) order(context.Context, *ftsReader, []phraseScan, []matchPhrase) error { return nil }
func (countAll) narrow(*tableHits, []bool) bool                                       { return true }
func (countAll) keep(int64) bool                                                      { return false }

// read reports whether every phrase of n is read.
func (n *matchNode) read(read []bool) bool {
	if n.kids == nil {
		return read[n.phrase]
	}
	return !slices.ContainsFunc(n.kids, func(k *matchNode) bool { return !k.read(read) })
}

// count counts a row that cannot match (p, its instances not summed) in
// the document counts of the phrases it has (by), each row once.
func (h *tableHits) count(p *ftsPosting, by *[len(ftsColumns)][]int) {
	if h.seen == nil {
		h.seen = make([][]uint64, h.n)
	}
	w, bit := p.rowid>>6, uint64(1)<<(p.rowid&63)
	for c := range by {
		if !p.skipped && p.counts[c] == 0 {
			continue
		}
		for _, i := range by[c] {
			if h.seen[i] == nil {
				h.seen[i] = make([]uint64, (len(h.idx)+63)/64)
			}
			if h.seen[i][w]&bit == 0 {
				h.seen[i][w] |= bit
				h.docHit[i]++
			}
		}
		if p.skipped {
			return // its phrases are in every column: by[0] has them all
		}
	}
}

// servedBy returns, per column, the phrases of serves that token
// matches in that column.
func servedBy(token string, serves []int, phrases []matchPhrase) *[len(ftsColumns)][]int {
	var by [len(ftsColumns)][]int
	for _, i := range serves {
		p := phrases[i]
		if token != p.token && !(p.prefix && strings.HasPrefix(token, p.token)) {
			continue
		}
		for c := range by {
			if p.cols&(1<<c) != 0 {
				by[c] = append(by[c], i)
			}
		}
	}
	return &by
}

// add counts the instances of a token in a row (p) for the phrases it
// matches in each column (by): per phrase, the weights of the columns
// they are in, summed by column (exact: see exactWeights). origin is the
// newest origin of the segment p comes from (0: unknown), kept per row
// as the newest of its rows' (tableHits.origin).
func (h *tableHits) add(p *ftsPosting, by *[len(ftsColumns)][]int, weights []float64, origin int64) {
	r := int32(-1)
	var freq []float64
	var flags []uint8
	for c, n := range p.counts {
		if n == 0 || len(by[c]) == 0 {
			continue
		}
		if r < 0 {
			if r = h.idx[p.rowid] - 1; r < 0 {
				r = int32(len(h.docs))
				h.idx[p.rowid] = r + 1
				h.docs = append(h.docs, p.rowid)
				h.origin = append(h.origin, origin)
				if r%rowChunk == 0 {
					h.freq = append(h.freq, pooled[float64](&freqPool, rowChunk*h.n))
					h.flags = append(h.flags, pooled[uint8](&flagsPool, rowChunk*h.n))
				}
			}
			freq, flags = h.freqOf(r), h.flagsOf(r)
			h.origin[r] = max(h.origin[r], origin)
		}
		w := weights[c] * float64(n)
		flag := uint8(hasPhrase)
		if titleColumnBits&(1<<c) != 0 {
			flag |= inTitle
		}
		for _, i := range by[c] {
			if flags[i]&hasPhrase == 0 {
				h.docHit[i]++
			}
			flags[i] |= flag
			freq[i] += w
		}
	}
}

// order sorts scans by the leaf pages their tokens' rows take, fewest
// first (ftsReader.pages).
func (f *ftsReader) order(ctx context.Context, scans []phraseScan) error {
	for i, sc := range scans {
		n, err := f.pages(ctx, sc.token, sc.prefix)
		if err != nil {
			return err
		}
		scans[i].pages = n
	}
	slices.SortStableFunc(scans, func(a, b phraseScan) int { return cmp.Compare(a.pages, b.pages) })
	return nil
}

// ones counts the rows that match n, from the rows count counted (h.seen,
// words bits per phrase).
func (n *matchNode) ones(seen [][]uint64, words int) int64 {
	var sum int64
	for w := range words {
		sum += int64(bits.OnesCount64(n.word(seen, w)))
	}
	return sum
}

// word is word w of the rows that match n.
func (n *matchNode) word(seen [][]uint64, w int) uint64 {
	if n.kids == nil {
		if s := seen[n.phrase]; s != nil {
			return s[w]
		}
		return 0
	}
	var v uint64
	if n.and {
		v = ^v
	}
	for _, k := range n.kids {
		if n.and {
			v &= k.word(seen, w)
		} else {
			v |= k.word(seen, w)
		}
	}
	return v
}
