package store

import (
	"bytes"
	"context"
)

// A reader of FTS5's own index (its %_data and %_idx tables), so that
// Keyword's ranking in Go (search_topk.go) reads a token's postings a
// page per row, where fts5vocab hands them over one instance per row.
// The format is FTS5's file format (fts5_index.c, which SQLite keeps
// compatible): a structure record listing the segments, each a run of
// leaf pages holding terms (prefix-compressed) and their doclists (rowid
// deltas and position lists), a b-tree (%_idx) of each leaf's first
// term, and per segment the rowids deleted from it since (tombstones,
// for contentless_delete tables). Anything the reader does not expect (a
// delete marker, a page cut short) makes it give up, and the search is
// ranked by SQL.

// ftsSegment is a segment of an FTS5 index, as the structure record
// lists it.
type ftsSegment struct {
	id, first, last  int64
	origin1, origin2 int64 // 0 when the record lists none
	tombPages        int64
	// tombEntries counts the tombstones added to the segment: each
	// delete adds one (see segReadKey.tombs).
	tombEntries int64
	// input is set for an input of a merge under way, whose first page
	// is written again as the merge goes on.
	input bool
}

// ident names the segment's content for segCache; ok is false when it
// cannot (no origins, or an input of a merge under way).
func (sg ftsSegment) ident() (segIdent, bool) {
	return segIdent{sg.id, sg.first, sg.last, sg.origin1, sg.origin2}, sg.origin2 > 0 && !sg.input
}

// ftsStructure are an index's segments, newest first: a rowid found in
// several (deleted and written again) counts from the newest.
type ftsStructure []ftsSegment

// ftsMaxLevels is the most levels an FTS5 structure record has
// (FTS5_MAX_LEVEL).
const ftsMaxLevels = 64

// ftsStructureV2 starts the rest of a structure record that lists each
// segment's origins and tombstones (contentless_delete tables).
var ftsStructureV2 = []byte{0xff, 0x00, 0x00, 0x01}

// parseStructureMerging reads a structure record, merges under way
// included (merging reports one). FTS5 merges a level's oldest segments
// into the newest segment of the next level a few pages at a time, and
// stops between two tokens: the output segment then holds every token
// before that one, whole, and each input segment only the tokens from
// that one on: its pages before the token are gone, its first page
// written again to start with it (fts5TrimSegments), or, once all of it
// is taken, it is empty (first and last page 0). Every row of a token is
// thus in one segment still, and read as in any other.
func parseStructureMerging(b []byte) (segs ftsStructure, merging, ok bool) {
	if len(b) < 4 {
		return nil, false, false
	}
	b = b[4:] // the configuration cookie
	v2 := bytes.HasPrefix(b, ftsStructureV2)
	if v2 {
		b = b[4:]
	}
	r := varintReader{b: b}
	levels, _, _ := r.next(), r.next(), r.next() // levels, segments, write counter
	if levels > ftsMaxLevels {
		return nil, false, false
	}
	var byLevel [][]ftsSegment
	for range levels {
		merge, n := r.next(), r.next()
		// A segment takes at least three bytes: a damaged count must not
		// make the loop below run on past the record's end.
		if merge > n || r.bad || n > uint64(len(r.b)-r.i)/3 {
			return nil, false, false
		}
		merging = merging || merge > 0
		var level []ftsSegment
		for i := range n {
			sg := ftsSegment{id: int64(r.next()), first: int64(r.next()), last: int64(r.next())}
			if v2 {
				sg.origin1, sg.origin2 = int64(r.next()), int64(r.next())
				sg.tombPages = int64(r.next())
				sg.tombEntries = int64(r.next())
				r.next() // entries
			}
			input := i < merge // an input of the merge: trimmed, or empty
			sg.input = input
			switch {
			case input && sg.first == 0 && sg.last == 0:
				continue // all of it merged: no rows
			case sg.last < sg.first || sg.first < 1 || sg.first != 1 && !input:
				return nil, false, false
			}
			level = append(level, sg)
		}
		byLevel = append(byLevel, level)
	}
	if r.bad || r.i != len(r.b) {
		return nil, false, false
	}
	for _, level := range byLevel { // level 0 is the newest
		for i := len(level) - 1; i >= 0; i-- { // the last of a level is its newest
			segs = append(segs, level[i])
		}
	}
	return segs, merging, true
}

