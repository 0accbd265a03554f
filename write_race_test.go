package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// Writes racing with edits made behind the engine's back: by the user
// (an editor), or by another engine on the same vault (another process).

// hubVault is a vault with Target.md and n notes that each link to it.
func hubVault(t testing.TB, n int) string {
	t.Helper()
	files := map[string]string{"Target.md": "# Target\n\nThe hub.\n"}
	for i := range n {
		files[fmt.Sprintf("Notes/Note %03d.md", i)] = fmt.Sprintf("# Note %d\n\nSee [[Target]] and [[Target#Hub|the hub]].\n", i)
	}
	return makeVault(t, files)
}

// appendUserEdit appends a line to a file in place, as `echo >>` does.
func appendUserEdit(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString("USER EDIT\n")
	return errors.Join(err, f.Close())
}

// saveUserEdit replaces a file with its content plus a line, as an
// editor saves (a new file renamed over the old one).
func saveUserEdit(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), ".editor-save.tmp")
	if err := os.WriteFile(tmp, append(b, "USER EDIT\n"...), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// TestRenameConflictDuringCommit edits a note at a chosen moment of a
// rename's commit (after the plan read every linking note): the rename is
// CONFLICT, the edit is kept and nothing else changed; once the engine
// has seen the edit, the same rename goes through and keeps it too.
func TestRenameConflictDuringCommit(t *testing.T) {
	const n = 300
	tests := []struct {
		desc string
		step string // the Commit step (commit.Options.FailAt) at which the edit is made
		give string // the note edited
		edit func(string) error
	}{
		{desc: "while the new versions are written", step: "create#5", give: "Notes/Note 150.md", edit: appendUserEdit},
		{desc: "after the journal", step: "journal#1", give: "Notes/Note 000.md", edit: appendUserEdit},
		{desc: "the renamed note itself", step: "journal#1", give: "Target.md", edit: appendUserEdit},
		{desc: "just before the tenth file is renamed in, a later one", step: "rename#10", give: fmt.Sprintf("Notes/Note %03d.md", n-1), edit: appendUserEdit},
		{desc: "saved by an editor just before its own rename", step: fmt.Sprintf("rename#%d", n+1), give: fmt.Sprintf("Notes/Note %03d.md", n-1), edit: saveUserEdit},
		{desc: "after its backup was made", step: "backup#3", give: "Notes/Note 000.md", edit: appendUserEdit},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := hubVault(t, n)
			e := openMemWriter(t, dir)
			ctx := context.Background()
			edited := filepath.Join(dir, filepath.FromSlash(tt.give))
			var hookErr error
			e.SetCommitFailAt(func(step string, k int) error {
				if fmt.Sprintf("%s#%d", step, k) == tt.step {
					hookErr = tt.edit(edited)
				}
				return nil
			})
			before := noteFiles(t, dir)
			_, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Target", Title: strp("Renamed")})
			if hookErr != nil {
				t.Fatal(hookErr)
			}
			if !errors.Is(err, vaultgraph.ErrConflict) {
				t.Fatalf("UpdateNode(rename) with %s edited at %s = %v, want ErrConflict", tt.give, tt.step, err)
			}
			want := fmt.Sprintf("%s changed on disk while the rename was prepared; read it again and retry", tt.give)
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error = %q, want it to say %q", err, want)
			}
			before[tt.give] += "USER EDIT\n"
			if d := treeDiff(noteFiles(t, dir), before); d != "" {
				t.Errorf("after the refused rename the vault is not as before plus the edit:\n%s", d)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %q", l)
			}
			if _, err := os.Stat(filepath.Join(dir, ".vaultgraph", "commit.journal")); err == nil {
				t.Error("the commit journal is left behind")
			}

			// Retry, the engine having seen the edit (as its watcher would).
			e.SetCommitFailAt(nil)
			if err := e.Sync(ctx, tt.give); err != nil {
				t.Fatal(err)
			}
			if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Target", Title: strp("Renamed")}); err != nil {
				t.Fatalf("the rename again = %v", err)
			}
			give := tt.give
			if give == "Target.md" {
				give = "Renamed.md"
			}
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(give)))
			if err != nil || !strings.HasSuffix(string(got), "USER EDIT\n") {
				t.Errorf("after the rename %s = %q, %v, want the edit kept", give, got, err)
			}
			if give != "Renamed.md" && !strings.Contains(string(got), "[[Renamed]]") {
				t.Errorf("after the rename %s = %q, want its link rewritten", give, got)
			}
		})
	}
}

