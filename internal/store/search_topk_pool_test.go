package store

import "testing"

// TestTableHitsGiveBackDocs: the rows a scan collects (tableHits.docs
// and origin) go back to docsPool on release, for the next scan to fill
// without growing them again from nothing; release leaves the index all
// 0 and the hits empty.
func TestTableHitsGiveBackDocs(t *testing.T) {
	var by [len(ftsColumns)][]int
	by[1] = []int{0} // the body column has phrase 0
	weights := make([]float64, len(ftsColumns))
	weights[1] = 1
	// sync.Pool may drop what is put back (always a share of it under
	// the race detector): one of a few tries finds it.
	for try := 0; try < 20; try++ {
		h := &tableHits{idx: takeIdx(64), docs: takeDocs(), origin: takeDocs(), docHit: make([]int64, 1), n: 1}
		for rowid := int64(1); rowid < 40; rowid++ {
			p := &ftsPosting{rowid: rowid}
			p.counts[1] = 2
			h.add(p, &by, weights, 7)
		}
		if len(h.docs) != 39 || len(h.origin) != 39 || h.docHit[0] != 39 {
			t.Fatalf("add of 39 rows: %d docs, %d origins, %d with the phrase", len(h.docs), len(h.origin), h.docHit[0])
		}
		idx := h.idx
		h.release()
		for doc, v := range idx[:64] {
			if v != 0 {
				t.Fatalf("index entry %d = %d after release, want 0", doc, v)
			}
		}
		if h.docs != nil || h.origin != nil {
			t.Fatal("release kept the hits' rows")
		}
		if got := takeDocs(); cap(got) >= 39 && len(got) == 0 {
			return
		}
	}
	t.Error("takeDocs after release: never the rows given back (cap >= 39, empty)")
}

// TestTableHitsMatching: matching keeps the rows with both phrases that
// the scope keeps, with their origins, in lists made at their size (not
// grown by appends); ok says which rows match.
func TestTableHitsMatching(t *testing.T) {
	var by [len(ftsColumns)][]int
	weights := make([]float64, len(ftsColumns))
	weights[0], weights[1] = 1, 1
	h := &tableHits{idx: takeIdx(400), docs: takeDocs(), origin: takeDocs(), docHit: make([]int64, 2), n: 2}
	defer h.release()
	for rowid := int64(1); rowid < 400; rowid++ {
		p := &ftsPosting{rowid: rowid}
		p.counts[0], p.counts[1] = 1, 1
		by[0], by[1] = []int{0}, nil // phrase 0 in the title of every row
		if rowid%3 == 0 {
			by[1] = []int{1} // phrase 1 in the body of every third
		}
		h.add(p, &by, weights, rowid%5)
	}
	root := &matchNode{and: true, kids: []*matchNode{{phrase: 0}, {phrase: 1}}}
	scope := topkScope{out: map[int64]bool{3: true}}
	docs, origins := h.matching(root, scope)
	if len(docs) != 132 || cap(docs) != len(docs) || len(origins) != len(docs) || cap(origins) != len(origins) {
		t.Fatalf("matching: %d docs (cap %d), %d origins (cap %d); want 132 of each, lists of that size",
			len(docs), cap(docs), len(origins), cap(origins))
	}
	for i, doc := range docs {
		if doc%3 != 0 || doc == 3 || origins[i] != doc%5 {
			t.Fatalf("matching: row %d with origin %d, want rows of both phrases but 3, origin rowid%%5", doc, origins[i])
		}
	}
	if r, ok := h.row(6); !ok || !h.ok[r] {
		t.Error("ok of row 6 (both phrases) not set")
	}
	if r, ok := h.row(7); !ok || h.ok[r] {
		t.Error("ok of row 7 (one phrase) set")
	}
}
