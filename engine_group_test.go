package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// TestGroupCommitOneFails runs many creates and updates at once, so that
// they are committed in groups, and fails the file commit of one of them:
// that write alone fails, with its own error and nothing of it on disk;
// every other write lands, and the engine ends up as a fresh one over the
// same files.
func TestGroupCommitOneFails(t *testing.T) {
	const n = 12
	files := map[string]string{"Hub.md": "# Hub\n"}
	for i := range n {
		files[fmt.Sprintf("N%d.md", i)] = fmt.Sprintf("# N%d\n[[Hub]]\n", i)
	}
	dir := makeVault(t, files)
	e := openWriter(t, dir, false)
	var renames atomic.Int64
	var grouped atomic.Bool // a group held more than one write
	e.SetCommitFailAt(func(step string, k int) error {
		if step == "create" && k > 1 {
			grouped.Store(true)
		}
		if step == "rename" && renames.Add(1) == 5 {
			return errInjected
		}
		return nil
	})
	ctx := context.Background()
	start := make(chan struct{})
	errs := make([]error, 2*n)
	want := map[string]string{}
	var wg sync.WaitGroup
	for i := range n {
		id, body := fmt.Sprintf("N%d.md", i), fmt.Sprintf("# N%d, updated\n[[Hub]] [[New %d]]\n", i, i)
		want[id] = body
		wg.Go(func() {
			<-start
			_, errs[i] = e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: id, Content: &body})
		})
		title := fmt.Sprintf("New %d", i)
		want["New/"+title+".md"] = "[[Hub]]\n"
		wg.Go(func() {
			<-start
			_, errs[n+i] = e.CreateNode(ctx, vaultgraph.NewNote{Title: title, Content: "[[Hub]]\n", Tags: []string{"new"}, Directory: "New"})
		})
	}
	close(start)
	wg.Wait()
	failed := 0
	for i, err := range errs {
		id := fmt.Sprintf("N%d.md", i)
		if i >= n {
			id = fmt.Sprintf("New/New %d.md", i-n)
		}
		switch {
		case errors.Is(err, errInjected):
			failed++
			if old, ok := files[id]; ok {
				want[id] = old
			} else {
				delete(want, id)
			}
		case err != nil:
			t.Errorf("write of %s = %v, want it to go through", id, err)
		}
	}
	if failed != 1 {
		t.Errorf("%d writes failed with the injected error, want 1", failed)
	}
	if !grouped.Load() {
		t.Errorf("no group held more than one of %d concurrent writes", 2*n)
	}
	want["Hub.md"] = files["Hub.md"]
	got := noteFiles(t, dir)
	for id, w := range want {
		if g, ok := got[id]; !ok || !strings.HasSuffix(g, w) {
			t.Errorf("%s = %q (there: %v), want it to end with %q", id, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the vault has %d notes, want %d: %v", len(got), len(want), got)
	}
	checkNoLeftovers(t, dir)
	e.SetCommitFailAt(nil)
	checkLikeReload(t, e)
}

// TestGroupCommitConflict edits a note on disk after an update of it was
// worked out and queued behind another group: that update alone is
// CONFLICT and writes nothing; the update committed in the same group
// lands.
func TestGroupCommitConflict(t *testing.T) {
	dir := makeVault(t, map[string]string{"A.md": "# A\n", "B.md": "# B\n"})
	e := openWriter(t, dir, false)
	ctx := context.Background()
	release := make(chan struct{})
	var edited atomic.Bool
	e.SetCommitFailAt(func(step string, k int) error {
		if step != "create" || k != 1 {
			return nil
		}
		if _, err := os.Stat(filepath.Join(dir, "Blocker.md")); err != nil && !edited.Load() {
			<-release // the first group (Blocker) waits until A and B are queued
			return nil
		}
		if !edited.Swap(true) {
			// The next group: B changes on disk after it was read.
			if err := os.WriteFile(filepath.Join(dir, "B.md"), []byte("# B, edited outside\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
		return nil
	})
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "Blocker"}); err != nil {
			t.Errorf("create Blocker = %v", err)
		}
	})
	time.Sleep(50 * time.Millisecond) // let Blocker lead the first group
	var errA, errB error
	a, b := "# A, updated\n", "# B, updated\n"
	wg.Go(func() { _, errA = e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "A", Content: &a}) })
	wg.Go(func() { _, errB = e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "B", Content: &b}) })
	time.Sleep(300 * time.Millisecond) // A and B read their files and queue
	close(release)
	wg.Wait()
	if errA != nil {
		t.Errorf("update A = %v, want it to go through", errA)
	}
	if !errors.Is(errB, vaultgraph.ErrConflict) || !strings.Contains(errB.Error(), "B.md") {
		t.Errorf("update B = %v, want CONFLICT naming B.md", errB)
	}
	got := noteFiles(t, dir)
	if got["A.md"] != a || got["B.md"] != "# B, edited outside\n" {
		t.Errorf("A.md = %q, B.md = %q; want A updated and B as edited outside", got["A.md"], got["B.md"])
	}
	checkNoLeftovers(t, dir)
	e.SetCommitFailAt(nil)
	if err := e.Sync(ctx, "B.md"); err != nil {
		t.Fatal(err)
	}
	checkLikeReload(t, e)
}

// checkNoLeftovers fails on a temporary or backup file of a commit left
// in the vault.
func checkNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	for p := range fileTree(t, dir) {
		base := filepath.Base(strings.TrimPrefix(p, "<mode> "))
		if strings.HasPrefix(base, commit.TempPrefix) || strings.HasPrefix(base, commit.BackupPrefix) {
			t.Errorf("left behind: %s", p)
		}
	}
}
