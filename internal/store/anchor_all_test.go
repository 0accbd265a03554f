package store

import (
	"context"
	"database/sql"
	"maps"
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
