package vaultgraph_test

// Renames, creates and deletes that crash part-way (an injected failure),
// and the repair of the vault at the next Open.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// errInjected is the failure the crash tests inject into file commits.
var errInjected = errors.New("injected failure")

// crashVault is a vault with a note, Hub.md, that 12 notes in several
// folders link to in every form.
func crashVault(t *testing.T) string {
	files := map[string]string{
		"Hub.md":   "---\ntags: [hub]\n---\n# Hub\n\n## Part\n\nText ^b1\n[up](Index.md) [[Index]]\n",
		"Index.md": "# Index\n[[Hub]] [[Hub#Part|part]] ![[Hub]]\n",
	}
	forms := []string{"[[Hub]]", "[[Hub|alias]]", "[[Hub#Part]]", "[[Hub#^b1]]", "![[Hub]]", "[m](Hub.md)"}
	for i := range 11 {
		folder := []string{"", "A/", "A/B/", "C/"}[i%4]
		rel := strings.Repeat("../", strings.Count(folder, "/"))
		body := fmt.Sprintf("---\nrelated: \"[[Hub]]\"\n---\n# Note %d\n\n%s and [r](%sHub.md)\n\n| a | b |\n| - | - |\n| x | [[Hub\\|t]] |\n",
			i, forms[i%len(forms)], rel)
		files[fmt.Sprintf("%sNote %d.md", folder, i)] = body
	}
	return makeVault(t, files)
}

