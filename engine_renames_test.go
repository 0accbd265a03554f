package vaultgraph_test

// Tests of renames made outside vaultgraph: real files moved with
// os.Rename or git, seen by the real watcher (or by Open between runs),
// paired, and their links repaired as UpdateNode would rewrite them.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// renameWait bounds each wait for the watcher to see a rename; nothing
// here asserts on speed.
const renameWait = 10 * time.Second

// openRenames opens an engine over dir with its index at index (a new
// temporary one when ""), following renames by itself when follow is
// set; the test fails if it logs a warning or an error.
func openRenames(t *testing.T, dir, index string, follow bool, window time.Duration) *vaultgraph.Engine {
	t.Helper()
	if index == "" {
		index = filepath.Join(t.TempDir(), "index.db")
	}
	return openLogged(t, vaultgraph.Options{Vault: dir, Index: index, FollowRenames: follow, RenameWindow: window})
}

// move renames a file or folder of the vault dir.
func move(t *testing.T, dir, from, to string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, to)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)); err != nil {
		t.Fatal(err)
	}
}

// waitFor waits until ok holds, failing the test after renameWait.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(renameWait)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, renameWait)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func pending(t *testing.T, e *vaultgraph.Engine) []vaultgraph.RenameRepair {
	t.Helper()
	rs, err := e.PendingRenames()
	if err != nil {
		t.Fatalf("PendingRenames() = %v", err)
	}
	return rs
}

func status(t *testing.T, e *vaultgraph.Engine) *vaultgraph.Status {
	t.Helper()
	s, err := e.Status(context.Background())
	if err != nil {
		t.Fatalf("Status() = %v", err)
	}
	return s
}

// pairs lists the pending repairs as "from -> to" (with " ambiguous"
// or " similar" when so).
func pairs(t *testing.T, e *vaultgraph.Engine) []string {
	t.Helper()
	var out []string
	for _, r := range pending(t, e) {
		s := r.From + " -> " + r.To
		if r.Ambiguous {
			s += " ambiguous"
		}
		if r.Similar {
			s += " similar"
		}
		out = append(out, s)
	}
	return out
}

