package store

import (
	"context"
	"database/sql"
	"encoding/json"
)

// Each note's length in tokens, for bm25, comes from the table's
// %_docsize rows; under writes, reading all of them again for each state
// of the table would be a large part of every search. A
// contentless_delete table gives each row the origin of the segment its
// insert is flushed to, and FTS5 numbers those in order: a row written
// or written again since a state has an origin above every origin of
// that state. So once every row's length is known at one state, the
// lengths at a later one are those with the rows of higher origin read
// again; a deleted row's stale length is never asked for, as no match
// names it. "Later" is told by snapgen.n, which counts every change to
// the notes table and with it nearly every write of the full-text rows;
// 'delete-all', which starts the origins over, is only run by Reset,
// which forgets the lengths kept (rankCache.forget).

// docSizes returns the length in tokens of the rows of table (of
// ftsStats st) as a slice by rowid: every row's, read once per state of
// the table and kept, or brought up to date from an earlier state's;
// only those of docs (the rows needed, with origins, the newest origin
// of the segments each was read from), when they are few.
func (s *Store) docSizes(ctx context.Context, conn *readTx, table string, st *ftsStats, docs, origins []int64) ([]int32, bool, error) {
	s.ranks.mu.Lock()
	size, base := st.size, s.ranks.sized[table]
	s.ranks.mu.Unlock()
	if size != nil {
		return size, true, nil
	}
	gen := int64(-1)
	if err := conn.QueryRowContext(ctx, "SELECT n FROM snapgen").Scan(&gen); err != nil {
		gen = -1 // an index without the change count: no base is used
	}
	// Only from a base strictly older: a write that changes only the
	// anchor text moves no count, and a state of the same count may be
	// older than the base.
	if base != nil && base.low == st.low && gen >= 0 && base.gen >= 0 && gen > base.gen {
		if size, ok, err := s.sizesSince(ctx, conn, table, st, base, docs, origins); err != nil || ok {
			return size, ok, err
		}
		size, ok, err := s.patchSizes(ctx, conn, table, st, base, gen)
		if err != nil || ok {
			return size, ok, err
		}
	}
	all := manySizes(len(docs), st)
	size = make([]int32, st.ids)
	var origin int64
	ok, err := false, error(nil)
	if all {
		ok, err = readSizes(ctx, conn, `SELECT id, sz, origin FROM `+table+`_docsize`, nil, st.ids, size, &origin)
	}
	if !all || err != nil {
		// Only docs are needed, or the table has no origins (not
		// contentless_delete).
		query, args := `SELECT id, sz, 0 FROM `+table+`_docsize`, []any(nil)
		if !all {
			list, _ := json.Marshal(docs) // numbers always marshal
			query, args = query+` WHERE id IN (SELECT value FROM json_each(?))`, []any{string(list)}
		}
		gen = -1
		ok, err = readSizes(ctx, conn, query, args, st.ids, size, &origin)
	}
	if err != nil || !ok {
		return nil, ok, err
	}
	if all {
		s.keepSizes(table, st, size, origin, gen, &s.ranks.allSizes)
	}
	return size, true, nil
}

// patchSizes returns the rows' lengths at st from those kept at base, an
// earlier state (gen is st's change count): the rows of higher origin
// than base's read again. ok is false when a row is out of range.
func (s *Store) patchSizes(ctx context.Context, conn *readTx, table string, st, base *ftsStats, gen int64) ([]int32, bool, error) {
	size := make([]int32, st.ids)
	copy(size, base.size)
	origin := base.origin
	ok, err := readSizes(ctx, conn, `SELECT id, sz, origin FROM `+table+`_docsize WHERE origin > ?`, []any{base.origin}, st.ids, size, &origin)
	if err != nil || !ok {
		return nil, false, err
	}
	s.keepSizes(table, st, size, origin, gen, &s.ranks.patches)
	return size, true, nil
}