// varintReader reads SQLite varints off b; bad is set when b ends
// inside one.
type varintReader struct {
	b   []byte
	i   int
	bad bool
}

func (r *varintReader) next() uint64 {
	v, n := getVarint(r.b[r.i:])
	if n == 0 {
		r.bad = true
		return 0
	}
	r.i += n
	return v
}

// getVarint decodes the SQLite varint at the start of b and returns it
// and its length; 0, 0 when b ends inside it.
func getVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9 && i < len(b); i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// segRowid is the %_data rowid of page pgno of segment seg, and
// tombRowid that of page pgno of its tombstones (FTS5_SEGMENT_ROWID,
// FTS5_TOMBSTONE_ROWID).
func segRowid(seg, pgno int64) int64  { return seg<<37 + pgno }
func tombRowid(seg, pgno int64) int64 { return (seg+1<<16)<<37 + pgno }

// ftsPosting is a row a token is in, with its instances per column;
// skipped when its position list was not read (doclistReader.skip):
// the counts are then zero. The reader reuses it: found must not keep
// it.
type ftsPosting struct {
	rowid   int64
	counts  [len(ftsColumns)]int32
	skipped bool
}

// ftsReader reads the postings of one full-text table within a read
// transaction on conn.
type ftsReader struct {
	conn  *readTx
	table string
	cache *segCache // the segment reads kept between searches; nil: none
	segs  ftsStructure
	tombs []*tombSet // per segment, nil until read
	// owner is, per rowid, the serial of the last token scan found it
	// in: a token's row found twice is not expected.
	owner  []uint32
	serial uint32
	// origin is the newest origin of the segment scan reads (0: the
	// structure record lists none).
	origin int64
	// stopped is set by a caller of scanKept whose found gave up because
	// it has what it asked for, not because a row is not as expected.
	stopped bool
}

// scan hands found each row (with its instances) of each token of the
// index that is token or, with prefix, starts with it; ok is false when
// the index holds what the reader does not expect. Rows come segment by
// segment, not in rowid order. Rowids must be below rows. The rows
// skip reports (when not nil) come without their instances (skipped).
func (f *ftsReader) scan(ctx context.Context, token string, prefix bool, rows int64, skip func(int64) bool, found func(tok string, p *ftsPosting)) (bool, error) {
	if int64(len(f.owner)) < rows {
		f.takeOwner(int(rows))
	}
	serials := map[string]uint32{}
	for i, sg := range f.segs {
		dead, err := f.tombstones(ctx, i)
		if err != nil {
			return false, err
		}
		var last string
		var serial uint32
		f.origin = sg.origin2
		ok, err := f.scanKept(ctx, sg, token, prefix, skip, func(tok string, p *ftsPosting) bool {
			if dead.has(p.rowid) {
				return true
			}
			if p.rowid < 0 || p.rowid >= rows {
				return false
			}
			if tok != last || serial == 0 {
				last = tok
				if serial = serials[tok]; serial == 0 {
					f.serial++
					serial = f.serial
					serials[tok] = serial
				}
			}
			// A row of a token in two live segments is not expected.
			if f.owner[p.rowid] == serial {
				return false
			}
			f.owner[p.rowid] = serial
			found(tok, p)
			return true
		})
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// ownerTable is an ftsReader's owner table in ownerPool, with the last
// serial written to it: a reader that takes it goes on from that serial,
// so that the table needs no clearing.
type ownerTable struct {
	owner  []uint32
	serial uint32
}

// takeOwner gives f an owner table of at least rows rowids, from
// ownerPool when it has one large enough.
func (f *ftsReader) takeOwner(rows int) {
	f.release()
	t, ok := ownerPool.Get().(*ownerTable)
	if !ok || len(t.owner) < rows || t.serial > 1<<31 {
		t = &ownerTable{owner: make([]uint32, rows)}
	}
	f.owner, f.serial = t.owner, t.serial
}

// release gives the reader's table back to its pool; f is not used
// after.
func (f *ftsReader) release() {
	if f.owner != nil {
		ownerPool.Put(&ownerTable{owner: f.owner, serial: f.serial})
		f.owner = nil
	}
}
