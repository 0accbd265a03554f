package store

import (
	"context"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestFlagsFromSegments: which marked and stem forms of a query's words
// the index has (markUnmarked, markStems) is read from the tables'
// segments, without SQL (nothing is put in s.flags), and is what SQL
// answers, for words with and without marked forms and stems, before and
// after a write that adds a marked form.
func TestFlagsFromSegments(t *testing.T) {
	ctx := context.Background()
	s := foldStore(t)
	// Words of ASCII letters: a marked form of other letters is not one
	// plain token (matchParser) and is asked of SQL.
	queries := []string{"strasse", "lodz meeting", "plain", "nothing", "smorrebrod", "drove", "zzz", "invoices"}
	flags := func(sql bool) [][3]bool {
		t.Helper()
		defer func() { s.sqlRank = false }()
		s.sqlRank = sql
		var out [][3]bool
		for _, q := range queries {
			terms := KeywordTerms(q)
			if err := s.markUnmarked(ctx, terms); err != nil {
				t.Fatal(err)
			}
			if err := s.markStems(ctx, terms); err != nil {
				t.Fatal(err)
			}
			for _, tm := range terms {
				out = append(out, [3]bool{tm.unmarked, tm.noStem, tm.noStemWord})
			}
		}
		return out
	}
	check := func(what string) {
		t.Helper()
		s.flags = commonCache{}
		got := flags(false)
		s.flags.mu.Lock()
		asked := len(s.flags.counts)
		s.flags.mu.Unlock()
		if asked != 0 {
			t.Errorf("%s: %d flags asked of SQL, want none", what, asked)
		}
		if want := flags(true); len(got) != len(want) {
			t.Fatalf("%s: %d flags from the segments, %d from SQL", what, len(got), len(want))
		} else {
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s: term %d: flags from the segments %v, from SQL %v", what, i, got[i], want[i])
				}
			}
		}
	}
	check("indexed")
	rec := &Record{Note: &vault.Note{ID: "Late.md", Title: "Late"}, Path: "Late.md", Body: "Die Straßenbahn und die Zimmerpflanze; invoicing meetings."}
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{rec}}); err != nil {
		t.Fatal(err)
	}
	check("after a write")
}
