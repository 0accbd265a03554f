package store

import (
	"context"
	"database/sql"
	"testing"
)

// FuzzFTSPages: no bytes, however damaged, make the reader of FTS5's
// pages panic or loop: a structure record, and a leaf page read alone,
// then as the continuation of the doclist it leaves open. The seeds are
// the real pages of an index of generated notes.
func FuzzFTSPages(f *testing.F) {
	ctx := context.Background()
	s, _ := openTemp(f)
	if err := s.Apply(ctx, &Batch{Upserts: benchNotes(120)}); err != nil {
		f.Fatal(err)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT block FROM fts_data WHERE id = 10 OR id > 1000 LIMIT 40")
	blocks, err := scanRows(rows, err, func(rows *sql.Rows, b *[]byte) error { return rows.Scan(b) })
	if err != nil {
		f.Fatal(err)
	}
	if len(blocks) < 3 {
		f.Fatalf("only %d pages", len(blocks))
	}
	for i, b := range blocks {
		f.Add(b, []string{"invoice", "re", "meeting", "zebra"}[i%4], i%3 == 0)
	}
	// A structure record claiming 2^63 levels, then cut short: the reader
	// looped over the levels (fixed: at most 64, and no more segments
	// than the bytes left can hold).
	f.Add([]byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "re", false)
	f.Fuzz(func(t *testing.T, page []byte, token string, prefix bool) {
		parseStructure(page)
		rowsFound := 0
		sc := segmentScan{lo: append([]byte{mainKeyPrefix}, token...), prefix: prefix,
			found: func(_ string, p *ftsPosting) bool { rowsFound++; return rowsFound < 1<<20 }}
		for range 2 { // the second time, as the next page of an open doclist
			if past, ok := sc.page(page); past || !ok {
				return
			}
		}
	})
}