// keepSizes keeps size as st's rows' lengths, and st as the table's
// base for later states when it is the newest known; it counts the read
// in *reads (of s.ranks).
func (s *Store) keepSizes(table string, st *ftsStats, size []int32, origin, gen int64, reads *int) {
	s.ranks.mu.Lock()
	defer s.ranks.mu.Unlock()
	*reads++
	st.size = size
	if gen < 0 {
		return
	}
	st.origin, st.gen = origin, gen
	if s.ranks.sized == nil {
		s.ranks.sized = map[string]*ftsStats{}
	}
	// A later generation (after a Reset elsewhere) has a higher lowest
	// doc (rankCache.sameDocs).
	if b := s.ranks.sized[table]; b == nil || b.low < st.low || b.low == st.low && b.gen <= gen {
		s.ranks.sized[table] = st
	}
}

// readSizes reads the rows query selects (id, sz, origin) of a
// docsize table into size (ids long), and the largest origin into *origin; ok
// is false for a row out of range or a bad record.
func readSizes(ctx context.Context, conn *readTx, query string, args []any, ids int64, size []int32, origin *int64) (bool, error) {
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var sz sql.RawBytes
	for rows.Next() {
		var id, o int64
		if err := rows.Scan(&id, &sz, &o); err != nil {
			return false, err
		}
		if id < 0 || id >= ids {
			return false, nil
		}
		var d int64
		for b := []byte(sz); len(b) > 0; {
			v, n := getVarint(b)
			if n == 0 {
				return false, nil
			}
			d, b = d+int64(v), b[n:]
		}
		size[id] = int32(d)
		*origin = max(*origin, o)
	}
	return true, rows.Err()
}

// sizesSince returns the lengths of docs at st from those kept at base,
// an earlier state, for this search alone: only the docs read from
// segments newer than base's are read again, by rowid, unless kept from
// such a read already (lenCache). ok is false when a doc's origin is
// unknown, or more docs than manySizes allows are newer.
func (s *Store) sizesSince(ctx context.Context, conn *readTx, table string, st, base *ftsStats, docs, origins []int64) ([]int32, bool, error) {
	var newer []int64
	type kept struct {
		doc  int64
		size int32
	}
	var known []kept
	for i, doc := range docs {
		switch o := origins[i]; {
		case o <= 0:
			return nil, false, nil
		case o > base.origin:
			if n, ok := s.ranks.lens.get(lenKey{table, conn.low, doc}, o); ok {
				known = append(known, kept{doc, n})
			} else {
				newer = append(newer, doc)
			}
		}
	}
	if manySizes(len(newer), st) {
		return nil, false, nil
	}
	size := make([]int32, st.ids)
	copy(size, base.size)
	for _, k := range known {
		size[k.doc] = k.size
	}
	if len(newer) == 0 {
		return size, true, nil
	}
	list, _ := json.Marshal(newer) // numbers always marshal
	var origin int64
	ok, err := readSizes(ctx, conn, `SELECT id, sz, origin FROM `+table+`_docsize WHERE id IN (SELECT value FROM json_each(?))`, []any{string(list)}, st.ids, size, &origin)
	if err != nil || !ok {
		return nil, false, err
	}
	s.ranks.mu.Lock()
	s.ranks.sinceRows += len(newer)
	s.ranks.mu.Unlock()
	// The newest origin of the segments of table as conn reads them.
	var newest int64
	if f := conn.readers[table]; f != nil {
		for _, sg := range f.segs {
			newest = max(newest, sg.origin2)
		}
	}
	if newest > 0 {
		for _, doc := range newer {
			s.ranks.lens.put(lenKey{table, conn.low, doc}, size[doc], newest)
		}
	}
	return size, true, nil
}

// manySizes reports whether n rows' lengths are better read with every
// row's than by rowid: a scan of every row costs about as much as
// reading a thirty-second of them by rowid (and it is kept, for later
// states too).
func manySizes(n int, st *ftsStats) bool {
	return int64(n) > st.rows/32
}
