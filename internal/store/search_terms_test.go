package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestCommonWordAfterWrites checks that the common-word test follows the
// index, though its counts are kept between searches: a word in exactly
// half of 200 notes is common and left out of a query, and after a
// rewrite of two notes (the same rows, one word fewer each) it is not;
// written back, it is again; after deleting notes without it, still.
func TestCommonWordAfterWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	write := func(b *Batch, i int, word bool) {
		id := fmt.Sprintf("N%03d.md", i)
		body := "filler text here."
		if i == 199 {
			body += " A unique line."
		}
		if word {
			body += " A shared wordy line."
		}
		b.Upserts = append(b.Upserts, &Record{Note: &vault.Note{ID: id, Title: fmt.Sprintf("N%03d", i)}, Path: id, Body: body})
	}
	apply := func(b *Batch) {
		t.Helper()
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	terms := func() int {
		t.Helper()
		hits, err := s.Keyword(ctx, KeywordQuery{Text: "wordy unique", NoSnippets: true})
		if err != nil || len(hits) == 0 {
			t.Fatalf("Keyword = %v, %v", hits, err)
		}
		return hits[0].Terms
	}
	var b Batch
	for i := range 200 {
		write(&b, i, i < 100)
	}
	apply(&b)
	steps := []struct {
		desc  string
		batch func(b *Batch)
		want  int
	}{
		{"in half the notes: common", func(*Batch) {}, 1},
		{"two notes fewer: not common", func(b *Batch) { write(b, 0, false); write(b, 1, false) }, 2},
		{"written back: common", func(b *Batch) { write(b, 0, true); write(b, 1, true) }, 1},
		{"notes without it deleted: common", func(b *Batch) { b.Deletes = []string{"N150.md", "N151.md"} }, 1},
		{"notes with it deleted: not common", func(b *Batch) { b.Deletes = []string{"N002.md", "N003.md", "N004.md"} }, 2},
	}
	for _, st := range steps {
		var b Batch
		st.batch(&b)
		if !b.Empty() {
			apply(&b)
		}
		if got := terms(); got != st.want {
			t.Errorf("%s: %q searched for %d terms, want %d", st.desc, "wordy unique", got, st.want)
		}
	}
}
