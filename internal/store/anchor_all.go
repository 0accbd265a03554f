package store

import (
	"cmp"
	"database/sql"
	"fmt"
	"slices"
)

// anchorRowsPerScan bounds the link contexts refreshAllAnchors holds at
// once: past it, the targets are taken in several ranges of docs, one
// scan of the links each (in stored order, a scan that returns a quarter
// of the rows costs little more than the quarter). The contexts are held
// in one buffer, about 45 bytes a link. Tests make it small
// (Store.anchorRowsPerScan).
const anchorRowsPerScan int64 = 250_000

// anchorLink is one link that may give its target anchor text: the rank
// of its source note's ID among all IDs, its place in the source, and
// where its context is in the scan's buffer.
type anchorLink struct {
	rank, seq int32
	off, n    uint32
}

// before orders anchorLinks as refreshAnchor reads them: by source note
// ID, then position.
func (a anchorLink) before(b anchorLink) bool {
	return a.rank < b.rank || (a.rank == b.rank && a.seq < b.seq)
}

// refreshAllAnchors rewrites every row of fts_anchor, as refreshAnchor
// would one note at a time (a target's first MaxAnchorLinks links, by
// source note ID and position). It reads the links in the order they are
// stored, not through links_to: in target order, each link row is a
// random read of the links table, which a cold index of 100,000 notes
// paid for with most of its last batch.
func (w *writer) refreshAllAnchors() error {
	if _, err := w.exec("INSERT INTO fts_anchor(fts_anchor) VALUES('delete-all')"); err != nil {
		return err
	}
	ranks, maxDoc, err := w.noteRanks()
	if err != nil || maxDoc == 0 {
		return err
	}
	var links int64
	if err := w.queryRow("SELECT count(*) FROM links WHERE context <> ''").Scan(&links); err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	scans := 1 + links/cmp.Or(w.anchorRowsPerScan, anchorRowsPerScan)
	step := maxDoc/scans + 1
	for lo := int64(1); lo <= maxDoc; lo += step {
		if err := w.refreshAnchorRange(ranks, lo, lo+step-1); err != nil {
			return err
		}
	}
	return nil
}

// noteRanks returns each note's rank among the notes' IDs in order, by
// doc, and the largest doc.
func (w *writer) noteRanks() (map[int64]int32, int64, error) {
	rows, err := w.tx.QueryContext(w.ctx, "SELECT doc FROM notes ORDER BY id")
	if err != nil {
		return nil, 0, fmt.Errorf("index anchor text: %w", err)
	}
	defer rows.Close()
	ranks := map[int64]int32{}
	var maxDoc int64
	for rows.Next() {
		var doc int64
		if err := rows.Scan(&doc); err != nil {
			return nil, 0, fmt.Errorf("index anchor text: %w", err)
		}
		ranks[doc] = int32(len(ranks))
		maxDoc = max(maxDoc, doc)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("index anchor text: %w", err)
	}
	return ranks, maxDoc, nil
}

// anchorScan reads the links that give the notes of a range of docs
// anchor text, in stored order. "+resolved" keeps SQLite from reading
// them through links_to (NOT INDEXED does not stop that on this WITHOUT
// ROWID table): in target order every row is a random read of the table,
// which at 100,000 notes cost 4.4 s of CPU and more of waiting for the
// disk, against 0.5 s in stored order.
const anchorScan = `SELECT source, seq, resolved, context FROM links
	WHERE +resolved BETWEEN ? AND ? AND context <> '' AND source <> resolved`

// refreshAnchorRange writes the fts_anchor rows of the notes whose doc is
// in [lo, hi], from one scan of the links in stored order. A link to a
// pending note (resolved < 0), to itself or to a note since deleted gives
// no anchor text.
func (w *writer) refreshAnchorRange(ranks map[int64]int32, lo, hi int64) error {
	rows, err := w.tx.QueryContext(w.ctx, anchorScan, lo, hi)
	if err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	defer rows.Close()
	byTarget := map[int64][]anchorLink{}
	// The contexts, one after another: a string each was most of what
	// the scan allocated.
	var buf []byte
	for rows.Next() {
		var source, target int64
		var l anchorLink
		var context sql.RawBytes
		if err := rows.Scan(&source, &l.seq, &target, &context); err != nil {
			return fmt.Errorf("index anchor text: %w", err)
		}
		rank, ok := ranks[source]
		if _, exists := ranks[target]; !ok || !exists {
			continue
		}
		l.rank, l.off, l.n = rank, uint32(len(buf)), uint32(len(context))
		buf = append(buf, context...)
		byTarget[target] = keepFirstLinks(byTarget[target], l)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	rows.Close()
	targets := make([]int64, 0, len(byTarget))
	for t := range byTarget {
		targets = append(targets, t)
	}
	slices.Sort(targets)
	for _, t := range targets {
		ls := byTarget[t]
		slices.SortFunc(ls, func(a, b anchorLink) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.seq, b.seq)) })
		var a anchorText
		for _, l := range ls {
			a.add(string(buf[l.off : l.off+l.n]))
		}
		if err := w.insertAnchor(t, &a); err != nil {
			return err
		}
	}
	return nil
}

// keepFirstLinks adds l to ls, which keeps the first MaxAnchorLinks
// links (anchorLink.before) in any order.
func keepFirstLinks(ls []anchorLink, l anchorLink) []anchorLink {
	if len(ls) < MaxAnchorLinks {
		return append(ls, l)
	}
	last := 0
	for i := range ls {
		if ls[last].before(ls[i]) {
			last = i
		}
	}
	if l.before(ls[last]) {
		ls[last] = l
	}
	return ls
}