// TestWriteConflictSingleFile edits a note between the read of an
// update, a move or a delete and its write: CONFLICT, the edit kept. A
// file made at a new note's path meanwhile is NODE_EXISTS.
func TestWriteConflictSingleFile(t *testing.T) {
	tests := []struct {
		desc string
		step string // the Commit step (commit.Options.FailAt) at which the edit is made
		give func(e *vaultgraph.Engine) error
		want error
	}{
		{desc: "content update", step: "close#1", want: vaultgraph.ErrConflict, give: func(e *vaultgraph.Engine) error {
			_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Note", Content: strp("new body\n")})
			return err
		}},
		{desc: "tags update", step: "close#1", want: vaultgraph.ErrConflict, give: func(e *vaultgraph.Engine) error {
			_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Note", Tags: &[]string{"x"}})
			return err
		}},
		{desc: "move", step: "journal#1", want: vaultgraph.ErrConflict, give: func(e *vaultgraph.Engine) error {
			_, err := e.UpdateNode(context.Background(), vaultgraph.NoteUpdate{ID: "Note", Directory: strp("Elsewhere")})
			return err
		}},
		{desc: "delete", step: "remove#1", want: vaultgraph.ErrConflict, give: func(e *vaultgraph.Engine) error {
			_, err := e.DeleteNode(context.Background(), "Note", "")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := makeVault(t, map[string]string{"Note.md": "---\ntags: [a]\n---\nbody\n", "Other.md": "[[Note]]\n"})
			e := openMemWriter(t, dir)
			p := filepath.Join(dir, "Note.md")
			e.SetCommitFailAt(func(step string, n int) error {
				if fmt.Sprintf("%s#%d", step, n) == tt.step {
					return appendUserEdit(p)
				}
				return nil
			})
			before := noteFiles(t, dir)
			err := tt.give(e)
			if !errors.Is(err, tt.want) {
				t.Fatalf("%s with the note edited meanwhile = %v, want %v", tt.desc, err, tt.want)
			}
			before["Note.md"] += "USER EDIT\n"
			if d := treeDiff(noteFiles(t, dir), before); d != "" {
				t.Errorf("after the refused %s the vault is not as before plus the edit:\n%s", tt.desc, d)
			}
		})
	}

	t.Run("create", func(t *testing.T) {
		dir := makeVault(t, map[string]string{"Other.md": "x\n"})
		e := openMemWriter(t, dir)
		p := filepath.Join(dir, "New.md")
		e.SetCommitFailAt(func(step string, n int) error {
			if step == "close" {
				return os.WriteFile(p, []byte("USER EDIT\n"), 0o644)
			}
			return nil
		})
		_, err := e.CreateNode(context.Background(), vaultgraph.NewNote{Title: "New", Content: "mine\n"})
		if !errors.Is(err, vaultgraph.ErrExists) {
			t.Fatalf("CreateNode with the file made meanwhile = %v, want ErrExists", err)
		}
		if b, _ := os.ReadFile(p); string(b) != "USER EDIT\n" {
			t.Errorf("New.md = %q, want the file made meanwhile kept", b)
		}
	})
}

// TestIfMatchAcrossEngines runs updates with ifMatch from two engines on
// one vault, as a CLI command and a running server would: each engine
// reads the file before the other has written, and only one may win.
func TestIfMatchAcrossEngines(t *testing.T) {
	ctx := context.Background()
	t.Run("the second waits for the lock", func(t *testing.T) {
		dir := makeVault(t, map[string]string{"Note.md": "v0\n"})
		a, b := openMemWriter(t, dir), openMemWriter(t, dir)
		hash := mustNode(t, a, "Note.md").Hash
		var errB error
		var wg sync.WaitGroup
		a.SetCommitFailAt(func(step string, n int) error {
			if step == "create" && n == 1 {
				// a holds the vault's write lock: b reads the file (the
				// same hash), then waits for the lock.
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errB = b.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Note", Content: strp("from b\n"), IfMatch: hash})
				}()
				time.Sleep(300 * time.Millisecond)
			}
			return nil
		})
		_, errA := a.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Note", Content: strp("from a\n"), IfMatch: hash})
		wg.Wait()
		if errA != nil || !errors.Is(errB, vaultgraph.ErrConflict) {
			t.Errorf("two updates with the same ifMatch: a = %v, b = %v, want a to win and b ErrConflict", errA, errB)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "Note.md")); string(got) != "from a\n" {
			t.Errorf("Note.md = %q, want a's version", got)
		}
	})
	t.Run("rounds", func(t *testing.T) {
		dir := makeVault(t, map[string]string{"Note.md": "v0\n"})
		engines := []*vaultgraph.Engine{openMemWriter(t, dir), openMemWriter(t, dir)}
		rounds := 20
		if testing.Short() {
			rounds = 5
		}
		for r := range rounds {
			hash := ""
			for _, e := range engines {
				if err := e.Sync(ctx, "Note.md"); err != nil {
					t.Fatal(err)
				}
				if h := mustNode(t, e, "Note.md").Hash; hash == "" {
					hash = h
				} else if h != hash {
					t.Fatalf("round %d: the engines read hashes %s and %s", r, hash, h)
				}
			}
			errs := make([]error, len(engines))
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, e := range engines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					_, errs[i] = e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Note", Content: strp(fmt.Sprintf("round %d engine %d\n", r, i)), IfMatch: hash})
				}()
			}
			close(start)
			wg.Wait()
			won := slices.IndexFunc(errs, func(err error) bool { return err == nil })
			lost := slices.IndexFunc(errs, func(err error) bool { return errors.Is(err, vaultgraph.ErrConflict) })
			if won < 0 || lost < 0 {
				t.Fatalf("round %d: the updates returned %v, want one to win and one ErrConflict", r, errs)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "Note.md")); string(got) != fmt.Sprintf("round %d engine %d\n", r, won) {
				t.Fatalf("round %d: Note.md = %q, want the winner's (engine %d)", r, got, won)
			}
		}
	})
}

