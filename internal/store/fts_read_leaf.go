package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"slices"
)

// The leaf pages of an FTS5 segment (fts_read.go). A page starts with
// two big-endian 16-bit fields: the offset of its first rowid when one
// comes before its first term (else 0), and where its footer starts;
// the footer lists the offsets of the terms that start on the page. A
// term is a key (the index's prefix byte, '0' for the main index, then
// the token) written in full when first on its page, else as the bytes
// it shares with the one before and the rest; its doclist follows: the
// first rowid, then deltas, each with its position list (its size
// times two, plus one for a delete marker, then per column the
// positions, a column after the first marked by 0x01 and its number). A
// doclist, and a position list, may go on over the next pages.

// maxPositionList is more bytes than any position list takes: a longer
// one is a damaged page.
const maxPositionList = 1 << 30

// mainKeyPrefix starts the keys of FTS5's main index.
const mainKeyPrefix = '0'

// leafPage is a leaf page split into its parts.
type leafPage struct {
	p      []byte
	rowid  int   // offset of the first rowid before the first term, or 0
	size   int   // where the footer starts
	terms  []int // offsets of the terms that start on the page
	broken bool
}

func parseLeaf(p []byte) leafPage {
	lp := leafPage{p: p}
	if len(p) < 4 {
		lp.broken = true
		return lp
	}
	lp.rowid, lp.size = int(binary.BigEndian.Uint16(p)), int(binary.BigEndian.Uint16(p[2:]))
	if lp.size < 4 || lp.size > len(p) || lp.rowid != 0 && (lp.rowid < 4 || lp.rowid >= lp.size) {
		lp.broken = true
		return lp
	}
	at := 0
	for r := (varintReader{b: p[lp.size:]}); r.i < len(r.b); {
		at += int(r.next())
		if r.bad || at < 4 || at >= lp.size {
			lp.broken = true
			return lp
		}
		lp.terms = append(lp.terms, at)
	}
	return lp
}

// end is where the doclist data that starts on the page before its
// term k (k = -1: before its first term) ends.
func (lp leafPage) end(k int) int {
	if k+1 < len(lp.terms) {
		return lp.terms[k+1]
	}
	return lp.size
}

// doclistReader decodes a doclist given in parts, page by page.
type doclistReader struct {
	rowid int64
	pl    []byte // the position list read so far
	need  int    // its bytes still to come
	open  bool   // a position list is being read
	bad   bool
	emit  func(*ftsPosting) bool // false: not expected, give up
	// skip, when set, reports the rows whose position lists are not
	// needed: they are emitted with skipped set, their counts zero.
	skip    func(rowid int64) bool
	passing bool       // the open position list is skipped, not read
	p       ftsPosting // the posting emitted, reused
}

// feed decodes b: the rest of the open position list, then entries, the
// first rowid absolute when abs is set.
func (d *doclistReader) feed(b []byte, abs bool) {
	i := 0
	if d.open {
		take := min(d.need, len(b))
		if !d.passing {
			d.pl = append(d.pl, b[:take]...)
		}
		d.need -= take
		i = take
		if d.need == 0 {
			d.open = false
			if !d.passing {
				d.done(d.pl)
			}
		}
	}
	first := true
	for i < len(b) && !d.bad {
		v, n := getVarint(b[i:])
		if n == 0 {
			d.bad = true
			return
		}
		if first && abs {
			d.rowid = 0
		}
		d.rowid += int64(v)
		first = false
		i += n
		sz, n := getVarint(b[i:])
		// Cut short, a delete marker, or longer than any position list.
		if n == 0 || sz&1 == 1 || sz>>1 > maxPositionList {
			d.bad = true
			return
		}
		i += n
		size := int(sz >> 1)
		d.passing = d.skip != nil && d.skip(d.rowid)
		if d.passing {
			d.p = ftsPosting{rowid: d.rowid, skipped: true}
			if !d.emit(&d.p) {
				d.bad = true
				return
			}
		}
		if size <= len(b)-i {
			if !d.passing {
				d.done(b[i : i+size])
			}
			i += size
			continue
		}
		// The position list goes on over the next page.
		d.need, d.open = size-(len(b)-i), true
		if !d.passing {
			d.pl = append(d.pl[:0], b[i:]...)
		}
		i = len(b)
	}
}

// done counts the instances per column of the position list pl: its
// varints, but for the column markers (0x01 and a column number).
func (d *doclistReader) done(pl []byte) {
	d.p = ftsPosting{rowid: d.rowid}
	p := &d.p
	col, run := 0, 0
	for j := 0; j < len(pl); j++ {
		c := pl[j]
		if run == 0 && c == 0x01 {
			v, n := getVarint(pl[j+1:])
			if n == 0 || v >= uint64(len(p.counts)) {
				d.bad = true
				return
			}
			col, j = int(v), j+n
			continue
		}
		if c < 0x80 {
			p.counts[col]++
			run = 0
		} else if run++; run >= 8 {
			d.bad = true // a position that large is not expected
			return
		}
	}
	if run != 0 || !d.emit(p) {
		d.bad = true
	}
}

// scanSegment reads the doclists of the tokens of one segment that are
// sc's token or, with its prefix, start with it, and hands their rows to
// found (false: not expected, give up); ok is false when it gives up.
func (f *ftsReader) scanSegment(ctx context.Context, sg ftsSegment, sc *segmentScan, found func(string, *ftsPosting) bool) (bool, error) {
	sc.found = found
	start := sg.first
	var pgno int64
	err := f.conn.QueryRowContext(ctx, "SELECT pgno FROM "+f.table+"_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1", sg.id, sc.lo).Scan(&pgno)
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return false, err
	default:
		start = max(pgno>>1, sg.first)
	}
	ok, err := f.eachLeaf(ctx, sg, start, sc.page)
	if err != nil || !ok || sc.passed {
		return ok, err
	}
	return sc.d == nil || !sc.d.open, nil
}