// waitPairs waits until the pending repairs are want.
func waitPairs(t *testing.T, e *vaultgraph.Engine, want ...string) {
	t.Helper()
	deadline := time.Now().Add(renameWait)
	for got := pairs(t, e); !slices.Equal(got, want); got = pairs(t, e) {
		if time.Now().After(deadline) {
			t.Fatalf("pending repairs = %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// viaUpdate is the vault dir's files after UpdateNode renames or moves
// id in a fresh copy of testvault/, without the moved note itself.
func viaUpdate(t *testing.T, id string, u vaultgraph.NoteUpdate) map[string]string {
	t.Helper()
	dir := copyTestVault(t)
	e := openVault(t, dir)
	u.ID = id
	res, err := e.UpdateNode(context.Background(), u)
	if err != nil {
		t.Fatalf("UpdateNode(%s) = %v", id, err)
	}
	files := testutil.Files(t, dir)
	delete(files, res.Node.ID)
	return files
}

// sameAsUpdate checks that the files of dir, but the moved note to, are
// those UpdateNode writes for the same rename.
func sameAsUpdate(t *testing.T, dir, to string, want map[string]string) {
	t.Helper()
	got := testutil.Files(t, dir)
	delete(got, to)
	if d := treeDiff(got, want); d != "" {
		t.Errorf("after repair-links, the vault differs from update_node's rename:%s", d)
	}
}

// TestRenameOutside repairs renames and moves made with os.Rename (mv)
// while watching: the repair is pending, vault_status counts it, a dry
// run writes nothing, and applying it writes what update_node writes.
func TestRenameOutside(t *testing.T) {
	title := func(s string) *string { return &s }
	for _, tc := range []struct {
		desc, from, to string
		give           vaultgraph.NoteUpdate
	}{
		{desc: "rename", from: "Projects/Beta.md", to: "Projects/Beta Renamed.md", give: vaultgraph.NoteUpdate{Title: title("Beta Renamed")}},
		// Another note has its name: the links that found it by folder
		// would find the other one.
		{desc: "move to another folder", from: "Projects/Alpha Plan.md", to: "Moved/Alpha Plan.md", give: vaultgraph.NoteUpdate{Directory: title("Moved")}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dir := copyTestVault(t)
			e := openRenames(t, dir, "", false, 0)
			watch(t, e, watchFast)
			broken := status(t, e).BrokenLinks
			move(t, dir, tc.from, tc.to)
			waitPairs(t, e, tc.from+" -> "+tc.to)
			s := status(t, e)
			if s.RenameRepairs != 1 || s.BrokenLinks < broken {
				t.Fatalf("after the move: renameRepairs %d, brokenLinks %d; want 1 and at least %d", s.RenameRepairs, s.BrokenLinks, broken)
			}
			before := testutil.Files(t, dir)
			dry, err := e.RepairLinks(context.Background(), vaultgraph.RepairRequest{})
			if err != nil {
				t.Fatalf("RepairLinks(dry run) = %v", err)
			}
			if !dry.DryRun || len(dry.Repairs) != 1 || len(dry.Files) < 2 {
				t.Fatalf("RepairLinks(dry run) = %+v, want one repair rewriting 2 or more files", dry)
			}
			if d := treeDiff(testutil.Files(t, dir), before); d != "" {
				t.Fatalf("a dry run changed files:%s", d)
			}
			res, err := e.RepairLinks(context.Background(), vaultgraph.RepairRequest{Apply: true})
			if err != nil {
				t.Fatalf("RepairLinks(apply) = %v", err)
			}
			if res.DryRun || !slices.Equal(filePaths(res.Files), filePaths(dry.Files)) {
				t.Errorf("RepairLinks(apply) files = %q, want the dry run's %q", filePaths(res.Files), filePaths(dry.Files))
			}
			waitPairs(t, e)
			if s := status(t, e); s.BrokenLinks != broken || s.RenameRepairs != 0 {
				t.Errorf("after the repair: brokenLinks %d, renameRepairs %d; want %d and 0", s.BrokenLinks, s.RenameRepairs, broken)
			}
			sameAsUpdate(t, dir, tc.to, viaUpdate(t, tc.from, tc.give))
		})
	}
}

func filePaths(fs []vaultgraph.FileChange) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path)
	}
	sort.Strings(out)
	return out
}