// TestDeleteNodeWarningsResolveNow deletes one of two notes with the same
// name: the links that pointed at it now resolve to the other one, and
// the answer says so; only the links that really are broken now are
// called broken.
func TestDeleteNodeWarningsResolveNow(t *testing.T) {
	dir := copyTestVault(t)
	// Two links that name the archived note by its path: they break.
	write(t, dir, "Linker.md", "By path: [[Archive/Alpha Plan]]\nMarkdown: [old](Archive/Alpha%20Plan.md)\n")
	e := openWriter(t, dir, false)
	res, err := e.DeleteNode(context.Background(), "Archive/Alpha Plan.md", "")
	if err != nil {
		t.Fatal(err)
	}
	// Written by hand from testvault: before the delete each bare
	// [[Alpha Plan]] outside Projects/ resolved to Archive/Alpha Plan.md
	// (same folder, or the first of two equally short paths); now only
	// Projects/Alpha Plan.md has that name.
	want := []string{
		"now resolves to Projects/Alpha Plan.md: [[Alpha Plan]] in Archive/Old Ideas.md (line 6)",
		"now resolves to Projects/Alpha Plan.md: [[alpha plan]] in Archive/Old Ideas.md (line 7)",
		"now resolves to Projects/Alpha Plan.md: [[Alpha Plan]] in Home.md (line 10)",
		"now a broken link: [[Archive/Alpha Plan]] in Linker.md (line 1)",
		"now a broken link: (Archive/Alpha Plan.md) in Linker.md (line 2)",
		"now resolves to Projects/Alpha Plan.md: [[Alpha Plan]] in Notes/Meeting Notes.md (line 5)",
	}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("DeleteNode(Archive/Alpha Plan.md).Warnings =\n%q\nwant\n%q", res.Warnings, want)
	}
	// What the answer says is what the engine now holds.
	home := mustNode(t, e, "Home.md")
	if slices.Contains(home.Broken, "Alpha Plan") {
		t.Errorf("Home's broken links = %q, want [[Alpha Plan]] resolved", home.Broken)
	}
}

// TestWriteThroughSymlink writes a note that is a symlink to another file
// of the vault: the file it leads to gets the new version, and the
// symlink stays a symlink.
func TestWriteThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	ctx := context.Background()
	setup := func(t *testing.T) string {
		dir := makeVault(t, map[string]string{
			"Real/Note.md": "See [[Target]].\n",
			"Target.md":    "# Target\n",
			"Plain.md":     "[[Target]]\n",
		})
		if err := os.Symlink("Real/Note.md", filepath.Join(dir, "Link.md")); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	check := func(t *testing.T, dir, want string) {
		t.Helper()
		if target, err := os.Readlink(filepath.Join(dir, "Link.md")); err != nil || target != "Real/Note.md" {
			t.Errorf("Link.md: Readlink = %q, %v, want the symlink to Real/Note.md kept", target, err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "Real", "Note.md")); string(got) != want {
			t.Errorf("Real/Note.md = %q, want %q", got, want)
		}
		if l := leftovers(t, dir); len(l) > 0 {
			t.Errorf("left behind: %q", l)
		}
	}
	t.Run("content", func(t *testing.T) {
		dir := setup(t)
		e := openMemWriter(t, dir)
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Link.md", Content: strp("new body\n")}); err != nil {
			t.Fatal(err)
		}
		check(t, dir, "new body\n")
		// The engine has read the file again under both its names.
		for _, id := range []string{"Link.md", "Real/Note.md"} {
			if got, want := mustNode(t, e, id).Hash, vault.Hash([]byte("new body\n")); got != want {
				t.Errorf("the engine's %s has hash %s, want %s (the new body)", id, got, want)
			}
		}
	})
	t.Run("rename of a note both link to", func(t *testing.T) {
		// Link.md and Real/Note.md are one file with the same link: it is
		// rewritten once.
		dir := setup(t)
		e := openMemWriter(t, dir)
		if _, err := e.UpdateNode(ctx, vaultgraph.NoteUpdate{ID: "Target", Title: strp("Renamed")}); err != nil {
			t.Fatal(err)
		}
		check(t, dir, "See [[Renamed]].\n")
		if got, _ := os.ReadFile(filepath.Join(dir, "Plain.md")); string(got) != "[[Renamed]]\n" {
			t.Errorf("Plain.md = %q", got)
		}
	})
}
