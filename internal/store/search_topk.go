package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"sync"
)

// Keyword's ranking in Go. FTS5 ranks a query by calling bm25() for every
// note that matches it, then sorts them all, and the any-term fallback
// counts each term as much again. rankTopK computes the same scores from
// the index's postings instead: it reads each phrase's tokens' rows once
// from FTS5's own pages (fts_read.go), sums the column weights per note
// and phrase as bm25() does, takes the phrases' document counts and each
// note's length from the records FTS5 reads them from (the averages
// record and the docsize table), and computes bm25 with FTS5's own
// formula and operation order, so that the scores, and with them the
// order of the hits, are the same to the last bit. It serves expressions
// whose every phrase is one plain token (nearly every query); the others
// (quoted phrases, CJK text, folded letters) are ranked by SQL.

// bm25 constants, as FTS5 has them (variables: computed at run time in
// float64, as C does, not folded exactly).
var bm25K1, bm25B = 1.2, 0.75

// ftsStats are what bm25 needs of a full-text table besides the
// phrases: the rows, their average length, the largest rowid, and once
// read, each row's length (size, kept until a write changes the table).
type ftsStats struct {
	key   string // the table's averages and structure records
	rows  int64
	avgdl float64
	ids   int64   // the largest rowid + 1
	size  []int32 // tokens of each row, by rowid; nil until read
	// origin is the largest origin of the rows size holds, and gen the
	// index's change count (snapgen.n) it was read at (docSizes).
	origin, gen int64
	// low is the index's lowest doc as read (readTx.low): stats of
	// another generation are never taken for these.
	low int64
}

// rankCache keeps the tables' ftsStats between searches, and by table
// the newest ones whose every row's length is known (docSizes).
type rankCache struct {
	mu    sync.Mutex
	stats map[string]*ftsStats
	sized map[string]*ftsStats
	// allSizes, patches and sinceRows count, for tests, the reads of
	// every row's length (docSizes), the lengths brought up to date from
	// every row written since (patchSizes) and those read by rowid
	// (sizesSince).
	allSizes, patches, sinceRows int
	// segs keeps the reads of the tables' segments (fts_read_cache.go).
	segs segCache
	// ids keeps the note IDs of docs (search_ids.go).
	ids docIDs
	// lens keeps the lengths sizesSince read (search_lens.go).
	lens lenCache
	// low is the lowest doc of fts as the last read began (sameDocs).
	low int64
}

// forget drops what the cache keeps: after 'delete-all' (Reset), which
// starts FTS5's origins over.
func (c *rankCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stats, c.sized = nil, nil
	c.segs.forget()
	c.ids.forget()
	c.lens.forget()
}

// sameDocs forgets what the cache keeps when the index's lowest doc is
// not low, the one seen last. Docs are never reused (AUTOINCREMENT), so
// after another process emptied the index ('delete-all', which starts
// FTS5's segment names and origins over) and wrote notes again, every doc
// is higher: kept segment reads would otherwise be replayed for new
// segments of the same names.
func (c *rankCache) sameDocs(low int64) {
	c.mu.Lock()
	same := c.low == low
	c.low = low
	c.mu.Unlock()
	if !same {
		c.forget()
	}
}

// maxStatsRowid bounds the rowids ftsStats keeps in a slice; an index
// with larger ones is ranked by SQL.
const maxStatsRowid = 1 << 24

