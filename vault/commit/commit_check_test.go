package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/vault"
)

// checkFixture is a vault whose ops, all checked, rewrite two notes,
// remove a third and create a fourth.
func checkFixture(t *testing.T) (root string, ops []Op) {
	t.Helper()
	root = t.TempDir()
	old := map[string]string{
		"A.md":          "alpha [[Target]]\n",
		"Sub/B.md":      "beta [[Target]]\n",
		"Target.md":     "the target\n",
		"Untouched.md":  "not in the commit\n",
		"Sub/Unrelated": "x",
	}
	testutil.WriteFiles(t, root, old)
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	ops = []Op{
		{Path: p("A.md"), Data: []byte("alpha [[Renamed]]\n"), CheckOld: true, Old: []byte(old["A.md"])},
		{Path: p("Renamed.md"), Data: []byte("the target\n"), IfAbsent: true},
		{Path: p("Target.md"), Remove: true, CheckOld: true, Old: []byte(old["Target.md"])},
		{Path: p("Sub/B.md"), Data: []byte("beta [[Renamed]]\n"), CheckOld: true, Old: []byte(old["Sub/B.md"])},
	}
	return root, ops
}

// contentsOnly drops the modes of a snapshot, keeping the contents.
func contentsOnly(snap map[string]string) map[string]string {
	out := make(map[string]string, len(snap))
	for k, v := range snap {
		_, after, _ := strings.Cut(v, " ")
		out[k] = after
	}
	return out
}

func TestCommitCheckBefore(t *testing.T) {
	tests := []struct {
		desc   string
		give   func(root string) error // what someone else does before the commit
		want   error
		exists bool // want ChangedError.Exists
		path   string
	}{
		{desc: "nothing changed", give: func(string) error { return nil }},
		{desc: "a rewritten note edited", want: ErrChanged, path: "Sub/B.md", give: func(root string) error {
			return appendText(filepath.Join(root, "Sub", "B.md"), "USER EDIT\n")
		}},
		{desc: "a rewritten note removed", want: ErrChanged, path: "A.md", give: func(root string) error {
			return os.Remove(filepath.Join(root, "A.md"))
		}},
		{desc: "the removed note edited", want: ErrChanged, path: "Target.md", give: func(root string) error {
			return appendText(filepath.Join(root, "Target.md"), "USER EDIT\n")
		}},
		{desc: "the new note made meanwhile", want: ErrChanged, exists: true, path: "Renamed.md", give: func(root string) error {
			return os.WriteFile(filepath.Join(root, "Renamed.md"), []byte("USER EDIT\n"), 0o644)
		}},
		{desc: "a folder at the new note's path", want: ErrChanged, exists: true, path: "Renamed.md", give: func(root string) error {
			return os.Mkdir(filepath.Join(root, "Renamed.md"), 0o755)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			root, ops := checkFixture(t)
			if err := tt.give(root); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, root)
			err := Apply(ops, Options{Root: root})
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("commit = %v, want %v", err, tt.want)
			}
			if tt.want == nil {
				if got := readFile(t, filepath.Join(root, "Renamed.md")); got != "the target\n" {
					t.Errorf("Renamed.md = %q after the commit", got)
				}
				return
			}
			var ce *ChangedError
			if !errors.As(err, &ce) || ce.Path != filepath.Join(root, filepath.FromSlash(tt.path)) || ce.Exists != tt.exists {
				t.Errorf("commit error = %#v, want a ChangedError for %s (Exists %v)", ce, tt.path, tt.exists)
			}
			if d := diffTrees(snapshot(t, root), before); d != "" {
				t.Errorf("a refused commit changed the vault:\n%s", d)
			}
		})
	}
}

func TestCommitCheckErrors(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "n.md")
	for _, op := range []Op{
		{Path: p, Remove: true, IfAbsent: true},
		{Path: p, Data: []byte("x"), CheckOld: true, IfAbsent: true},
	} {
		if err := Apply([]Op{op}, Options{Root: root}); err == nil || errors.Is(err, ErrChanged) {
			t.Errorf("commit(%+v) = %v, want an error for a bad op", op, err)
		}
	}
}

