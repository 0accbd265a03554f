package vaultgraph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// TestRecentOrderPatched drives a recentOrder through random creates,
// changes and removals, past the count that rebuilds it, and checks its
// first notes after each against a sort of every note; times repeat, so
// ties end on the ID.
func TestRecentOrderPatched(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var rows noteRows
	var o recentOrder
	at := func() time.Time { return time.Unix(int64(r.IntN(50)), 0) }
	for i := range 300 {
		rows = append(rows, noteRow{id: fmt.Sprintf("n%03d", i), modified: at()})
	}
	check := func(step int) {
		t.Helper()
		keys := make([]recentKey, len(rows))
		for i, row := range rows {
			keys[i] = recentKey{modified: row.modified, id: row.id}
		}
		slices.SortFunc(keys, compareRecent)
		for _, n := range []int{1, 20, len(rows) + 5} {
			want := make([]string, 0, n)
			for _, k := range keys[:min(n, len(keys))] {
				want = append(want, k.id)
			}
			if got := o.first(rows, n); !slices.Equal(got, want) {
				t.Fatalf("step %d: first(%d) = %v, want %v", step, n, got, want)
			}
		}
	}
	check(0)
	rebuilt := false
	for step := 1; step <= 600; step++ {
		i := r.IntN(len(rows))
		switch r.IntN(3) {
		case 0: // a note changes
			o.remove(rows[i].id)
			rows[i].modified = at()
			o.insert(recentKey{modified: rows[i].modified, id: rows[i].id})
		case 1: // a note goes
			o.remove(rows[i].id)
			rows = slices.Delete(rows, i, i+1)
		default: // a note comes, perhaps one that went
			row := noteRow{id: fmt.Sprintf("n%03d", r.IntN(400)), modified: at()}
			if slices.ContainsFunc(rows, func(x noteRow) bool { return x.id == row.id }) {
				continue
			}
			rows = append(rows, row)
			o.insert(recentKey{modified: row.modified, id: row.id})
		}
		rebuilt = rebuilt || !o.built
		check(step)
	}
	if !rebuilt {
		t.Errorf("the order was never dropped for too many changes: the test does not test it")
	}
}

// TestRecentOrderWhileWriting lists the notes by -modified while notes
// are created and updated (run it with -race), then checks every page
// against a pass over all notes.
func TestRecentOrderWhileWriting(t *testing.T) {
	dir := testutil.CopyTestVault(t)
	ctx := context.Background()
	e := New(Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(done)
		for i := range 10 {
			title := fmt.Sprintf("Recent %d", i)
			if _, err := e.CreateNode(ctx, NewNote{Title: title, Content: "see [[Home]]"}); err != nil {
				t.Error(err)
				return
			}
			body := fmt.Sprintf("changed %d", i)
			if _, err := e.UpdateNode(ctx, NoteUpdate{ID: title + ".md", Content: &body}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := e.ListNodes(ctx, ListQuery{SortBy: []string{"-modified"}, Limit: 5}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkRecent(t, e, "after writes while listing")
}