// stats returns table's ftsStats as of conn's transaction: the cached
// ones while the table's averages and structure records are unchanged.
func (s *Store) stats(ctx context.Context, conn *readTx, table string) (*ftsStats, bool, error) {
	var avg, structure []byte
	var ids int64
	err := conn.QueryRowContext(ctx, `SELECT (SELECT block FROM `+table+`_data WHERE id = 1), (SELECT block FROM `+table+`_data WHERE id = 10),
		(SELECT coalesce(max(id), 0) + 1 FROM `+table+`_docsize)`).Scan(&avg, &structure, &ids)
	if err != nil {
		return nil, false, err
	}
	key := string(avg) + "\x00" + string(structure)
	s.ranks.mu.Lock()
	st := s.ranks.stats[table]
	s.ranks.mu.Unlock()
	if st != nil && st.key == key && st.ids == ids && st.low == conn.low {
		return st, true, nil
	}
	if ids < 1 || ids > maxStatsRowid {
		return nil, false, nil
	}
	st = &ftsStats{key: key, ids: ids, low: conn.low}
	var tokens int64
	r := varintReader{b: avg}
	for i := 0; r.i < len(r.b) && !r.bad && i <= len(ftsColumns); i++ {
		if v := int64(r.next()); i == 0 {
			st.rows = v
		} else {
			tokens += v
		}
	}
	if r.bad {
		return nil, false, nil
	}
	if st.rows > 0 {
		st.avgdl = float64(tokens) / float64(st.rows)
	}
	s.ranks.mu.Lock()
	if s.ranks.stats == nil {
		s.ranks.stats = map[string]*ftsStats{}
	}
	s.ranks.stats[table] = st
	s.ranks.mu.Unlock()
	return st, true, nil
}

// tableHits are the rows of a table that have a phrase of a query: for
// each, per phrase, the sum of the column weights of its instances
// (bm25's frequency) and flags (hasPhrase, inTitle).
type tableHits struct {
	idx  []int32 // rowid → 1 + index in docs, 0 for none
	docs []int64
	// origin is, per row of docs, the newest origin of the segments it
	// was read from (0: unknown; see docSizes).
	origin []int64
	freq   [][]float64 // per rowChunk docs, rowChunk × phrases
	flags  [][]uint8   // the same
	docHit []int64     // per phrase, the rows that have it (bm25's nHit)
	ok     []bool      // per row of docs, whether it matches the query
	// narrowed is set when the reads left out rows (scanPhrases).
	narrowed bool
	n        int // phrases
	// seen are, per phrase, the rows counted in docHit that are not in
	// docs (a bit per rowid; see count).
	seen [][]uint64
}

const (
	hasPhrase = 1 << iota // an instance in the phrase's columns
	inTitle               // one in the title columns too
)

// Pools of the large slices a search allocates (pooled, release): a
// fallback search at 100,000 notes fills megabytes, which would
// otherwise be garbage for the collector to pace the heap by. docsPool
// holds tableHits' docs and origin, which would grow by appends from
// nothing.
var idxPool, ownerPool, freqPool, flagsPool, docsPool sync.Pool

// takeDocs returns an empty slice from docsPool, or nil.
func takeDocs() []int64 {
	if p, ok := docsPool.Get().(*[]int64); ok {
		return (*p)[:0]
	}
	return nil
}

// pooled returns n zero values from pool, or new ones.
func pooled[T any](pool *sync.Pool, n int) []T {
	if p, ok := pool.Get().(*[]T); ok && cap(*p) >= n {
		s := (*p)[:n]
		clear(s)
		return s
	}
	return make([]T, n)
}

// takeIdx returns an index of n rowids, every entry 0: from idxPool,
// whose tables are all 0 (release clears the entries it set), without
// clearing all of it.
func takeIdx(n int) []int32 {
	if p, ok := idxPool.Get().(*[]int32); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]int32, n)
}

// release gives the tables of h back to their pools; h is not used
// after.
func (h *tableHits) release() {
	if h == nil {
		return
	}
	idx := h.idx
	for _, doc := range h.docs { // the entries add set
		idx[doc] = 0
	}
	idxPool.Put(&idx)
	for _, d := range [][]int64{h.docs, h.origin} {
		if cap(d) > 0 {
			docsPool.Put(&d)
		}
	}
	for i := range h.freq {
		freq, flags := h.freq[i], h.flags[i]
		freqPool.Put(&freq)
		flagsPool.Put(&flags)
	}
	h.idx, h.freq, h.flags, h.docs, h.origin = nil, nil, nil, nil, nil
}

// rowChunk is how many rows' counts tableHits allocates at a time: a
// table grown by copying would copy megabytes many times over.
const rowChunk = 1024