// TestCommitCheckDuring has someone else edit one file of a commit at
// each of its steps in turn, by appending to it in place, by replacing
// it (as editors save) or, for the new file, by making it. Whatever the
// moment, the edit is never lost: either the commit is refused with
// ErrChanged and every other file is as before, or the edit came after
// the file's new version was in place and sits on top of it.
func TestCommitCheckDuring(t *testing.T) {
	var steps []string
	root, ops := checkFixture(t)
	if err := Apply(ops, Options{Root: root, FailAt: func(step string, n int) error {
		steps = append(steps, fmt.Sprintf("%s#%d", step, n))
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	const edit = "USER EDIT\n"
	kinds := []struct {
		name string
		give func(p string) (bool, error) // reports whether it edited
	}{
		{"append", func(p string) (bool, error) {
			err := appendText(p, edit)
			if errors.Is(err, fs.ErrNotExist) {
				return false, nil
			}
			return err == nil, err
		}},
		{"replace", func(p string) (bool, error) {
			b, err := os.ReadFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			tmp := p + ".editor-tmp"
			if err := os.WriteFile(tmp, append(b, edit...), 0o644); err != nil {
				return false, err
			}
			return true, os.Rename(tmp, p)
		}},
		{"create", func(p string) (bool, error) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			_, err = f.WriteString(edit)
			return true, errors.Join(err, f.Close())
		}},
	}
	for _, step := range steps {
		for i := range ops {
			for _, kind := range kinds {
				if (kind.name == "create") != ops[i].IfAbsent {
					continue
				}
				root, ops := checkFixture(t)
				rel, _ := filepath.Rel(root, ops[i].Path)
				rel = filepath.ToSlash(rel)
				name := fmt.Sprintf("%s %s at %s", kind.name, rel, step)
				before := contentsOnly(snapshot(t, root))
				edited := false
				err := Apply(ops, Options{Root: root, FailAt: func(s string, n int) error {
					if fmt.Sprintf("%s#%d", s, n) == step {
						ok, err := kind.give(ops[i].Path)
						if err != nil {
							t.Errorf("%s: %v", name, err)
						}
						edited = ok
					}
					return nil
				}})
				got := contentsOnly(snapshot(t, root))
				want := map[string]string{}
				switch {
				case errors.Is(err, ErrChanged):
					if !edited {
						t.Errorf("%s: commit = %v with no edit made", name, err)
					}
					want = before
					want[rel] += edit
				case err != nil:
					t.Errorf("%s: commit = %v, want nil or ErrChanged", name, err)
					continue
				default:
					// The edit, if any, came after the new version was in place.
					want = cloneMap(before)
					for _, op := range ops {
						r, _ := filepath.Rel(root, op.Path)
						r = filepath.ToSlash(r)
						if op.Remove {
							delete(want, r)
						} else {
							want[r] = string(op.Data)
						}
					}
					if edited {
						if ops[i].Remove {
							t.Errorf("%s: the removed file was edited and removed", name)
						}
						want[rel] += edit
					}
				}
				if d := diffTrees(got, want); d != "" {
					t.Errorf("%s: commit = %v, and the vault differs from what it should hold:\n%s", name, err, d)
				}
				assertNoTemps(t, root)
				if _, err := os.Lstat(journalPath(root)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s: the journal is left: %v", name, err)
				}
			}
		}
	}
}

func cloneMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestCommitCheckSingle checks a one-file commit (no journal, no
// backup): its check too runs under the write lock, just before the
// rename.
func TestCommitCheckSingle(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "n.md")
	testutil.WriteFiles(t, root, map[string]string{"n.md": "one\n"})
	err := Apply([]Op{{Path: p, Data: []byte("two\n"), CheckOld: true, Old: []byte("one\n")}}, Options{Root: root, FailAt: func(step string, n int) error {
		if step == "close" {
			return appendText(p, "USER EDIT\n")
		}
		return nil
	}})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("commit with the file edited meanwhile = %v, want ErrChanged", err)
	}
	if got := readFile(t, p); got != "one\nUSER EDIT\n" {
		t.Errorf("the file holds %q, want the edit kept", got)
	}
	assertNoTemps(t, root)
	// The check waits for the lock another writer holds.
	lk, err := LockWrites(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- Apply([]Op{{Path: p, Data: []byte("mine\n"), CheckOld: true, Old: []byte("one\nUSER EDIT\n")}}, Options{Root: root})
	}()
	// The other writer changes the file while it holds the lock.
	if err := writeFileAtomic(p, []byte("theirs\n"), 0); err != nil {
		t.Fatal(err)
	}
	if err := lk.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, ErrChanged) {
		t.Errorf("commit after another writer changed the file = %v, want ErrChanged", err)
	}
	if got := readFile(t, p); got != "theirs\n" {
		t.Errorf("the file holds %q, want the other writer's", got)
	}
}

func appendText(p, text string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	return errors.Join(err, f.Close())
}

func TestCommitSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	type setup struct {
		root, outside string
		p             func(string) string
	}
	newVault := func(t *testing.T) setup {
		top := t.TempDir()
		s := setup{root: filepath.Join(top, "vault"), outside: filepath.Join(top, "outside")}
		s.p = func(rel string) string { return filepath.Join(s.root, filepath.FromSlash(rel)) }
		testutil.WriteFiles(t, s.root, map[string]string{"Real/Note.md": "real\n", "Other.md": "other\n"})
		testutil.WriteFiles(t, s.outside, map[string]string{"Secret.md": "secret\n"})
		if err := os.Chmod(s.p("Real/Note.md"), 0o600); err != nil {
			t.Fatal(err)
		}
		for link, target := range map[string]string{
			"Link.md":    "Real/Note.md",
			"Sub/Up.md":  "../Real/Note.md",
			"Escape.md":  filepath.Join(s.outside, "Secret.md"),
			"State.md":   ".vaultgraph/x.md",
			"Dangles.md": "Missing.md",
		} {
			if err := os.MkdirAll(filepath.Dir(s.p(link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, s.p(link)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(s.p(".vaultgraph"), 0o755); err != nil {
			t.Fatal(err)
		}
		testutil.WriteFiles(t, s.root, map[string]string{".vaultgraph/x.md": "state\n"})
		return s
	}
	tests := []struct {
		desc    string
		give    func(s setup) []Op
		wantErr error // nil: success; errAny: any error
		want    map[string]string
	}{
		{
			desc: "write through a symlink",
			give: func(s setup) []Op {
				return []Op{{Path: s.p("Link.md"), Data: []byte("new\n"), CheckOld: true, Old: []byte("real\n")}}
			},
			want: map[string]string{"Real/Note.md": "-rw------- new\n", "Link.md": "L Real/Note.md"},
		},
		{
			desc: "through a relative symlink, with another file",
			give: func(s setup) []Op {
				return []Op{
					{Path: s.p("Sub/Up.md"), Data: []byte("new\n")},
					{Path: s.p("Other.md"), Data: []byte("other 2\n")},
				}
			},
			want: map[string]string{"Real/Note.md": "-rw------- new\n", "Sub/Up.md": "L ../Real/Note.md", "Other.md": "-rw-r--r-- other 2\n"},
		},
		{
			desc: "the same write through the symlink and directly",
			give: func(s setup) []Op {
				return []Op{
					{Path: s.p("Link.md"), Data: []byte("new\n")},
					{Path: s.p("Real/Note.md"), Data: []byte("new\n")},
					{Path: s.p("Other.md"), Data: []byte("other 2\n")},
				}
			},
			want: map[string]string{"Real/Note.md": "-rw------- new\n", "Link.md": "L Real/Note.md", "Other.md": "-rw-r--r-- other 2\n"},
		},
		{
			desc: "two different writes to one file",
			give: func(s setup) []Op {
				return []Op{{Path: s.p("Link.md"), Data: []byte("new\n")}, {Path: s.p("Real/Note.md"), Data: []byte("other\n")}}
			},
			wantErr: errAny,
		},
		{
			desc: "a changed target is a conflict",
			give: func(s setup) []Op {
				return []Op{{Path: s.p("Link.md"), Data: []byte("new\n"), CheckOld: true, Old: []byte("was\n")}}
			},
			wantErr: ErrChanged,
		},
		{
			desc:    "a symlink leaving the vault",
			give:    func(s setup) []Op { return []Op{{Path: s.p("Escape.md"), Data: []byte("pwned\n")}} },
			wantErr: vault.ErrUnsafePath,
		},
		{
			desc:    "a symlink into the state folder",
			give:    func(s setup) []Op { return []Op{{Path: s.p("State.md"), Data: []byte("pwned\n")}} },
			wantErr: vault.ErrUnsafePath,
		},
		{
			desc:    "a dangling symlink",
			give:    func(s setup) []Op { return []Op{{Path: s.p("Dangles.md"), Data: []byte("new\n")}} },
			wantErr: fs.ErrNotExist,
		},
		{
			desc: "a removal removes the symlink, not its target",
			give: func(s setup) []Op {
				return []Op{{Path: s.p("Link.md"), Remove: true, CheckOld: true, Old: []byte("real\n")}, {Path: s.p("Other.md"), Data: []byte("other 2\n")}}
			},
			want: map[string]string{"Link.md": "", "Real/Note.md": "-rw------- real\n", "Other.md": "-rw-r--r-- other 2\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s := newVault(t)
			before := linkSnapshot(t, s.root)
			outside := snapshot(t, s.outside)
			err := Apply(tt.give(s), Options{Root: s.root})
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("commit = %v, want success", err)
			case tt.wantErr == errAny && err == nil, tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("commit = %v, want %v", err, tt.wantErr)
			}
			want := before
			if tt.wantErr == nil {
				want = cloneMap(before)
				for k, v := range tt.want {
					if v == "" {
						delete(want, k)
					} else {
						want[k] = v
					}
				}
			}
			if d := diffTrees(linkSnapshot(t, s.root), want); d != "" {
				t.Errorf("after commit (%v) the vault differs:\n%s", err, d)
			}
			if d := diffTrees(snapshot(t, s.outside), outside); d != "" {
				t.Errorf("commit changed a file outside the vault:\n%s", d)
			}
			assertNoTemps(t, s.root)
		})
	}

	t.Run("writeFileAtomic", func(t *testing.T) {
		s := newVault(t)
		if err := writeFileAtomic(s.p("Link.md"), []byte("new\n"), 0); err != nil {
			t.Fatal(err)
		}
		if got := linkSnapshot(t, s.root); got["Link.md"] != "L Real/Note.md" || got["Real/Note.md"] != "-rw------- new\n" {
			t.Errorf("writeFileAtomic through a symlink: Link.md = %q, Real/Note.md = %q", got["Link.md"], got["Real/Note.md"])
		}
	})
}

// errAny stands for any error in a table.
var errAny = errors.New("any error")

// linkSnapshot is snapshot with symlinks as "L target", not followed,
// and folders left out.
func linkSnapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			out[rel] = "L " + target
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		out[rel] = info.Mode().String() + " " + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
