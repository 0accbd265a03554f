package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/vault"
)

// The files of commitFixture before and after its ops.
var (
	fixtureOld = map[string]string{"Home.md": "home\n", "Projects/Beta.md": "beta\n", "Old/Alpha.md": "alpha\n"}
	fixtureNew = map[string]string{"Home.md": "home, edited\n", "Projects/Beta.md": "beta\n", "New/Deep/Alpha.md": "alpha, moved\n", "Projects/Gamma.md": "gamma\n"}
)

// contents lists the files under root (not folders, not vault.StateDir) with
// their content.
func contents(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, v := range snapshot(t, root) {
		if strings.HasSuffix(k, "/") || strings.HasPrefix(k, vault.StateDir+"/") {
			continue
		}
		out[k] = v[strings.IndexByte(v, ' ')+1:]
	}
	return out
}

// commitSteps lists the steps a successful journaled commit of
// commitFixture takes ("name#n").
func commitSteps(t *testing.T) []string {
	t.Helper()
	var steps []string
	root, ops := commitFixture(t)
	err := Apply(ops, Options{Root: root, FailAt: func(step string, n int) error {
		steps = append(steps, fmt.Sprintf("%s#%d", step, n))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

// crashCommit runs the fixture's commit with a Root until step crashAt
// and stops there as a killed process would: nothing undone, the lock
// let go by the kernel (its file stays).
func crashCommit(t *testing.T, root string, ops []Op, crashAt string) *txn {
	t.Helper()
	lk, err := LockWrites(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.f.Close()
	c := newTxn(ops, Options{Root: root, FailAt: func(step string, n int) error {
		if fmt.Sprintf("%s#%d", step, n) == crashAt {
			return errors.New("crash")
		}
		return nil
	}})
	c.syncRoot = lk.made
	if err := c.run(); err == nil && crashAt != "" {
		t.Fatalf("the commit did not reach step %s", crashAt)
	}
	return c
}

func TestCommitJournal(t *testing.T) {
	root, ops := commitFixture(t)
	var during []string
	err := Apply(ops, Options{Root: root, FailAt: func(step string, n int) error {
		_, jerr := os.Stat(journalPath(root))
		_, lerr := os.Stat(filepath.Join(root, vault.StateDir, LockName))
		during = append(during, fmt.Sprintf("%s#%d journal:%v lock:%v", step, n, jerr == nil, lerr == nil))
		if step == "remove" {
			data, err := os.ReadFile(journalPath(root))
			if err != nil {
				t.Fatal(err)
			}
			c, state, err := loadJournal(root, data)
			if err != nil {
				t.Fatalf("loadJournal(%s) = %v", data, err)
			}
			if state != journalCommit || len(c.ops) != len(ops) {
				t.Errorf("the journal has state %q and %d ops, want %q and %d: %s", state, len(c.ops), journalCommit, len(ops), data)
			}
			for i, op := range c.ops {
				if op.Path != ops[i].Path || op.Remove != ops[i].Remove || (op.tmp == "") != op.Remove || !strings.HasPrefix(filepath.Base(op.bakName), BackupPrefix) {
					t.Errorf("journal op %d = %+v, want %s (remove %v) with a temporary file and a backup name", i, op, ops[i].Path, ops[i].Remove)
				}
			}
			if want := []string{filepath.Join(root, "New"), filepath.Join(root, "New", "Deep")}; !slices.Equal(c.created, want) {
				t.Errorf("the journal's folders = %q, want %q", c.created, want)
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range during {
		kind, _, _ := strings.Cut(s, "#")
		wantJournal := slices.Contains([]string{"remove", "backup", "rename"}, kind)
		if strings.Contains(s, fmt.Sprintf("journal:%v", !wantJournal)) || strings.Contains(s, "lock:false") {
			t.Errorf("at step %s, want the lock held and a journal: %v", s, wantJournal)
		}
	}
	if d := diffTrees(contents(t, root), fixtureNew); d != "" {
		t.Errorf("after commit:\n%s", d)
	}
	if _, err := os.Lstat(filepath.Join(root, vault.StateDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after commit %s remains (%v), want it removed with the journal and the lock", vault.StateDir, err)
	}
	assertNoTemps(t, root)
}

// TestCommitJournalFailAtEveryStep: with a Root too, a failed commit
// leaves the vault exactly as it was, without a state folder.
func TestCommitJournalFailAtEveryStep(t *testing.T) {
	steps := commitSteps(t)
	if !slices.Contains(steps, "journal#1") {
		t.Fatalf("a journaled commit took no journal step: %v", steps)
	}
	injected := errors.New("injected failure")
	for _, failAt := range steps {
		t.Run(failAt, func(t *testing.T) {
			root, ops := commitFixture(t)
			before := snapshot(t, root)
			err := Apply(ops, Options{Root: root, FailAt: func(step string, n int) error {
				if fmt.Sprintf("%s#%d", step, n) == failAt {
					return injected
				}
				return nil
			}})
			if !errors.Is(err, injected) {
				t.Fatalf("commit failing at %s = %v, want the injected error", failAt, err)
			}
			if d := diffTrees(snapshot(t, root), before); d != "" {
				t.Errorf("commit failing at %s changed the vault:\n%s", failAt, d)
			}
		})
	}
}

// TestCommitCrashRecovery stops a journaled commit at each step as a
// crash would and checks that Recover makes every file new when the
// journal was written and every file old when it was not, and that doing
// the recovery again (a crash before it removed the journal) changes
// nothing.
func TestCommitCrashRecovery(t *testing.T) {
	steps := append(commitSteps(t), "end", "finished")
	for _, crashAt := range steps {
		t.Run(crashAt, func(t *testing.T) {
			root, ops := commitFixture(t)
			at := crashAt
			if at == "end" || at == "finished" {
				at = ""
			}
			c := crashCommit(t, root, ops, at)
			journal, jerr := os.ReadFile(journalPath(root))
			if crashAt == "finished" {
				// Backups removed, folders synced, then the crash came
				// before the journal was removed.
				if err := c.finish(); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(journalPath(root), journal, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := fixtureOld
			if jerr == nil {
				want = fixtureNew
			}
			done, err := Recover(root)
			if err != nil {
				t.Fatalf("Recover() = %q, %v", done, err)
			}
			if d := diffTrees(contents(t, root), want); d != "" {
				t.Errorf("after a crash at %s (journal written: %v) and Recover %q:\n%s", crashAt, jerr == nil, done, d)
			}
			assertNoTemps(t, root)
			if _, err := os.Lstat(journalPath(root)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the journal remains after Recover (%v)", err)
			}
			if jerr != nil {
				return
			}
			if err := os.WriteFile(journalPath(root), journal, 0o644); err != nil {
				t.Fatal(err)
			}
			if done, err := Recover(root); err != nil {
				t.Fatalf("Recover() again = %q, %v", done, err)
			}
			if d := diffTrees(contents(t, root), want); d != "" {
				t.Errorf("a second recovery from the same journal changed the vault:\n%s", d)
			}
		})
	}
}

// TestCommitCrashDuringRollback fails a journaled commit at each step
// after its journal, then crashes after the journal was rewritten for
// the rollback: before any undo, or after all of it (before the journal
// was removed). Recover must give back every old file.
func TestCommitCrashDuringRollback(t *testing.T) {
	steps := commitSteps(t)
	after := steps[slices.Index(steps, "journal#1")+1:]
	for _, failAt := range after {
		for _, undone := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/undone=%v", failAt, undone), func(t *testing.T) {
				root, ops := commitFixture(t)
				c := crashCommit(t, root, ops, failAt)
				if err := c.writeJournal(journalRollback); err != nil {
					t.Fatal(err)
				}
				if undone {
					if err := c.rollback(); err != nil {
						t.Fatal(err)
					}
				}
				done, err := Recover(root)
				if err != nil {
					t.Fatalf("Recover() = %q, %v", done, err)
				}
				if d := diffTrees(contents(t, root), fixtureOld); d != "" {
					t.Errorf("after Recover %q:\n%s", done, d)
				}
				for _, d := range []string{"New/", "New/Deep/"} {
					if _, ok := snapshot(t, root)[d]; ok {
						t.Errorf("the folder %s made by the commit remains", d)
					}
				}
				assertNoTemps(t, root)
			})
		}
	}
}

// TestCommitFinishesLeftoverJournal: a commit that finds the journal of
// a crashed one finishes that first.
func TestCommitFinishesLeftoverJournal(t *testing.T) {
	root, ops := commitFixture(t)
	crashCommit(t, root, ops, "rename#1")
	err := Apply([]Op{{Path: filepath.Join(root, "Projects", "Beta.md"), Data: []byte("beta 2\n")}}, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Home.md": "home, edited\n", "Projects/Beta.md": "beta 2\n", "New/Deep/Alpha.md": "alpha, moved\n", "Projects/Gamma.md": "gamma\n"}
	if d := diffTrees(contents(t, root), want); d != "" {
		t.Errorf("after a crashed commit and another one:\n%s", d)
	}
	assertNoTemps(t, root)
}

func TestCommitOutsideRoot(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "vault")
	testutil.WriteFiles(t, root, map[string]string{"a.md": "a"})
	err := Apply([]Op{{Path: filepath.Join(top, "outside.md"), Data: []byte("x")}}, Options{Root: root})
	if err == nil {
		t.Error("commit outside its Root succeeded, want an error")
	}
	if _, err := os.Lstat(filepath.Join(top, "outside.md")); err == nil {
		t.Error("commit wrote outside its Root")
	}
}

// TestCommitLongName: a file whose name is too long for a backup name
// that embeds it can be replaced and removed with a journal, and its
// backups are finished after a crash.
func TestCommitLongName(t *testing.T) {
	long := strings.Repeat("é", 125) + ".md" // 253 bytes
	t.Run("commit", func(t *testing.T) {
		root := t.TempDir()
		testutil.WriteFiles(t, root, map[string]string{long: "old\n", "Sub/" + long: "old sub\n"})
		ops := []Op{{Path: filepath.Join(root, long), Data: []byte("new\n")}, {Path: filepath.Join(root, "Sub", long), Remove: true}}
		if err := Apply(ops, Options{}); err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("commit without a Root = %v, want the name too long for a backup", err)
		}
		if err := Apply(ops, Options{Root: root}); err != nil {
			t.Fatal(err)
		}
		if d := diffTrees(contents(t, root), map[string]string{long: "new\n"}); d != "" {
			t.Errorf("after commit:\n%s", d)
		}
		assertNoTemps(t, root)
	})
	t.Run("backup name", func(t *testing.T) {
		name, err := backupName(filepath.Join("dir", long), true)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		if len(base) > vault.MaxNameBytes || !strings.HasPrefix(base, BackupPrefix) || backupTarget(base) != "" || !utf8Valid(base) {
			t.Errorf("backupName(long) = %q (%d bytes), want at most %d valid bytes that Recover without a journal leaves alone", base, len(base), vault.MaxNameBytes)
		}
	})
	for _, crashAt := range []string{"remove#1", "backup#1", "rename#1"} {
		t.Run(crashAt, func(t *testing.T) {
			root := t.TempDir()
			testutil.WriteFiles(t, root, map[string]string{long: "old\n", "Sub/" + long: "old sub\n"})
			ops := []Op{{Path: filepath.Join(root, long), Data: []byte("new\n")}, {Path: filepath.Join(root, "Sub", long), Remove: true}}
			crashCommit(t, root, ops, crashAt)
			if _, err := Recover(root); err != nil {
				t.Fatal(err)
			}
			if d := diffTrees(contents(t, root), map[string]string{long: "new\n"}); d != "" {
				t.Errorf("after a crash at %s and Recover:\n%s", crashAt, d)
			}
			assertNoTemps(t, root)
		})
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// TestCleanupTempsBadJournal: a journal that cannot be parsed, or names
// a path outside the vault, is moved aside and never used; the vault is
// rolled back without it, keeping the backups whose file has other
// content, and nothing outside the vault is touched.
func TestCleanupTempsBadJournal(t *testing.T) {
	tests := []struct {
		desc string
		give string
	}{
		{desc: "not JSON", give: "garbage"},
		{desc: "truncated", give: `{"version":1,"state":"commit","ops":[{"path":"Home.md","temp":".vaultgraph-tmp-1",`},
		{desc: "trailing data", give: `{"version":1,"state":"commit","ops":[]} {}`},
		{desc: "unknown version", give: `{"version":2,"state":"commit","ops":[]}`},
		{desc: "unknown state", give: `{"version":1,"state":"maybe","ops":[]}`},
		{desc: "unknown field", give: `{"version":1,"state":"commit","ops":[],"extra":1}`},
		{desc: "dot-dot", give: `{"version":1,"state":"commit","ops":[{"path":"../outside.md","temp":".vaultgraph-tmp-x","backup":".vaultgraph-bak-1"}]}`},
		{desc: "dot-dot inside", give: `{"version":1,"state":"commit","ops":[{"path":"Sub/../../outside.md","temp":".vaultgraph-tmp-x","backup":".vaultgraph-bak-1"}]}`},
		{desc: "absolute", give: `{"version":1,"state":"commit","ops":[{"path":"/outside.md","remove":true,"backup":".vaultgraph-bak-1"}]}`},
		{desc: "through a symlink", give: `{"version":1,"state":"commit","ops":[{"path":"Link/outside.md","remove":true,"backup":".vaultgraph-bak-1"}]}`},
		{desc: "temporary name with a folder", give: `{"version":1,"state":"commit","ops":[{"path":"Home.md","temp":"../.vaultgraph-tmp-x","backup":".vaultgraph-bak-1"}]}`},
		{desc: "backup without its prefix", give: `{"version":1,"state":"commit","ops":[{"path":"Home.md","remove":true,"backup":"Keep.md"}]}`},
		{desc: "removal with a temporary file", give: `{"version":1,"state":"commit","ops":[{"path":"Home.md","remove":true,"temp":".vaultgraph-tmp-x","backup":".vaultgraph-bak-1"}]}`},
		{desc: "folder outside", give: `{"version":1,"state":"rollback","folders":[".."],"ops":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			top := t.TempDir()
			root := filepath.Join(top, "vault")
			testutil.WriteFiles(t, top, map[string]string{
				"outside.md":                                  "outside\n",
				".vaultgraph-tmp-x":                           "outside temp\n",
				"vault/Keep.md":                               "keep\n",
				"vault/Home.md":                               "home, new\n",
				"vault/.vaultgraph-bak-0123abcd-Home.md":      "home, old\n",
				"vault/Gone.md":                               "gone\n",
				"vault/.vaultgraph-tmp-1":                     "a temporary file\n",
				"vault/" + vault.StateDir + "/" + JournalName: tt.give,
			})
			if err := os.Rename(filepath.Join(root, "Gone.md"), filepath.Join(root, ".vaultgraph-bak-89abcdef-Gone.md")); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(root, "Keep.md"), filepath.Join(root, ".vaultgraph-bak-00000000-Keep.md")); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, "Link")
			if tt.desc == "through a symlink" {
				if runtime.GOOS == "windows" {
					t.Skip("symlinks need privileges on Windows")
				}
				if err := os.Symlink(top, link); err != nil {
					t.Fatal(err)
				}
			}
			done, err := Recover(root)
			if err != nil {
				t.Fatalf("Recover() = %q, %v", done, err)
			}
			_ = os.Remove(link)
			if len(done) == 0 || !strings.Contains(strings.Join(done, "\n"), "unreadable") {
				t.Errorf("Recover() = %q, want the unreadable journal reported", done)
			}
			want := map[string]string{
				"Keep.md":                          "keep\n",
				"Home.md":                          "home, new\n",
				".vaultgraph-bak-0123abcd~Home.md": "home, old\n",
				"Gone.md":                          "gone\n",
			}
			if d := diffTrees(contents(t, root), want); d != "" {
				t.Errorf("after Recover:\n%s", d)
			}
			if got := readFile(t, filepath.Join(root, vault.StateDir, corruptJournalName)); got != tt.give {
				t.Errorf("the journal moved aside holds %q, want %q", got, tt.give)
			}
			for p, v := range map[string]string{"outside.md": "outside\n", ".vaultgraph-tmp-x": "outside temp\n"} {
				if got := readFile(t, filepath.Join(top, p)); got != v {
					t.Errorf("outside the vault %s = %q, want %q", p, got, v)
				}
			}
			again, err := Recover(root)
			if err != nil || len(again) > 0 {
				t.Errorf("Recover() again = %q, %v, want nothing to do (the kept backup stays)", again, err)
			}
		})
	}
}

// TestCleanupTempsCleanVault: nothing to clean up, no state folder made.
func TestCleanupTempsCleanVault(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"a.md": "a"})
	if done, err := Recover(root); err != nil || len(done) > 0 {
		t.Errorf("Recover() = %q, %v, want nothing", done, err)
	}
	if _, err := os.Lstat(filepath.Join(root, vault.StateDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Recover on a clean vault made %s (%v)", vault.StateDir, err)
	}
}

// TestCleanupTempsSkipsWhileLocked: while the write lock is held (here
// through another open of the lock file in the same process), Recover
// touches nothing and says so.
func TestCleanupTempsSkipsWhileLocked(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"a.md": "a", ".vaultgraph-tmp-1": "in flight"})
	lk, err := LockWrites(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	done, err := Recover(root)
	if !errors.Is(err, ErrLocked) || len(done) > 0 {
		t.Errorf("Recover() while locked = %q, %v, want nothing done and ErrLocked", done, err)
	}
	if _, err := os.Lstat(filepath.Join(root, ".vaultgraph-tmp-1")); err != nil {
		t.Errorf("Recover while locked removed an in-flight file: %v", err)
	}
	if err := lk.Unlock(); err != nil {
		t.Fatal(err)
	}
	done, err = Recover(root)
	if err != nil || !slices.Equal(done, []string{"removed temporary file .vaultgraph-tmp-1"}) {
		t.Errorf("Recover() after the unlock = %q, %v", done, err)
	}
	if _, err := os.Lstat(filepath.Join(root, vault.StateDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s remains after the lock was let go (%v)", vault.StateDir, err)
	}
}

// TestCommitWaitsForLock: a commit waits while the lock is held, and
// gives up with ErrLocked after LockWait.
func TestCommitWaitsForLock(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"a.md": "a"})
	p := filepath.Join(root, "a.md")
	lk, err := LockWrites(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = Apply([]Op{{Path: p, Data: []byte("b")}}, Options{Root: root, LockWait: 30 * time.Millisecond})
	if !errors.Is(err, ErrLocked) {
		t.Errorf("commit while locked with LockWait 30ms = %v, want ErrLocked", err)
	}
	done := make(chan error)
	go func() { done <- Apply([]Op{{Path: p, Data: []byte("c")}}, Options{Root: root}) }()
	select {
	case err := <-done:
		t.Fatalf("commit returned %v while the lock was held", err)
	case <-time.After(100 * time.Millisecond):
	}
	if got := readFile(t, p); got != "a" {
		t.Errorf("a.md = %q while the lock was held, want %q", got, "a")
	}
	if err := lk.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "c" {
		t.Errorf("a.md = %q, want %q", got, "c")
	}
}

// TestCommitConcurrent: commits of several goroutines on one vault take
// turns; each file gets its writer's last version and nothing is left.
func TestCommitConcurrent(t *testing.T) {
	root := t.TempDir()
	const writers, rounds = 6, 10
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				ops := []Op{
					{Path: filepath.Join(root, fmt.Sprintf("w%d.md", w)), Data: fmt.Appendf(nil, "%d", r)},
					{Path: filepath.Join(root, "Shared", fmt.Sprintf("w%d-%d.md", w, r)), Data: []byte("x")},
				}
				if r > 0 {
					ops = append(ops, Op{Path: filepath.Join(root, "Shared", fmt.Sprintf("w%d-%d.md", w, r-1)), Remove: true})
				}
				if err := Apply(ops, Options{Root: root}); err != nil {
					t.Errorf("writer %d round %d: %v", w, r, err)
				}
			}
		}()
	}
	wg.Wait()
	want := map[string]string{}
	for w := range writers {
		want[fmt.Sprintf("w%d.md", w)] = fmt.Sprint(rounds - 1)
		want[fmt.Sprintf("Shared/w%d-%d.md", w, rounds-1)] = "x"
	}
	if d := diffTrees(contents(t, root), want); d != "" {
		t.Errorf("after concurrent commits:\n%s", d)
	}
	// The state folder goes with the last lock only when that one made it.
	if entries, err := os.ReadDir(filepath.Join(root, vault.StateDir)); len(entries) > 0 {
		t.Errorf("%s holds %v (%v), want nothing", vault.StateDir, entries, err)
	}
	assertNoTemps(t, root)
}
