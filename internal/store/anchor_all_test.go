package store

import (
	"context"
	"database/sql"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNoteRanks: noteRanks gives each note's rank by ID at its doc and -1
// at a doc no note has (one deleted, the 0 no note gets), in a slice one
// longer than the largest doc, for notes written in reverse ID order.
func TestNoteRanks(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	recs := anchorVault(9) // N000.md … N008.md, Hub.md
	reversed := slices.Clone(recs)
	slices.Reverse(reversed)
	if err := s.Apply(ctx, &Batch{Upserts: reversed}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, &Batch{Deletes: []string{"N004.md"}}); err != nil {
		t.Fatal(err)
	}
	docs := map[string]int64{}
	rows, err := s.db.Query("SELECT id, doc FROM notes")
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var id string
		var doc int64
		err := rows.Scan(&id, &doc)
		docs[id] = doc
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	w := newWriter(ctx, tx)
	defer w.close()
	ranks, err := w.noteRanks()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int32, len(recs)+1) // docs 1 to 10, the deleted one's kept
	for i := range want {
		want[i] = -1
	}
	for rank, id := range slices.Sorted(maps.Keys(docs)) {
		want[docs[id]] = int32(rank)
	}
	if !slices.Equal(ranks, want) {
		t.Errorf("noteRanks() = %v, want %v (docs %v)", ranks, want, docs)
	}
}

// TestSortAnchorLinks: sortAnchorLinks orders links as compareAnchorLinks
// does, targets spread or crowded on a few, hubs with more links than
// MaxAnchorLinks, and a target outside [lo, hi] (sorted all the same).
func TestSortAnchorLinks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		desc          string
		lo, hi, links int64
		outside       bool
	}{
		{desc: "none", lo: 1, hi: 10},
		{desc: "one target", lo: 5, hi: 5, links: 100},
		{desc: "spread", lo: 1000, hi: 3000, links: 5000},
		{desc: "crowded", lo: 1, hi: 8, links: 3000},
		{desc: "outside", lo: 1, hi: 50, links: 400, outside: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var links []anchorLink
			for i := range tt.links {
				l := anchorLink{target: tt.lo + r.Int64N(tt.hi-tt.lo+1), rank: r.Int32N(300), seq: int32(i), off: uint32(i)}
				if r.IntN(4) == 0 {
					l.target = tt.lo // a hub
				}
				links = append(links, l)
			}
			if tt.outside {
				links[len(links)/2].target = tt.hi + 7
			}
			want := slices.Clone(links)
			slices.SortFunc(want, compareAnchorLinks)
			sortAnchorLinks(links, tt.lo, tt.hi)
			if !slices.Equal(links, want) {
				t.Errorf("sortAnchorLinks(%d links, %d, %d) differs from slices.SortFunc", len(links), tt.lo, tt.hi)
			}
		})
	}
}