// row returns the index in docs of rowid doc.
func (h *tableHits) row(doc int64) (int32, bool) {
	if doc < 0 || doc >= int64(len(h.idx)) || h.idx[doc] == 0 {
		return 0, false
	}
	return h.idx[doc] - 1, true
}

// exactWeights reports whether every weight is a multiple of 1/1024 and
// below 2^20: the sum of such weights over any number of instances is
// exact in float64, in any order, so that summing by column gives the
// same bits as bm25's sum by instance.
func exactWeights(weights []float64) bool {
	for _, w := range weights {
		if w < 0 || w >= 1<<20 || w*1024 != float64(int64(w*1024)) {
			return false
		}
	}
	return true
}

// flagsOf returns the flags of row r, per phrase.
func (h *tableHits) flagsOf(r int32) []uint8 {
	at := int(r%rowChunk) * h.n
	return h.flags[r/rowChunk][at : at+h.n]
}

// freqOf returns the frequencies of row r, per phrase.
func (h *tableHits) freqOf(r int32) []float64 {
	at := int(r%rowChunk) * h.n
	return h.freq[r/rowChunk][at : at+h.n]
}

// idf returns the phrases' inverse document frequencies as bm25 has them,
// computed by SQLite (its ln() is the log() FTS5 calls).
func idf(ctx context.Context, conn *readTx, st *ftsStats, docHit []int64) ([]float64, error) {
	out := make([]float64, len(docHit))
	if len(docHit) == 0 {
		return out, nil
	}
	cols := make([]string, len(docHit))
	args := make([]any, len(docHit))
	dest := make([]any, len(docHit))
	for i, n := range docHit {
		cols[i] = "ln(?)"
		args[i] = idfRatio(st, n)
		dest[i] = &out[i]
	}
	if err := conn.QueryRowContext(ctx, "SELECT "+strings.Join(cols, ", "), args...).Scan(dest...); err != nil {
		return nil, err
	}
	for i, v := range out {
		out[i] = idfFloor(v)
	}
	return out, nil
}

// idfRatio is what bm25's idf of a phrase in n of the table's rows is the
// logarithm of.
func idfRatio(st *ftsStats, n int64) float64 {
	return (float64(st.rows-n) + 0.5) / (float64(n) + 0.5)
}

// idfFloor is FTS5's floor under an idf: a phrase in more than half the
// rows still adds a little.
func idfFloor(v float64) float64 {
	if v <= 0 {
		return 1e-6
	}
	return v
}

// bm25 is FTS5's bm25() of row r, written as fts5Bm25Function computes it.
func (h *tableHits) bm25(r int32, size []int32, st *ftsStats, idf []float64) float64 {
	k1, b := bm25K1, bm25B
	k1p := k1 + 1.0
	d := 0.0
	if doc := h.docs[r]; doc < int64(len(size)) {
		d = float64(size[doc])
	}
	norm := float64(k1 * (float64(1-b) + float64(b*d)/st.avgdl))
	score := 0.0
	for i, f := range h.freqOf(r) {
		if f == 0 {
			continue // adds +0
		}
		score += float64(idf[i] * (float64(f*k1p) / (f + norm)))
	}
	return -1.0 * score
}

// scopeDocs returns the rowids of the notes of ids, as a set.
func scopeDocs(ctx context.Context, conn *readTx, ids []string) (map[int64]bool, error) {
	if ids == nil {
		return nil, nil
	}
	list, _ := json.Marshal(ids) // strings always marshal
	rows, err := conn.QueryContext(ctx, `SELECT doc FROM notes WHERE id IN (SELECT value FROM json_each(?))`, string(list))
	out := map[int64]bool{}
	got, err := scanRows(rows, err, func(rows *sql.Rows, d *int64) error { return rows.Scan(d) })
	for _, d := range got {
		out[d] = true
	}
	return out, err
}

// topkScope is the notes a search may return (Keyword's IDs and
// Exclude, as rowid sets).
type topkScope struct{ in, out map[int64]bool }

func (sc topkScope) keeps(doc int64) bool {
	return (sc.in == nil || sc.in[doc]) && !sc.out[doc]
}
