package commit

import (
	"bytes"
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

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Note.md")
	if err := writeFileAtomic(p, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "one\n" {
		t.Errorf("after the first write the file holds %q, want %q", got, "one\n")
	}
	if runtime.GOOS != "windows" {
		if got := fileModeOf(t, p); got != 0o600 {
			t.Errorf("a new file has mode %v, want %v", got, fs.FileMode(0o600))
		}
		if err := os.Chmod(p, 0o640); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeFileAtomic(p, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "two\n" {
		t.Errorf("after the second write the file holds %q, want %q", got, "two\n")
	}
	if runtime.GOOS != "windows" {
		if got := fileModeOf(t, p); got != 0o640 {
			t.Errorf("a replaced file has mode %v, want its old mode %v", got, fs.FileMode(0o640))
		}
	}
	assertNoTemps(t, dir)
}

func TestWriteFileAtomicDefaultPerm(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no permission bits")
	}
	p := filepath.Join(t.TempDir(), "n.md")
	if err := writeFileAtomic(p, nil, 0); err != nil {
		t.Fatal(err)
	}
	if got := fileModeOf(t, p); got != DefaultFilePerm {
		t.Errorf("a new file written with perm 0 has mode %v, want %v", got, DefaultFilePerm)
	}
}

func TestWriteFileAtomicMissingFolder(t *testing.T) {
	dir := t.TempDir()
	err := writeFileAtomic(filepath.Join(dir, "missing", "n.md"), []byte("x"), 0o644)
	if err == nil {
		t.Fatal("writeFileAtomic into a missing folder succeeded, want an error")
	}
	assertNoTemps(t, dir)
}

func TestWriteFileAtomicConcurrent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Note.md")
	const writers, rounds = 8, 20
	versions := make([][]byte, writers)
	for i := range versions {
		versions[i] = bytes.Repeat([]byte{byte('a' + i)}, 64<<10)
	}
	if err := writeFileAtomic(p, versions[0], 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	readErr := make(chan error, 1)
	go func() {
		defer close(readErr)
		for {
			select {
			case <-stop:
				return
			default:
			}
			b, err := os.ReadFile(p)
			if err != nil {
				if runtime.GOOS == "windows" {
					continue // a rename can make the file briefly unopenable there
				}
				readErr <- err
				return
			}
			if !slices.ContainsFunc(versions, func(v []byte) bool { return bytes.Equal(v, b) }) {
				readErr <- fmt.Errorf("read a partial file of %d bytes", len(b))
				return
			}
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if err := writeFileAtomic(p, versions[w], 0o644); err != nil && runtime.GOOS != "windows" {
					t.Errorf("writeFileAtomic: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	if err := <-readErr; err != nil {
		t.Error(err)
	}
	b := []byte(readFile(t, p))
	if !slices.ContainsFunc(versions, func(v []byte) bool { return bytes.Equal(v, b) }) {
		t.Errorf("after concurrent writes the file holds %d bytes that no writer wrote", len(b))
	}
	assertNoTemps(t, dir)
}

// commitFixture is a vault with three notes; its ops write one note,
// create a new one in a new folder and move a third into that folder.
func commitFixture(t *testing.T) (root string, ops []Op) {
	t.Helper()
	root = t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{
		"Home.md":          "home\n",
		"Projects/Beta.md": "beta\n",
		"Old/Alpha.md":     "alpha\n",
	})
	if runtime.GOOS != "windows" {
		if err := os.Chmod(filepath.Join(root, "Home.md"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ops = []Op{
		{Path: filepath.Join(root, "Home.md"), Data: []byte("home, edited\n")},
		{Path: filepath.Join(root, "New", "Deep", "Alpha.md"), Data: []byte("alpha, moved\n")},
		{Path: filepath.Join(root, "Old", "Alpha.md"), Remove: true},
		{Path: filepath.Join(root, "Projects", "Gamma.md"), Data: []byte("gamma\n"), Perm: 0o640},
	}
	return root, ops
}

func TestCommit(t *testing.T) {
	root, ops := commitFixture(t)
	if err := Apply(ops, Options{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Home.md":           "home, edited\n",
		"New/":              "",
		"New/Deep/":         "",
		"New/Deep/Alpha.md": "alpha, moved\n",
		"Old/":              "",
		"Projects/":         "",
		"Projects/Beta.md":  "beta\n",
		"Projects/Gamma.md": "gamma\n",
	}
	got := snapshot(t, root)
	if runtime.GOOS != "windows" {
		want["Home.md"] = "-rw------- " + want["Home.md"]
		want["Projects/Gamma.md"] = "-rw-r----- " + want["Projects/Gamma.md"]
		for k, v := range got {
			if k == "Home.md" || k == "Projects/Gamma.md" {
				continue
			}
			got[k] = v[strings.IndexByte(v, ' ')+1:]
		}
	} else {
		for k, v := range got {
			got[k] = v[strings.IndexByte(v, ' ')+1:]
		}
	}
	for k := range got {
		if strings.HasSuffix(k, "/") {
			got[k] = ""
		}
	}
	if d := diffTrees(got, want); d != "" {
		t.Errorf("after commit the vault differs from what was meant:\n%s", d)
	}
}

// TestCommitFailAtEveryStep fails a commit at each of its steps in turn
// and checks that the vault is left exactly as it was.
func TestCommitFailAtEveryStep(t *testing.T) {
	// A successful run lists the steps.
	var steps []string
	root, ops := commitFixture(t)
	err := Apply(ops, Options{FailAt: func(step string, n int) error {
		steps = append(steps, fmt.Sprintf("%s#%d", step, n))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, root)
	for _, kind := range []string{"mkdir", "create", "write", "sync", "chmod", "close", "remove", "backup", "rename"} {
		if !slices.ContainsFunc(steps, func(s string) bool { return strings.HasPrefix(s, kind+"#") }) {
			t.Errorf("a commit with a move took no %q step: %v", kind, steps)
		}
	}
	injected := errors.New("injected failure")
	for _, failAt := range steps {
		t.Run(failAt, func(t *testing.T) {
			root, ops := commitFixture(t)
			before := snapshot(t, root)
			err := Apply(ops, Options{FailAt: func(step string, n int) error {
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

// TestCommitCaseOnlyRename renames a note to a name that differs only in
// letter case, which on a case-insensitive file system is the same entry.
func TestCommitCaseOnlyRename(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"alpha.md": "old\n"})
	ops := []Op{
		{Path: filepath.Join(root, "Alpha.md"), Data: []byte("new\n")},
		{Path: filepath.Join(root, "alpha.md"), Remove: true},
	}
	if err := Apply(ops, Options{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Alpha.md": "new\n"}
	got := snapshot(t, root)
	for k, v := range got {
		got[k] = v[strings.IndexByte(v, ' ')+1:]
	}
	if d := diffTrees(got, want); d != "" {
		t.Errorf("after a case-only rename:\n%s", d)
	}
}

func TestCommitErrors(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"a.md": "a", "Folder/x.md": "x"})
	tests := []struct {
		desc string
		ops  []Op
	}{
		{desc: "relative path", ops: []Op{{Path: "a.md", Data: []byte("b")}}},
		{desc: "path twice", ops: []Op{{Path: filepath.Join(root, "a.md"), Data: []byte("b")}, {Path: filepath.Join(root, "a.md"), Remove: true}}},
		{desc: "write over a folder", ops: []Op{{Path: filepath.Join(root, "a.md"), Data: []byte("b")}, {Path: filepath.Join(root, "Folder"), Data: []byte("b")}}},
		{desc: "remove a folder", ops: []Op{{Path: filepath.Join(root, "a.md"), Data: []byte("b")}, {Path: filepath.Join(root, "Folder"), Remove: true}}},
		{desc: "folder under a file", ops: []Op{{Path: filepath.Join(root, "n.md"), Data: []byte("b")}, {Path: filepath.Join(root, "a.md", "b.md"), Data: []byte("b")}}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			before := snapshot(t, root)
			if err := Apply(tt.ops, Options{}); err == nil {
				t.Errorf("commit(%s) succeeded, want an error", tt.desc)
			}
			if d := diffTrees(snapshot(t, root), before); d != "" {
				t.Errorf("a failed commit(%s) changed the vault:\n%s", tt.desc, d)
			}
		})
	}
}

func TestCommitRemoveMissing(t *testing.T) {
	root := t.TempDir()
	if err := Apply([]Op{{Path: filepath.Join(root, "gone.md"), Remove: true}}, Options{}); err != nil {
		t.Errorf("commit removing a missing file = %v, want nil", err)
	}
	if err := Apply(nil, Options{}); err != nil {
		t.Errorf("commit(nil) = %v, want nil", err)
	}
}

func TestCleanupTemps(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{
		"Keep.md":                                  "keep\n",
		".vaultgraph-tmp-123":                      "half a note",
		"Sub/.vaultgraph-tmp-456":                  "half",
		"Sub/Replaced.md":                          "new version\n",
		"Sub/.vaultgraph-bak-0123abcd-Replaced.md": "old version\n",
		"Sub/.vaultgraph-bak-89abcdef-Removed.md":  "removed note\n",
		".vaultgraph-bak-nothex12-Odd.md":          "not ours\n",
		".git/.vaultgraph-tmp-789":                 "not looked at",
	})
	done, err := Recover(root)
	if err != nil {
		t.Fatal(err)
	}
	wantDone := []string{
		"removed backup Sub/.vaultgraph-bak-0123abcd-Replaced.md",
		"removed temporary file .vaultgraph-tmp-123",
		"removed temporary file Sub/.vaultgraph-tmp-456",
		"restored Sub/Removed.md from backup Sub/.vaultgraph-bak-89abcdef-Removed.md",
	}
	if !slices.Equal(done, wantDone) {
		t.Errorf("Recover() = %q, want %q", done, wantDone)
	}
	want := map[string]string{
		".git/":                           "",
		".git/.vaultgraph-tmp-789":        "not looked at",
		".vaultgraph-bak-nothex12-Odd.md": "not ours\n",
		"Keep.md":                         "keep\n",
		"Sub/":                            "",
		"Sub/Removed.md":                  "removed note\n",
		"Sub/Replaced.md":                 "new version\n",
	}
	got := snapshot(t, root)
	for k, v := range got {
		got[k] = v[strings.IndexByte(v, ' ')+1:]
		if strings.HasSuffix(k, "/") {
			got[k] = ""
		}
	}
	if d := diffTrees(got, want); d != "" {
		t.Errorf("after Recover:\n%s", d)
	}
	again, err := Recover(root)
	if err != nil || len(again) != 0 {
		t.Errorf("a second Recover() = %q, %v, want nothing to do", again, err)
	}
	if _, err := Recover(filepath.Join(root, "missing")); err == nil {
		t.Error("Recover on a missing folder succeeded, want an error")
	}
}

// TestCleanupTempsAfterCrash stops a commit at each step without undoing
// anything (as a crash would) and checks that Recover loses no
// content: every file holds its old or its new version.
func TestCleanupTempsAfterCrash(t *testing.T) {
	var steps []string
	root, ops := commitFixture(t)
	_ = Apply(ops, Options{FailAt: func(step string, n int) error {
		steps = append(steps, fmt.Sprintf("%s#%d", step, n))
		return nil
	}})
	_ = root
	for _, crashAt := range steps {
		t.Run(crashAt, func(t *testing.T) {
			root, ops := commitFixture(t)
			c := &txn{ops: make([]opState, len(ops)), counts: map[string]int{}}
			for i, op := range ops {
				c.ops[i] = opState{Op: op}
			}
			c.failAt = func(step string, n int) error {
				if fmt.Sprintf("%s#%d", step, n) == crashAt {
					return errors.New("crash")
				}
				return nil
			}
			_ = c.run() // no rollback: the process died
			if _, err := Recover(root); err != nil {
				t.Fatal(err)
			}
			got := snapshot(t, root)
			for _, f := range []struct{ path, old, new string }{
				{"Home.md", "home\n", "home, edited\n"},
				{"Projects/Beta.md", "beta\n", "beta\n"},
			} {
				v := got[f.path]
				v = v[strings.IndexByte(v, ' ')+1:]
				if v != f.old && v != f.new {
					t.Errorf("%s holds %q, want %q or %q", f.path, v, f.old, f.new)
				}
			}
			alpha := got["Old/Alpha.md"] + got["New/Deep/Alpha.md"]
			if !strings.Contains(alpha, "alpha") {
				t.Errorf("the moved note is lost: %v", got)
			}
			assertNoTemps(t, root)
		})
	}
}

// snapshot lists every file and folder under root with its mode and
// content: "path" -> "mode content" ("path/" for folders).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[rel+"/"] = info.Mode().String() + " "
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = info.Mode().String() + " " + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffTrees(got, want map[string]string) string {
	var b strings.Builder
	for k, v := range want {
		if g, ok := got[k]; !ok {
			fmt.Fprintf(&b, "  missing %s\n", k)
		} else if g != v {
			fmt.Fprintf(&b, "  %s = %q, want %q\n", k, g, v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "  extra %s = %q\n", k, v)
		}
	}
	return b.String()
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fileModeOf(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func assertNoTemps(t *testing.T, root string) {
	t.Helper()
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && (strings.HasPrefix(d.Name(), TempPrefix) || strings.HasPrefix(d.Name(), BackupPrefix)) {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
}

// writeFileAtomic replaces the file at path with data so that a reader
// sees either the old or the new content, never a part: the data goes to
// a temporary file in the same folder (named TempPrefix...), which is
// synced and renamed over path; then the folder is synced (not on
// Windows, where a folder cannot be synced). An existing file keeps its
// permission bits; a new one gets perm (DefaultFilePerm when 0, not
// reduced by the umask). When path is a symlink, the file it leads to is
// replaced that way and the symlink stays (commit does the same, and
// checks that the target is inside its Root). On error the temporary
// file is removed and path is untouched.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("write %s: follow the symlink: %w", path, err)
		}
		path = real
	}
	mode := fileMode(path, perm)
	tmp, err := writeTemp(filepath.Dir(path), data, mode, nil)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := syncFolder(filepath.Dir(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