// TestRenameOutsideEdited pairs a rename whose content an editor also
// changed (a line added, a tag dropped) by similar content, and repairs
// it; --follow-renames applies it by itself.
func TestRenameOutsideEdited(t *testing.T) {
	dir := copyTestVault(t)
	e := openRenames(t, dir, "", true, 0)
	watch(t, e, watchFast)
	broken := status(t, e).BrokenLinks
	src, err := os.ReadFile(filepath.Join(dir, "Projects/Beta.md"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "Ship the beta.", "Ship the beta, then the release.", 1) + "\nA line added while renaming.\n"
	testutil.WriteFile(t, dir, "Projects/Beta 2.md", edited) // not atomic: may be seen in steps
	if err := os.Remove(filepath.Join(dir, "Projects/Beta.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the rename repaired by itself", func() bool {
		s := status(t, e)
		home, err := os.ReadFile(filepath.Join(dir, "Home.md"))
		return err == nil && strings.Contains(string(home), "[[Beta 2#Goals]]") && s.BrokenLinks == broken && s.RenameRepairs == 0
	})
	got := testutil.Files(t, dir)
	for _, note := range []string{"Home.md", "Projects/Alpha Plan.md", "Notes/Meeting Notes.md"} {
		if strings.Contains(got[note], "[[Beta]]") || strings.Contains(got[note], "[[Beta#") || !strings.Contains(got[note], "[[Beta 2") {
			t.Errorf("%s after the repair:\n%s\nwant its links to Beta pointing at Beta 2", note, got[note])
		}
	}
}

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// edges lists the graph's links as "from -> to", with the IDs renamed by
// rename (old prefix -> new prefix).
func edges(e *vaultgraph.Engine, from, to string) []string {
	g := e.Graph()
	var out []string
	for _, id := range g.IDs() {
		for _, o := range g.Out(id) {
			out = append(out, strings.Replace(id, from, to, 1)+" -> "+strings.Replace(o, from, to, 1))
		}
	}
	sort.Strings(out)
	return out
}

// TestRenameOutsideGitMvFolder moves a folder with git mv (two notes,
// one sharing its name with a note elsewhere): with FollowRenames both
// repairs are applied, and the graph is the graph before, renamed.
func TestRenameOutsideGitMvFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("this test needs the git binary")
	}
	dir := copyTestVault(t)
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "vault")
	e := openRenames(t, dir, "", true, 0)
	watch(t, e, watchFast)
	broken := status(t, e).BrokenLinks
	want := edges(e, "Projects/", "Work/")
	git(t, dir, "mv", "Projects", "Work")
	// The watcher may see the two moves in one pass or in two, and a
	// repair can follow the pass that found it: wait for the links to
	// settle where they should, and fail below if they never do.
	for deadline := time.Now().Add(renameWait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s := status(t, e)
		if s.BrokenLinks == broken && s.RenameRepairs == 0 && e.Graph().Has("Work/Beta.md") &&
			slices.Equal(edges(e, "Projects/", "Work/"), want) {
			break
		}
	}
	if s := status(t, e); s.BrokenLinks != broken || s.RenameRepairs != 0 {
		t.Errorf("after git mv: %d broken links and %d pending repairs, want %d and 0", s.BrokenLinks, s.RenameRepairs, broken)
	}
	if got := edges(e, "Projects/", "Work/"); !slices.Equal(got, want) {
		t.Errorf("links after git mv and repair:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRenameOutsideWhileDown finds a rename made while no server ran at
// the next Open, keeps the repair across restarts, and drops it once the
// links are fixed by hand.
func TestRenameOutsideWhileDown(t *testing.T) {
	dir := copyTestVault(t)
	index := filepath.Join(t.TempDir(), "index.db")
	e := openRenames(t, dir, index, false, 0)
	_ = e.Close()
	move(t, dir, "Projects/Beta.md", "Projects/Gamma.md")
	e = openRenames(t, dir, index, false, 0)
	waitPairs(t, e, "Projects/Beta.md -> Projects/Gamma.md")
	_ = e.Close()
	e = openRenames(t, dir, index, false, 0) // stored, and still valid
	waitPairs(t, e, "Projects/Beta.md -> Projects/Gamma.md")
	_ = e.Close()
	for _, note := range []string{"Home.md", "Projects/Alpha Plan.md", "Notes/Meeting Notes.md"} {
		p := filepath.Join(dir, note)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "[[Beta", "[[Gamma")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e = openRenames(t, dir, index, false, 0)
	waitPairs(t, e) // fixed by hand: void
}

// TestRenameOutsideBack drops a pending repair when the note is renamed
// back.
func TestRenameOutsideBack(t *testing.T) {
	dir := copyTestVault(t)
	e := openRenames(t, dir, "", false, 0)
	watch(t, e, watchFast)
	move(t, dir, "Projects/Beta.md", "Projects/Beta 2.md")
	waitPairs(t, e, "Projects/Beta.md -> Projects/Beta 2.md")
	move(t, dir, "Projects/Beta 2.md", "Projects/Beta.md")
	waitPairs(t, e)
}

// twinVault is a vault with two notes of the same content, each linked.
func twinVault(t *testing.T) string {
	return makeVault(t, map[string]string{
		"Twin One.md": "# Twin\n\nThe same words.\n",
		"Twin Two.md": "# Twin\n\nThe same words.\n",
		"Hub.md":      "See [[Twin One]] and [[Twin Two]].\n",
	})
}

// TestRenameOutsideSameContent: one of two notes with the same content
// renamed is a sure pair; both renamed at once (while the server is
// down) are ambiguous, offered and never applied by themselves, and one
// is applied when named.
func TestRenameOutsideSameContent(t *testing.T) {
	t.Run("one renamed", func(t *testing.T) {
		dir := twinVault(t)
		e := openRenames(t, dir, "", false, 0)
		watch(t, e, watchFast)
		move(t, dir, "Twin One.md", "Twin Uno.md")
		waitPairs(t, e, "Twin One.md -> Twin Uno.md")
	})
	t.Run("both renamed", func(t *testing.T) {
		// Between runs, so that one pass sees both (a watcher may see
		// them one at a time: then each is a sure rename).
		dir := twinVault(t)
		index := filepath.Join(t.TempDir(), "index.db")
		_ = openRenames(t, dir, index, true, 0).Close()
		move(t, dir, "Twin One.md", "Twin Uno.md")
		move(t, dir, "Twin Two.md", "Twin Dos.md")
		e := openRenames(t, dir, index, true, 0)
		watch(t, e, watchFast) // follows renames, but not ambiguous ones
		waitPairs(t, e, "Twin One.md -> Twin Dos.md ambiguous", "Twin One.md -> Twin Uno.md ambiguous",
			"Twin Two.md -> Twin Dos.md ambiguous", "Twin Two.md -> Twin Uno.md ambiguous")
		res, err := e.RepairLinks(context.Background(), vaultgraph.RepairRequest{Apply: true})
		if err != nil || len(res.Repairs) != 0 || len(res.Warnings) != 4 {
			t.Fatalf("RepairLinks(apply all) = %+v, %v; want nothing applied, 4 warnings", res, err)
		}
		if _, err := e.RepairLinks(context.Background(), vaultgraph.RepairRequest{From: "Twin One", Apply: true}); err == nil {
			t.Fatal("RepairLinks(from Twin One, no to) applied an ambiguous repair")
		}
		if _, err := e.RepairLinks(context.Background(), vaultgraph.RepairRequest{From: "Twin One", To: "Twin Uno", Apply: true}); err != nil {
			t.Fatalf("RepairLinks(Twin One -> Twin Uno) = %v", err)
		}
		waitPairs(t, e, "Twin Two.md -> Twin Dos.md ambiguous")
		if got := testutil.Files(t, dir)["Hub.md"]; got != "See [[Twin Uno]] and [[Twin Two]].\n" {
			t.Errorf("Hub.md = %q", got)
		}
	})
}

// TestRenameOutsideNotPaired: a delete followed much later (past the
// window) by a create, unrelated or even of the same content, is no
// rename.
func TestRenameOutsideNotPaired(t *testing.T) {
	const window = 200 * time.Millisecond
	dir := copyTestVault(t)
	e := openRenames(t, dir, "", true, window)
	watch(t, e, watchFast)
	src, err := os.ReadFile(filepath.Join(dir, "Projects/Beta.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "Projects/Beta.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the delete seen", func() bool { return !e.Graph().Has("Projects/Beta.md") })
	time.Sleep(4 * window)
	testutil.WriteFile(t, dir, "Projects/Unrelated.md", "# Unrelated\n\nOther words, [[Home]].\n")
	testutil.WriteFile(t, dir, "Projects/Late Copy.md", string(src))
	waitFor(t, "the creates seen", func() bool {
		return e.Graph().Has("Projects/Unrelated.md") && e.Graph().Has("Projects/Late Copy.md")
	})
	time.Sleep(4 * window) // a pairing would have been applied by now
	if got := pairs(t, e); len(got) != 0 {
		t.Errorf("pending repairs = %q, want none", got)
	}
	for _, note := range []string{"Home.md", "Notes/Meeting Notes.md"} {
		if b := testutil.Files(t, dir)[note]; !strings.Contains(b, "[[Beta") {
			t.Errorf("%s was rewritten:\n%s", note, b)
		}
	}
}
