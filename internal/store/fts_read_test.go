package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
)

// TestFTSReaderBadPages checks that the reader of FTS5's pages gives up
// (and Keyword ranks by SQL or fails with an error) on damaged pages,
// never panics or loops: every leaf page and the structure record of
// an index of generated notes, cut short or with bytes changed, read
// back through Keyword.
func TestFTSReaderBadPages(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.Apply(ctx, &Batch{Upserts: benchNotes(300)}); err != nil {
		t.Fatal(err)
	}
	type page struct {
		id    int64
		block []byte
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id, block FROM fts_data WHERE id = 10 OR id > 1000")
	pages, err := scanRows(rows, err, func(rows *sql.Rows, p *page) error { return rows.Scan(&p.id, &p.block) })
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 3 {
		t.Fatalf("only %d pages", len(pages))
	}
	r := rand.New(rand.NewPCG(5, 6))
	queries := []string{"invoice", "plan budget", "re", "the zebra", "meeting"}
	for i := range 60 {
		p := pages[i%len(pages)]
		bad := slices.Clone(p.block)
		if i%2 == 0 {
			bad = bad[:r.IntN(len(bad)+1)]
		} else {
			for range 1 + r.IntN(8) {
				bad[r.IntN(len(bad))] = byte(r.IntN(256))
			}
		}
		if _, err := s.db.ExecContext(ctx, "UPDATE fts_data SET block = ? WHERE id = ?", bad, p.id); err != nil {
			t.Fatal(err)
		}
		s.common = countCache{}
		for _, q := range queries {
			// Any answer or error will do: the page is damaged.
			_, _ = s.Keyword(ctx, KeywordQuery{Text: q, Limit: 20, NoSnippets: true})
		}
		if _, err := s.db.ExecContext(ctx, "UPDATE fts_data SET block = ? WHERE id = ?", p.block, p.id); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.goRanked.Load(); got == 0 {
		t.Errorf("no search was ranked in Go")
	}
}

// TestKeywordInGoConcurrent checks that searches ranked in Go at the
// same time (sharing the cached lengths and the pooled tables) answer
// as each does alone, and run beside writes.
func TestKeywordInGoConcurrent(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	notes := benchNotes(400)
	if err := s.Apply(ctx, &Batch{Upserts: notes}); err != nil {
		t.Fatal(err)
	}
	queries := []string{"invoice", "plan budget", "re", "the zebra", "meeting notes", "kitchen garden music"}
	want := map[string][]KeywordHit{}
	for _, q := range queries {
		hits, err := s.Keyword(ctx, KeywordQuery{Text: q, Limit: 50, NoSnippets: true})
		if err != nil {
			t.Fatal(err)
		}
		want[q] = hits
	}
	before := s.goRanked.Load()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for g := range 4 {
		wg.Go(func() {
			for i := range 30 {
				q := queries[(g+i)%len(queries)]
				got, err := s.Keyword(ctx, KeywordQuery{Text: q, Limit: 50, NoSnippets: true})
				if err != nil {
					errs <- err
					return
				}
				if !reflect.DeepEqual(got, want[q]) {
					errs <- fmt.Errorf("Keyword(%q) at the same time as others differs from alone", q)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s.goRanked.Load() == before {
		t.Fatal("no search was ranked in Go")
	}
	// Beside writes: answers change, errors must not come.
	done := make(chan error, 1)
	go func() {
		for i := range 20 {
			if err := s.Apply(ctx, &Batch{Upserts: notes[i*5 : i*5+5]}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for i := range 60 {
		if _, err := s.Keyword(ctx, KeywordQuery{Text: queries[i%len(queries)], Limit: 50, NoSnippets: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
