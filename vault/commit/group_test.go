package commit

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// groupFixture is a vault and a group of independent writes to it: two
// replaced files (one checked against what was read), two new files in a
// new folder and one at the root. groupOld and groupNew are each file's
// content before and after its write.
func groupFixture(t *testing.T) (root string, ops []Op) {
	t.Helper()
	root = t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"Home.md": "home\n", "Projects/Beta.md": "beta\n"})
	ops = []Op{
		{Path: filepath.Join(root, "Home.md"), Data: []byte("home, edited\n"), CheckOld: true, Old: []byte("home\n")},
		{Path: filepath.Join(root, "Load", "A.md"), Data: []byte("a\n"), IfAbsent: true},
		{Path: filepath.Join(root, "Load", "B.md"), Data: []byte("b\n"), IfAbsent: true},
		{Path: filepath.Join(root, "Projects", "Beta.md"), Data: []byte("beta, edited\n")},
		{Path: filepath.Join(root, "C.md"), Data: []byte("c\n"), IfAbsent: true},
	}
	return root, ops
}

var (
	groupOld = map[string]string{"Home.md": "home\n", "Projects/Beta.md": "beta\n"}
	groupNew = map[string]string{"Home.md": "home, edited\n", "Load/A.md": "a\n", "Load/B.md": "b\n", "Projects/Beta.md": "beta, edited\n", "C.md": "c\n"}
)

// groupFileOf is the vault path of op i of groupFixture.
func groupFileOf(root string, op Op) string {
	rel, _ := filepath.Rel(root, op.Path)
	return filepath.ToSlash(rel)
}

func TestApplyGroup(t *testing.T) {
	root, ops := groupFixture(t)
	errs := ApplyGroup(ops, Options{Root: root})
	for i, err := range errs {
		if err != nil {
			t.Errorf("op %d (%s) = %v", i, groupFileOf(root, ops[i]), err)
		}
	}
	if d := diffTrees(contents(t, root), groupNew); d != "" {
		t.Errorf("after the group the vault differs:\n%s", d)
	}
	assertNoTemps(t, root)
}

// TestApplyGroupConflicts gives a group writes that must fail, each with
// its own error, while the others go ahead.
func TestApplyGroupConflicts(t *testing.T) {
	root, ops := groupFixture(t)
	ops[0].Old = []byte("home as read before someone else's edit\n")            // changed since read
	testutil.WriteFiles(t, root, map[string]string{"C.md": "made meanwhile\n"}) // IfAbsent, now taken
	ops = append(ops,
		Op{Path: filepath.Join(root, "Projects", "Beta.md"), Data: []byte("twice\n")}, // same file twice
		Op{Path: filepath.Join(root, "Gone.md"), Remove: true},                        // not for a group
		Op{Path: "relative.md", Data: []byte("x\n")},                                  // not absolute
	)
	errs := ApplyGroup(ops, Options{Root: root})
	var ce *ChangedError
	if !errors.As(errs[0], &ce) || ce.Path != ops[0].Path || ce.Exists {
		t.Errorf("stale CheckOld = %v, want a *ChangedError for %s", errs[0], ops[0].Path)
	}
	if !errors.As(errs[4], &ce) || ce.Path != ops[4].Path || !ce.Exists {
		t.Errorf("IfAbsent on a taken path = %v, want a *ChangedError (exists) for %s", errs[4], ops[4].Path)
	}
	for i, want := range map[int]string{5: "already writes this file", 6: "writes only", 7: "not absolute"} {
		if errs[i] == nil || !strings.Contains(errs[i].Error(), want) {
			t.Errorf("op %d = %v, want an error saying %q", i, errs[i], want)
		}
	}
	for _, i := range []int{1, 2, 3} {
		if errs[i] != nil {
			t.Errorf("op %d = %v, want it to go ahead", i, errs[i])
		}
	}
	want := map[string]string{"Home.md": "home\n", "Load/A.md": "a\n", "Load/B.md": "b\n", "Projects/Beta.md": "beta, edited\n", "C.md": "made meanwhile\n"}
	if d := diffTrees(contents(t, root), want); d != "" {
		t.Errorf("after the group the vault differs:\n%s", d)
	}
	assertNoTemps(t, root)
}

