package store

import (
	"cmp"
	"database/sql"
	"fmt"
	"slices"
	"unsafe"
)

// anchorRowsPerScan bounds the link contexts refreshAllAnchors holds at
// once: past it, the targets are taken in several ranges of docs, one
// scan of the links each (in stored order, a scan that returns a quarter
// of the rows costs little more than the quarter). The contexts are held
// in one buffer, about 45 bytes a link. Tests make it small
// (Store.anchorRowsPerScan).
const anchorRowsPerScan int64 = 250_000

// anchorLink is one link that may give its target anchor text: the note
// it resolves to, the rank of its source note's ID among all IDs, its
// place in the source, and where its context is in the scan's buffer.
type anchorLink struct {
	target    int64
	rank, seq int32
	off, n    uint32
}

// compareAnchorLinks orders anchorLinks as refreshAnchor reads them: by
// target, then source note ID, then position.
func compareAnchorLinks(a, b anchorLink) int {
	return cmp.Or(cmp.Compare(a.target, b.target), cmp.Compare(a.rank, b.rank), cmp.Compare(a.seq, b.seq))
}

// anchorScratch holds the links of one scan and their contexts, one
// after another (a string each was most of what the scan allocated),
// reused by the next scan.
type anchorScratch struct {
	links []anchorLink
	buf   []byte
}

// refreshAllAnchors rewrites every row of fts_anchor, as refreshAnchor
// would one note at a time (a target's first MaxAnchorLinks links, by
// source note ID and position). It reads the links in the order they are
// stored, not through links_to: in target order, each link row is a
// random read of the links table.
func (w *writer) refreshAllAnchors() error {
	if _, err := w.exec("INSERT INTO fts_anchor(fts_anchor) VALUES('delete-all')"); err != nil {
		return err
	}
	ranks, err := w.noteRanks()
	if err != nil || len(ranks) <= 1 {
		return err
	}
	maxDoc := int64(len(ranks) - 1)
	// The links with a context, counted from the table the scans read
	// next, not from links_to, whose pages would add to a cold index's
	// peak RSS.
	var links int64
	if err := w.queryRow("SELECT count(*) FROM links WHERE context <> ''").Scan(&links); err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	scans := 1 + links/cmp.Or(w.anchorRowsPerScan, anchorRowsPerScan)
	step := maxDoc/scans + 1
	var sc anchorScratch // reused from one range to the next
	for lo := int64(1); lo <= maxDoc; lo += step {
		if err := w.refreshAnchorRange(ranks, lo, lo+step-1, &sc); err != nil {
			return err
		}
	}
	return nil
}

// noteRanks returns each note's rank among the notes' IDs in order, by
// doc, -1 for a doc no note has: its length is one more than the largest
// doc. A slice, not a map: refreshAnchorRange looks up two docs a link,
// and the docs are the numbers from 1 up that the notes were given.
func (w *writer) noteRanks() ([]int32, error) {
	rows, err := w.tx.QueryContext(w.ctx, "SELECT doc FROM notes ORDER BY id")
	var docs []int64
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var doc int64
		if err := rows.Scan(&doc); err != nil {
			return err
		}
		if doc < 0 {
			return fmt.Errorf("note doc %d", doc)
		}
		docs = append(docs, doc)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index anchor text: %w", err)
	}
	if len(docs) == 0 {
		return nil, nil
	}
	ranks := make([]int32, slices.Max(docs)+1)
	for i := range ranks {
		ranks[i] = -1
	}
	for rank, doc := range docs {
		ranks[doc] = int32(rank)
	}
	return ranks, nil
}

// rankOf returns the rank of the note doc (noteRanks), false when no note
// has it.
func rankOf(ranks []int32, doc int64) (int32, bool) {
	if doc < 0 || doc >= int64(len(ranks)) || ranks[doc] < 0 {
		return 0, false
	}
	return ranks[doc], true
}

// anchorScan reads the links that give the notes of a range of docs
// anchor text, in stored order. "+resolved" keeps SQLite from reading
// them through links_to (NOT INDEXED does not stop that on this WITHOUT
// ROWID table): in target order every row is a random read of the table.
const anchorScan = `SELECT source, seq, resolved, context FROM links
	WHERE +resolved BETWEEN ? AND ? AND context <> '' AND source <> resolved`

// refreshAnchorRange writes the fts_anchor rows of the notes whose doc is
// in [lo, hi], from one scan of the links in stored order: the links are
// gathered in sc and sorted by target, and each target's first
// MaxAnchorLinks give its text. A link to a pending note (resolved < 0),
// to itself or to a note since deleted gives no anchor text.
func (w *writer) refreshAnchorRange(ranks []int32, lo, hi int64, sc *anchorScratch) error {
	rows, err := w.tx.QueryContext(w.ctx, anchorScan, lo, hi)
	if err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	defer rows.Close()
	sc.links, sc.buf = sc.links[:0], sc.buf[:0]
	var context sql.RawBytes // its bytes reused from one row to the next
	for rows.Next() {
		var source int64
		var l anchorLink
		if err := rows.Scan(&source, &l.seq, &l.target, &context); err != nil {
			return fmt.Errorf("index anchor text: %w", err)
		}
		rank, ok := rankOf(ranks, source)
		if _, exists := rankOf(ranks, l.target); !ok || !exists {
			continue
		}
		l.rank, l.off, l.n = rank, uint32(len(sc.buf)), uint32(len(context))
		sc.buf = append(sc.buf, context...)
		sc.links = append(sc.links, l)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	rows.Close()
	// The rows are made (sorted, gathered, folded, stemmed) on another
	// core while this one inserts them: at the end of a cold index
	// nothing else runs.
	made := make(chan anchorRow, anchorRowsAhead)
	go func() {
		defer close(made)
		makeAnchorRows(sc, made)
	}()
	var werr error
	for r := range made {
		if werr == nil { // after an error, the rest are drained unwritten
			werr = w.insertAnchorRow(&r)
		}
	}
	return werr
}

// anchorRowsAhead is how many fts_anchor rows makeAnchorRows makes ahead
// of their insertion.
const anchorRowsAhead = 256

// makeAnchorRows sorts the links of sc by target and sends each target's
// fts_anchor row, from its first MaxAnchorLinks links, to out.
func makeAnchorRows(sc *anchorScratch, out chan<- anchorRow) {
	slices.SortFunc(sc.links, compareAnchorLinks)
	for i := 0; i < len(sc.links); {
		t := sc.links[i].target
		var a anchorText
		for ; i < len(sc.links) && sc.links[i].target == t; i++ {
			l := sc.links[i]
			a.add(unsafe.String(unsafe.SliceData(sc.buf[l.off:]), int(l.n)))
		}
		if r, ok := a.row(t); ok {
			out <- r
		}
	}
}
