package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
)

// A segment's tombstones, kept between searches rather than read again
// by each search for every segment it meets. They change only by
// growing: FTS5 adds one to the segment's count of tombstones
// (nEntryTombstone, in the structure record) with each rowid it adds
// (sqlite3Fts5IndexContentlessDelete), and rebuilds the pages with the
// same rowids. So they are named by the segment and that count
// (segReadKey.tombs) in segCache; a set of them is a bit per rowid.

// maxTombBit bounds the bits of a tombSet: a rowid at or above it (not
// expected: rowids are docs, counted from 1) is kept in a map.
const maxTombBit = 1 << 24

// tombSet is a set of deleted rowids.
type tombSet struct {
	bits  []uint64
	above map[int64]bool // rowids not below maxTombBit
}

// add puts rowid in t.
func (t *tombSet) add(rowid int64) {
	if rowid < 0 || rowid >= maxTombBit {
		if t.above == nil {
			t.above = map[int64]bool{}
		}
		t.above[rowid] = true
		return
	}
	w := int(rowid >> 6)
	if w >= len(t.bits) {
		t.bits = append(t.bits, make([]uint64, w+1-len(t.bits))...)
	}
	t.bits[w] |= 1 << (rowid & 63)
}

// has reports whether rowid is in t (nil: an empty set).
func (t *tombSet) has(rowid int64) bool {
	if t == nil {
		return false
	}
	if uint64(rowid) < uint64(len(t.bits))*64 {
		return t.bits[rowid>>6]&(1<<(rowid&63)) != 0
	}
	return t.above[rowid]
}

// size is about the bytes t holds (segCache).
func (t *tombSet) size() int {
	if t == nil {
		return 0
	}
	return 48 + 8*cap(t.bits) + 32*len(t.above)
}

// tombstones returns the rowids deleted from segment i (nil: none).
func (f *ftsReader) tombstones(ctx context.Context, i int) (*tombSet, error) {
	sg := f.segs[i]
	if sg.tombPages == 0 || f.tombs[i] != nil {
		return f.tombs[i], nil
	}
	id, keep := sg.ident()
	keep = keep && f.cache != nil
	k := segReadKey{table: f.table, gen: f.conn.low, seg: id, tombs: 1 + sg.tombEntries}
	if keep {
		if r := f.cache.get(k); r != nil && r.dead != nil {
			f.tombs[i] = r.dead
			return r.dead, nil
		}
	}
	dead := &tombSet{}
	rows, err := f.conn.QueryContext(ctx, "SELECT block FROM "+f.table+"_data WHERE id >= ? AND id < ?",
		tombRowid(sg.id, 0), tombRowid(sg.id, sg.tombPages))
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var p []byte
		if err := rows.Scan(&p); err != nil {
			return err
		}
		if len(p) < 8 || (p[0] != 4 && p[0] != 8) {
			return fmt.Errorf("%s: tombstone page of %d bytes", f.table, len(p))
		}
		if p[1] != 0 {
			dead.add(0)
		}
		size := int(p[0])
		for at := 8; at+size <= len(p); at += size {
			var v uint64
			if size == 4 {
				v = uint64(binary.BigEndian.Uint32(p[at:]))
			} else {
				v = binary.BigEndian.Uint64(p[at:])
			}
			if v != 0 {
				dead.add(int64(v))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if keep {
		f.cache.putWhole(k, &segRead{pages: -1, dead: dead})
	}
	if f.cache != nil {
		f.cache.mu.Lock()
		f.cache.tombReads++
		f.cache.mu.Unlock()
	}
	f.tombs[i] = dead
	return dead, nil
}
