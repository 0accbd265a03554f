package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"slices"
	"sync"
)

// Postings kept between searches. A segment of an FTS5 index does not
// change once written: a write adds a new segment, a merge writes a new
// one and deletes its inputs; only the rowids deleted from it since
// (tombstones) are added, and those are kept by their count
// (ftsReader.tombstones). Under writes, a search would otherwise read
// every segment's pages of its tokens again after each commit, where
// only the few new small segments differ. So the rows each read finds in
// a segment (ftsReader.scan), and the pages it estimates the read at
// (ftsReader.pages), are kept by segment and read.
//
// A segment is named by its id, first and last page and the origins of
// the writes it holds (a structure record of a contentless_delete
// table lists them): FTS5 numbers its flushes in order, so a segment id
// used again holds other origins, and a merge's output, which grows
// page by page at the end, has a new last page each time it grows. The
// inputs of a merge under way are never kept: their first page is
// written again, at the same page number, each time the merge takes
// more of them. Without origins (an older table), nothing is kept.

// segmentCacheBytes bounds the bytes segCache holds (a read of more
// than a quarter of it is not kept).
const segmentCacheBytes = 4 << 20

// segReadKey names one read of one segment: the rows of token (or of the
// tokens it starts, with prefix) in the segment, of the index whose
// lowest doc is gen (readTx.low).
type segReadKey struct {
	table  string
	gen    int64
	seg    segIdent
	token  string
	prefix bool
	whole  bool // every row of a small segment (scanSmall), not a read
	// tombs is, for the segment's tombstones (segRead.dead), not a
	// read, 1 + the tombstones added to it.
	tombs int64
}

// segIdent names a segment's content (see above).
type segIdent struct{ id, first, last, origin1, origin2 int64 }

// segRead is what a read of a segment found: the tokens and, per token,
// its rows, encoded (segRead.add); pages is the read's page estimate,
// -1 until asked.
type segRead struct {
	toks  []string
	ends  []int // per token, the end of its rows in data
	data  []byte
	pages int64
	rows  bool // the rows were read (toks, ends and data)
	used  uint64
	// dead are a segment's tombstones (tombs keys).
	dead *tombSet
	// prev is the last rowid added; unsorted is set when a token's
	// rowids did not go up (not expected: the read is not kept).
	prev     int64
	unsorted bool
}

// size is about the bytes r holds.
func (r *segRead) size(k segReadKey) int {
	n := 96 + len(k.table) + len(k.token) + cap(r.data) + 8*cap(r.ends)
	for _, t := range r.toks {
		n += 16 + len(t)
	}
	return n + r.dead.size()
}

// add records a row of token tok: the rowid, as a delta from the row
// before of the same token, then a byte with a bit per column that has
// instances, then their counts.
func (r *segRead) add(tok string, p *ftsPosting) {
	if len(r.toks) == 0 || r.toks[len(r.toks)-1] != tok {
		r.toks = append(r.toks, tok)
		r.ends = append(r.ends, len(r.data))
		r.prev = 0
	} else if p.rowid <= r.prev {
		r.unsorted = true
	}
	r.data = binary.AppendUvarint(r.data, uint64(p.rowid-r.prev))
	r.prev = p.rowid
	var mask byte
	for c, n := range p.counts {
		if n != 0 {
			mask |= 1 << c
		}
	}
	r.data = append(r.data, mask)
	for _, n := range p.counts {
		if n != 0 {
			r.data = binary.AppendUvarint(r.data, uint64(n))
		}
	}
	r.ends[len(r.ends)-1] = len(r.data)
}

// replayRange hands found the rows r holds of tokens [from, to) of
// r.toks, as the segment's read did; ok is false when found gives up.
func (r *segRead) replayRange(from, to int, found func(string, *ftsPosting) bool) bool {
	var p ftsPosting
	at := 0
	if from > 0 {
		at = r.ends[from-1]
	}
	for i := from; i < to; i++ {
		tok := r.toks[i]
		var rowid int64
		for at < r.ends[i] {
			d, n := binary.Uvarint(r.data[at:])
			at += n
			rowid += int64(d)
			mask := r.data[at]
			at++
			p = ftsPosting{rowid: rowid}
			for c := range p.counts {
				if mask&(1<<c) != 0 {
					v, n := binary.Uvarint(r.data[at:])
					at += n
					p.counts[c] = int32(v)
				}
			}
			if !found(tok, &p) {
				return false
			}
		}
	}
	return true
}

// segCache keeps segment reads, at most segmentCacheBytes of them, the
// least recently used dropped first.
type segCache struct {
	mu    sync.Mutex
	reads map[segReadKey]*segRead
	bytes int
	tick  uint64
	// hits and misses count the reads of rows replayed and made, and
	// tombReads the reads of tombstone pages, for tests.
	hits, misses, tombReads int
	// wanted are the reads asked for and not kept (wantedBefore), at
	// most maxWanted.
	wanted map[segReadKey]uint8
}

// get returns the read of k kept, or nil.
func (c *segCache) get(k segReadKey) *segRead {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.reads[k]
	if r != nil {
		c.tick++
		r.used = c.tick
	}
	return r
}