// eachLeaf hands the leaf pages of sg from page from on, in order, to
// each until it reports done; ok is false when a page is missing or
// each gives up.
func (f *ftsReader) eachLeaf(ctx context.Context, sg ftsSegment, from int64, each func(p []byte) (done, ok bool)) (bool, error) {
	rows, err := f.conn.QueryContext(ctx, "SELECT id, block FROM "+f.table+"_data WHERE id >= ? AND id <= ?", segRowid(sg.id, from), segRowid(sg.id, sg.last))
	if err != nil {
		return false, err
	}
	defer rows.Close()
	for want := from; rows.Next(); want++ {
		var id int64
		var p []byte
		if err := rows.Scan(&id, &p); err != nil {
			return false, err
		}
		if id != segRowid(sg.id, want) {
			return false, nil // a page missing
		}
		if done, ok := each(p); !ok || done {
			return ok, nil
		}
	}
	return true, rows.Err()
}

// segmentScan is scanSegment's state between pages.
type segmentScan struct {
	lo     []byte // the key of the token
	prefix bool
	found  func(string, *ftsPosting) bool
	skip   func(int64) bool // see doclistReader
	key    []byte           // the last term's key
	d      *doclistReader   // the doclist being read, across pages
	passed bool             // a term after the tokens asked for was seen
}

// page reads one leaf page: past is set once a term after the tokens
// asked for is seen, ok cleared when the page is not as expected.
func (sc *segmentScan) page(p []byte) (past, ok bool) {
	lp := parseLeaf(p)
	if lp.broken {
		return false, false
	}
	if d := sc.d; d != nil { // the doclist goes on over this page
		end := lp.end(-1)
		if lp.rowid == 0 {
			if !d.open && end > 4 {
				return false, false
			}
			d.feed(p[4:end], false)
		} else {
			if d.need != lp.rowid-4 {
				return false, false
			}
			d.feed(p[4:lp.rowid], false)
			d.feed(p[lp.rowid:end], true)
		}
		if d.bad || len(lp.terms) > 0 && d.open {
			return false, false
		}
		if len(lp.terms) == 0 {
			return false, true
		}
		sc.d = nil
	}
	for k, at := range lp.terms {
		r := varintReader{b: p[:lp.end(k)], i: at}
		var shared uint64
		if k > 0 {
			shared = r.next()
		}
		n := r.next()
		if r.bad || shared > uint64(len(sc.key)) || n > uint64(len(r.b)-r.i) {
			return false, false
		}
		sc.key = append(sc.key[:shared], p[r.i:r.i+int(n)]...)
		r.i += int(n)
		c := bytes.Compare(sc.key, sc.lo)
		if c != 0 && !(sc.prefix && bytes.HasPrefix(sc.key, sc.lo)) {
			if c > 0 {
				sc.passed = true
				return true, true // past the tokens asked for
			}
			continue
		}
		tok, found := string(sc.key[1:]), sc.found
		sc.d = &doclistReader{emit: func(p *ftsPosting) bool { return found(tok, p) }, skip: sc.skip}
		sc.d.feed(p[r.i:lp.end(k)], true)
		if sc.d.bad || k+1 < len(lp.terms) && sc.d.open {
			return false, false
		}
		if k+1 < len(lp.terms) {
			sc.d = nil
		}
	}
	return false, true
}

// pages returns about how many leaf pages the rows of token (or, with
// prefix, of the tokens it starts) take in the index: per segment, from
// the page its page index gives for the first key to the one it gives
// for the first key after them.
func (f *ftsReader) pages(ctx context.Context, token string, prefix bool) (int64, error) {
	lo := append([]byte{mainKeyPrefix}, token...)
	hi := append(slices.Clone(lo), 0) // the first key after lo
	if prefix && len(token) > 0 && token[len(token)-1] < 0xff {
		hi = slices.Clone(lo)
		hi[len(hi)-1]++ // the first key lo does not start
	}
	var total int64
	for _, sg := range f.segs {
		if small(sg) {
			total++
			continue
		}
		// The estimate is kept in f.cache with the segment's reads.
		id, keep := sg.ident()
		keep = keep && f.cache != nil
		k := segReadKey{table: f.table, gen: f.conn.low, seg: id, token: token, prefix: prefix}
		if keep {
			if r := f.cache.get(k); r != nil && r.pages >= 0 {
				total += r.pages
				continue
			}
		}
		var from, to sql.NullInt64
		err := f.conn.QueryRowContext(ctx, `SELECT (SELECT pgno FROM `+f.table+`_idx WHERE segid = ?1 AND term <= ?2 ORDER BY term DESC LIMIT 1),
			(SELECT pgno FROM `+f.table+`_idx WHERE segid = ?1 AND term >= ?3 ORDER BY term LIMIT 1)`, sg.id, lo, hi).Scan(&from, &to)
		if err != nil {
			return 0, err
		}
		start, end := sg.first, sg.last+1
		if from.Valid {
			start = max(from.Int64>>1, sg.first)
		}
		if to.Valid {
			end = to.Int64 >> 1
		}
		n := max(end-start, 0) + 1
		if keep {
			f.cache.put(k, nil, n)
		}
		total += n
	}
	return total, nil
}