// TestRenameCrash fails a multi-file rename and move at its n-th
// file-system step, for every n: each time the vault must be exactly as
// before (files, folders and modes), with no temporary or backup file
// left, and the engine unchanged. Then the same write succeeds.
func TestRenameCrash(t *testing.T) {
	dir := crashVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	u := vaultgraph.NoteUpdate{ID: "Hub.md", Title: strp("Center"), Directory: strp("New/Deeper")}
	hub := mustNode(t, e, "Hub.md")
	if hub.InDegree < 10 {
		t.Fatalf("Hub has %d notes linking in, want at least 10", hub.InDegree)
	}
	u.DryRun = true
	dry, err := e.UpdateNode(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	u.DryRun = false
	before := fileTree(t, dir)
	steps := map[string]int{}
	for n := 1; ; n++ {
		count := 0
		fired := ""
		e.SetCommitFailAt(func(step string, k int) error {
			count++
			if count == n {
				fired = fmt.Sprintf("%s #%d", step, k)
				return errInjected
			}
			return nil
		})
		res, err := e.UpdateNode(ctx, u)
		if fired == "" {
			// Past the last step: the write went through.
			if err != nil {
				t.Fatalf("UpdateNode with no failure = %v", err)
			}
			if !slices.EqualFunc(res.Files, dry.Files, fileChangeEqual) {
				t.Errorf("the write changed %s\nthe dry run listed %s", fmtChanges(res.Files), fmtChanges(dry.Files))
			}
			t.Logf("%d steps failed one by one: %v", n-1, steps)
			break
		}
		steps[strings.Fields(fired)[0]]++
		if !errors.Is(err, errInjected) {
			t.Fatalf("UpdateNode failing at step %d (%s) = %v, want the injected error", n, fired, err)
		}
		if d := treeDiff(fileTree(t, dir), before); d != "" {
			t.Fatalf("after a failure at step %d (%s) the vault differs:\n%s", n, fired, d)
		}
		if got := mustNode(t, e, "Hub.md"); got.Hash != hub.Hash || got.InDegree != hub.InDegree {
			t.Fatalf("after a failure at step %d (%s) the engine has Hub %s in %d, want %s in %d", n, fired, got.Hash, got.InDegree, hub.Hash, hub.InDegree)
		}
		if got, _ := e.GetNode(ctx, "New/Deeper/Center.md", false); got != nil {
			t.Fatalf("after a failure at step %d (%s) the engine has %s", n, fired, got.ID)
		}
	}
	e.SetCommitFailAt(nil)
	for _, s := range []string{"mkdir", "create", "write", "sync", "chmod", "close", "remove", "backup", "rename"} {
		if steps[s] == 0 {
			t.Errorf("no failure was injected at a %q step", s)
		}
	}
	if steps["rename"] < 10 {
		t.Errorf("%d rename steps, want at least 10 files written", steps["rename"])
	}
	if leftover := leftovers(t, dir); len(leftover) > 0 {
		t.Errorf("temporary files left: %q", leftover)
	}
	if n := mustNode(t, e, "New/Deeper/Center.md"); n.InDegree != hub.InDegree {
		t.Errorf("Center in-degree %d, want %d", n.InDegree, hub.InDegree)
	}
	checkLikeReload(t, e)
}

// TestCreateDeleteCrash fails a create (into new folders) and a delete at
// every step: nothing changes, no folder or temporary file is left.
func TestCreateDeleteCrash(t *testing.T) {
	dir := crashVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	before := fileTree(t, dir)
	ops := []struct {
		name string
		do   func() error
	}{
		{"create", func() error {
			_, err := e.CreateNode(ctx, vaultgraph.NewNote{Title: "Fresh", Content: "[[Hub]]\n", Tags: []string{"t"}, Directory: "X/Y/Z"})
			return err
		}},
		{"delete", func() error {
			_, err := e.DeleteNode(ctx, "Hub", "")
			return err
		}},
		{"update", func() error {
			_, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Index", Content: strp("new\n")})
			return err
		}},
	}
	for _, op := range ops {
		for n := 1; ; n++ {
			count := 0
			e.SetCommitFailAt(func(string, int) error {
				if count++; count == n {
					return errInjected
				}
				return nil
			})
			err := op.do()
			if count < n {
				if err != nil {
					t.Fatalf("%s with no failure = %v", op.name, err)
				}
				t.Logf("%s: %d steps", op.name, n-1)
				break
			}
			if !errors.Is(err, errInjected) {
				t.Fatalf("%s failing at step %d = %v, want the injected error", op.name, n, err)
			}
			if d := treeDiff(fileTree(t, dir), before); d != "" {
				t.Fatalf("after %s failed at step %d the vault differs:\n%s", op.name, n, d)
			}
		}
		e.SetCommitFailAt(nil)
		checkLikeReload(t, e)
		before = fileTree(t, dir)
	}
}

// TestRenameCrashRepair stops a multi-file rename at each step as if the
// process died there (the files are copied as they are at that moment),
// and opens an engine on each copy: the interrupted write is cleaned up,
// no temporary or backup file is left, every file holds either its old
// or its new content, and the note's content is somewhere.
func TestRenameCrashRepair(t *testing.T) {
	dir := crashVault(t)
	e := openWriter(t, dir, false)
	ctx := context.Background()
	before := noteFiles(t, dir)
	snaps := filepath.Join(t.TempDir(), "snaps")
	var taken []string
	e.SetCommitFailAt(func(step string, k int) error {
		to := filepath.Join(snaps, fmt.Sprintf("%03d-%s-%d", len(taken), step, k))
		if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
			return err
		}
		taken = append(taken, to)
		return nil
	})
	res, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Hub.md", Title: strp("Center"), Directory: strp("New/Deeper")})
	e.SetCommitFailAt(nil)
	if err != nil {
		t.Fatal(err)
	}
	after := noteFiles(t, dir)
	hubContent := before["Hub.md"]
	movedContent := after[res.Node.ID]
	for _, snap := range taken {
		s := openMemWriter(t, snap)
		if leftover := leftovers(t, snap); len(leftover) > 0 {
			t.Errorf("%s: left after Open: %q", filepath.Base(snap), leftover)
		}
		got := noteFiles(t, snap)
		for p, c := range got {
			if c != before[p] && c != after[p] {
				t.Errorf("%s: %s holds neither its old nor its new content: %q", filepath.Base(snap), p, clip(c))
			}
		}
		for p := range before {
			if _, ok := got[p]; !ok && p != "Hub.md" {
				t.Errorf("%s: %s is missing", filepath.Base(snap), p)
			}
		}
		if got["Hub.md"] != hubContent && got[res.Node.ID] != movedContent {
			t.Errorf("%s: the note is neither at Hub.md nor at %s", filepath.Base(snap), res.Node.ID)
		}
		if st, err := s.Status(ctx); err != nil || len(st.Problems) > 0 {
			t.Errorf("%s: Status = %+v, %v, want no problems", filepath.Base(snap), st, err)
		}
	}
	if len(taken) < 50 {
		t.Errorf("%d steps, want a rename of over 10 files", len(taken))
	}
}