// rowsOf returns the rows kept under the first of keys that has them,
// or nil; it counts the hit or miss.
func (c *segCache) rowsOf(keys ...segReadKey) *segRead {
	for _, k := range keys {
		if r := c.get(k); r != nil && r.rows {
			c.mu.Lock()
			c.hits++
			c.mu.Unlock()
			return r
		}
	}
	c.mu.Lock()
	c.misses++
	c.mu.Unlock()
	return nil
}

// put keeps what a read of k found: rows (when not nil) or pages (when
// not negative), beside what is kept of k already.
func (c *segCache) put(k segReadKey, rows *segRead, pages int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &segRead{pages: -1}
	if old := c.reads[k]; old != nil {
		*r = *old
	}
	if rows != nil {
		r.toks, r.ends, r.data, r.rows = rows.toks, rows.ends, rows.data, true
	}
	if pages >= 0 {
		r.pages = pages
	}
	c.keep(k, r)
}

// putWhole keeps r, a small segment's rows (a whole key) or tombstones.
func (c *segCache) putWhole(k segReadKey, r *segRead) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.keep(k, r)
}

// keep puts r in place of what is kept of k, unless it holds more than a
// quarter of segmentCacheBytes (it is then read each time); c.mu is held.
func (c *segCache) keep(k segReadKey, r *segRead) {
	if old := c.reads[k]; old != nil {
		c.bytes -= old.size(k)
		delete(c.reads, k)
	}
	size := r.size(k)
	if size > segmentCacheBytes/4 {
		return
	}
	if c.reads == nil {
		c.reads = map[segReadKey]*segRead{}
	}
	c.tick++
	r.used = c.tick
	c.reads[k] = r
	c.bytes += size
	if c.bytes <= segmentCacheBytes {
		return
	}
	// The least recently used reads go until a quarter of the bytes is
	// free.
	keys := make([]segReadKey, 0, len(c.reads))
	for k := range c.reads {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b segReadKey) int { return cmp.Compare(c.reads[a].used, c.reads[b].used) })
	for _, k := range keys {
		if c.bytes <= segmentCacheBytes*3/4 {
			break
		}
		c.bytes -= c.reads[k].size(k)
		delete(c.reads, k)
	}
}

// maxWanted bounds segCache.wanted.
const maxWanted = 4096

// wantedBefore reports whether k was asked for twice before, and notes
// that it is now.
func (c *segCache) wantedBefore(k segReadKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wanted[k] >= 2 {
		return true
	}
	if c.wanted == nil || len(c.wanted) >= maxWanted {
		c.wanted = map[segReadKey]uint8{}
	}
	c.wanted[k]++
	return false
}

// forget drops every read kept.
func (c *segCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads, c.bytes = nil, 0
}

// scanKept is scanSegment for the rows of token (prefix: of the tokens
// it starts) in sg, with its rows kept in f.cache: replayed when kept,
// else, for a segment asked for twice before, read whole (skip is
// applied to what the read finds: the rows it names come without their
// instances) and kept. A small segment's rows are all kept at once
// (scanSmall).
func (f *ftsReader) scanKept(ctx context.Context, sg ftsSegment, token string, prefix bool, skip func(int64) bool, found func(string, *ftsPosting) bool) (bool, error) {
	sc := segmentScan{lo: append([]byte{mainKeyPrefix}, token...), prefix: prefix}
	id, keep := sg.ident()
	if f.cache == nil || !keep {
		sc.skip = skip
		return f.scanSegment(ctx, sg, &sc, found)
	}
	emit := found
	if skip != nil {
		var skipped ftsPosting // reused: found does not keep it
		emit = func(tok string, p *ftsPosting) bool {
			if skip(p.rowid) {
				skipped = ftsPosting{rowid: p.rowid, skipped: true}
				return found(tok, &skipped)
			}
			return found(tok, p)
		}
	}
	if small(sg) {
		return f.scanSmall(ctx, sg, id, token, prefix, emit)
	}
	k := segReadKey{table: f.table, gen: f.conn.low, seg: id, token: token, prefix: prefix}
	// A read that saw a later token in the segment is kept without its
	// last page: a merge's output grows at its end only, so those rows
	// stay as they are while it grows.
	passed := k
	passed.seg.last = -1
	if r := f.cache.rowsOf(passed, k); r != nil {
		return r.replayRange(0, len(r.toks), emit), nil
	}
	if !f.cache.wantedBefore(k) {
		// A read of a large segment asked for once or twice (a query
		// not seen before, or asked in two modes) is read as without
		// the cache (a narrowed one decodes only the rows it needs); it
		// is kept when asked for again.
		sc.skip = skip
		return f.scanSegment(ctx, sg, &sc, found)
	}
	rec := &segRead{}
	record := func(tok string, p *ftsPosting) bool {
		rec.add(tok, p)
		if f.stopped {
			return true // the caller has what it asked for: read on, to keep it all
		}
		return emit(tok, p) || f.stopped
	}
	ok, err := f.scanSegment(ctx, sg, &sc, record)
	if err == nil && ok && !rec.unsorted {
		if sc.passed {
			k = passed
		}
		f.cache.put(k, rec, -1)
	}
	return ok, err
}