// groupSteps lists the steps of a successful ApplyGroup of groupFixture.
func groupSteps(t *testing.T) []string {
	t.Helper()
	root, ops := groupFixture(t)
	var steps []string
	errs := ApplyGroup(ops, Options{Root: root, FailAt: func(step string, n int) error {
		steps = append(steps, fmt.Sprintf("%s#%d", step, n))
		return nil
	}})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return steps
}

// TestApplyGroupFailAtEveryStep fails a group at each of its steps in
// turn: the op whose step failed leaves its file as it was (and no new
// folder of its own), every other op still writes its file.
func TestApplyGroupFailAtEveryStep(t *testing.T) {
	injected := errors.New("injected failure")
	for _, failAt := range groupSteps(t) {
		t.Run(failAt, func(t *testing.T) {
			root, ops := groupFixture(t)
			errs := ApplyGroup(ops, Options{Root: root, FailAt: func(step string, n int) error {
				if fmt.Sprintf("%s#%d", step, n) == failAt {
					return injected
				}
				return nil
			}})
			want := map[string]string{}
			failed := 0
			for i, op := range ops {
				name := groupFileOf(root, op)
				switch {
				case errors.Is(errs[i], injected):
					failed++
					if old, ok := groupOld[name]; ok {
						want[name] = old
					}
				case errs[i] != nil:
					t.Errorf("op %d = %v, want nil or the injected error", i, errs[i])
				default:
					want[name] = groupNew[name]
				}
			}
			if failed != 1 {
				t.Errorf("%d ops failed, want 1: %v", failed, errs)
			}
			if d := diffTrees(contents(t, root), want); d != "" {
				t.Errorf("failing at %s:\n%s", failAt, d)
			}
			assertNoTemps(t, root)
		})
	}
}

// TestApplyGroupCrashRecovery stops a group at each of its steps as a
// killed process would (nothing undone, the lock let go), then runs
// Recover: every file is old or new, never a part, and no temporary file
// is left.
func TestApplyGroupCrashRecovery(t *testing.T) {
	for _, crashAt := range append(groupSteps(t), "end") {
		t.Run(crashAt, func(t *testing.T) {
			root, ops := groupFixture(t)
			g := newGroup(ops, Options{Root: root, FailAt: func(step string, n int) error {
				if fmt.Sprintf("%s#%d", step, n) == crashAt {
					return errors.New("crash")
				}
				return nil
			}})
			g.crash = true
			g.run()
			if crashAt != "end" && !g.stopped {
				t.Fatalf("the group did not reach step %s", crashAt)
			}
			if done, err := Recover(root); err != nil {
				t.Fatalf("Recover() = %q, %v", done, err)
			}
			got := contents(t, root)
			for _, op := range ops {
				name := groupFileOf(root, op)
				g, ok := got[name]
				old, hadOld := groupOld[name]
				switch {
				case ok && g == groupNew[name]:
				case ok && hadOld && g == old:
				case !ok && !hadOld:
				default:
					t.Errorf("after a crash at %s: %s = %q (there: %v), want %q or its old state %q", crashAt, name, g, ok, groupNew[name], old)
				}
				delete(got, name)
			}
			for name, c := range got {
				t.Errorf("after a crash at %s: extra file %s = %q", crashAt, name, c)
			}
			if crashAt == "end" {
				if d := diffTrees(contents(t, root), groupNew); d != "" {
					t.Errorf("a group that ran to its end:\n%s", d)
				}
			}
			assertNoTemps(t, root)
		})
	}
}

// BenchmarkApplyGroup commits groups of six new small notes in one
// folder, as concurrent writes under `make load` are committed: the
// vault's write lock, a temporary file per note written and synced, the
// renames, one sync of the folder. Compare CPU (user+sys) for a fixed
// -benchtime: the syncs' wall time depends on the disk.
func BenchmarkApplyGroup(b *testing.B) {
	root := b.TempDir()
	data := []byte("created by the benchmark, see [[Home]]\n")
	n := 0
	for b.Loop() {
		ops := make([]Op, 6)
		for i := range ops {
			ops[i] = Op{Path: filepath.Join(root, "Load", fmt.Sprintf("Note %d.md", n)), Data: data, IfAbsent: true}
			n++
		}
		for i, err := range ApplyGroup(ops, Options{Root: root}) {
			if err != nil {
				b.Fatalf("op %d = %v", i, err)
			}
		}
	}
}
