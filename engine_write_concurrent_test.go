package vaultgraph_test

// Concurrent writes: if-match races and many writers at once.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// TestUpdateNodeConcurrentIfMatch runs two updates of one note with the
// same ifMatch at once, many times: exactly one wins, the other is
// ErrConflict, and the file holds the winner's content.
func TestUpdateNodeConcurrentIfMatch(t *testing.T) {
	dir := copyTestVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	for round := range 20 {
		hash := mustNode(t, e, beta).Hash
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, 2)
		contents := []string{fmt.Sprintf("round %d: first\n", round), fmt.Sprintf("round %d: second\n", round)}
		for i := range 2 {
			wg.Go(func() {
				<-start
				u := vaultgraph.NoteUpdate{ID: beta, Content: &contents[i], IfMatch: hash}
				if i == 1 && round%2 == 1 {
					u.Content, u.Title = nil, strp(fmt.Sprintf("Beta %d", round)) // a rename against a content change
				}
				_, errs[i] = e.UpdateNode(ctx, u)
			})
		}
		close(start)
		wg.Wait()
		var won []int
		for i, err := range errs {
			switch {
			case err == nil:
				won = append(won, i)
			case i == 0 && round%2 == 1 && errors.Is(err, vaultgraph.ErrNotFound):
				// The rename won: the ID is gone.
			case !errors.Is(err, vaultgraph.ErrConflict):
				t.Fatalf("round %d: update %d = %v, want nil or ErrConflict", round, i, err)
			}
		}
		if len(won) != 1 {
			t.Fatalf("round %d: updates %v succeeded (errors %v), want exactly one", round, won, errs)
		}
		if round%2 == 1 && won[0] == 1 {
			// Renamed: put it back for the next round.
			if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: fmt.Sprintf("Projects/Beta %d.md", round), Title: strp("Beta")}); err != nil {
				t.Fatal(err)
			}
		} else if got := noteFiles(t, dir)["Projects/Beta.md"]; !strings.HasSuffix(got, contents[won[0]]) {
			t.Fatalf("round %d: Beta.md = %q, want the winner's content %q", round, got, contents[won[0]])
		}
	}
	checkLikeReload(t, e)
}

// TestWriteConcurrent runs many writes of different notes at once, with
// readers, under the race detector: every write lands, and the engine
// ends up as a fresh one over the same files.
func TestWriteConcurrent(t *testing.T) {
	files := map[string]string{"Hub.md": "# Hub\n"}
	const notes, rounds = 8, 6
	for i := range notes {
		files[fmt.Sprintf("N%d.md", i)] = fmt.Sprintf("# N%d\n[[Hub]]\n", i)
	}
	dir := makeVault(t, files)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	var wg sync.WaitGroup
	errc := make(chan error, notes*rounds*4)
	for i := range notes {
		wg.Go(func() {
			id := fmt.Sprintf("N%d.md", i)
			for r := range rounds {
				hash := ""
				if n, err := e.GetNode(ctx, id, false); err == nil && n != nil {
					hash = n.Hash
				}
				c := fmt.Sprintf("# N%d round %d\n[[Hub]] [[N%d]]\n", i, r, (i+1)%notes)
				if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: id, Content: &c, Tags: &[]string{fmt.Sprintf("r%d", r)}, IfMatch: hash}); err != nil {
					errc <- fmt.Errorf("update %s round %d: %w", id, r, err)
				}
			}
		})
	}
	// Creates and deletes of other notes at the same time.
	for i := range notes / 2 {
		wg.Go(func() {
			for r := range rounds {
				title := fmt.Sprintf("Temp %d-%d", i, r)
				if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: title, Content: "[[Hub]]\n", Directory: fmt.Sprintf("T%d", i)}); err != nil {
					errc <- err
				}
				if r%2 == 0 {
					if res, err := e.DeleteNode(ctx, fmt.Sprintf("T%d/%s.md", i, title), ""); err != nil || !res.Deleted {
						errc <- fmt.Errorf("delete %s: %+v, %v", title, res, err)
					}
				}
			}
		})
	}
	// Readers.
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := e.GetNode(ctx, "Hub", true); err != nil {
					errc <- err
				}
				if _, _, _, err := e.Neighbors(ctx, "Hub", graph.Both, 50); err != nil {
					errc <- err
				}
				time.Sleep(time.Millisecond)
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	got := noteFiles(t, dir)
	for i := range notes {
		want := fmt.Sprintf("---\ntags:\n  - r%d\n---\n# N%d round %d\n[[Hub]] [[N%d]]\n", rounds-1, i, rounds-1, (i+1)%notes)
		if g := got[fmt.Sprintf("N%d.md", i)]; g != want {
			t.Errorf("N%d.md = %q, want %q", i, g, want)
		}
	}
	hub := mustNode(t, e, "Hub.md")
	if want := notes + notes/2*rounds/2; hub.InDegree != want {
		t.Errorf("Hub in-degree = %d, want %d", hub.InDegree, want)
	}
	checkLikeReload(t, e)
}
