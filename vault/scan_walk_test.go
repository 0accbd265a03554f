package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// walkCall is one call of a WalkDirFunc, as a comparable line.
func walkCall(p string, d fs.DirEntry, err error) string {
	s := p
	if d != nil {
		s += fmt.Sprintf(" dir=%v type=%v", d.IsDir(), d.Type())
		if d.Type().IsRegular() {
			info, ierr := d.Info()
			if ierr != nil {
				s += " info-error=" + ierr.Error()
			} else {
				s += fmt.Sprintf(" size=%d mod=%d mode=%v isdir=%v name=%s", info.Size(), info.ModTime().UnixNano(), info.Mode(), info.IsDir(), info.Name())
			}
		}
	}
	if err != nil {
		s += " err=" + err.Error()
	}
	return s
}

// walkTree makes folders, notes, attachments, a dot-folder, a symlink and
// a file that vanishes after its folder is listed.
func walkTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for i := range 40 {
		dir := filepath.Join(root, fmt.Sprintf("d%02d", i%7), fmt.Sprintf("s%d", i%3))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for j, name := range []string{"a.md", "B.MD", "c.png", "a b.md", "z.md"} {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d %s", j, name)), []byte(strings.Repeat("x", i+j)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, p := range []string{".hidden/x.md", "skip/y.md", "a.md", "a/b.md", "a.md.d/c.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "a.md"), filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestWalkAhead checks that walkAhead calls fn exactly as filepath.WalkDir
// does: order, entries, metadata, skipped folders (whether read ahead or
// not), and a walk that stops early.
func TestWalkAhead(t *testing.T) {
	root := walkTree(t)
	for _, tc := range []struct {
		desc    string
		descend func(string) bool
		stop    string // the walk ends with an error at this path
	}{
		{desc: "read ahead everywhere", descend: func(string) bool { return true }},
		{desc: "read ahead nowhere", descend: func(string) bool { return false }},
		{desc: "read ahead some", descend: func(p string) bool { return strings.Contains(p, "d0") }},
		{desc: "stops early", descend: func(string) bool { return true }, stop: filepath.Join(root, "d03", "s1")},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			record := func(calls *[]string) fs.WalkDirFunc {
				return func(p string, d fs.DirEntry, err error) error {
					*calls = append(*calls, walkCall(p, d, err))
					switch base := filepath.Base(p); {
					case p == tc.stop:
						return errors.New("stop")
					case base == ".hidden" || base == "skip":
						return filepath.SkipDir
					case base == "s2" && strings.Contains(p, "d05"):
						return filepath.SkipDir
					}
					return nil
				}
			}
			var want, got []string
			wantErr := filepath.WalkDir(root, record(&want))
			gotErr := walkAhead(root, record(&got), tc.descend, HasMD)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("walkAhead = %v, want %v", gotErr, wantErr)
			}
			if !slices.Equal(got, want) {
				t.Errorf("walkAhead calls differ from WalkDir:\n got %d calls: %q\nwant %d calls: %q", len(got), got, len(want), want)
			}
			if tc.stop == "" && len(want) < 100 {
				t.Fatalf("only %d calls: the tree is too small to test", len(want))
			}
		})
	}
}

// TestWalkAheadUncleanRoot checks a root given with a trailing
// separator and a dot: the paths fn gets are WalkDir's.
func TestWalkAheadUncleanRoot(t *testing.T) {
	root := walkTree(t)
	for _, start := range []string{root + string(filepath.Separator), filepath.Join(root, "d01") + string(filepath.Separator) + "."} {
		var want, got []string
		rec := func(calls *[]string) fs.WalkDirFunc {
			return func(p string, d fs.DirEntry, err error) error {
				*calls = append(*calls, walkCall(p, d, err))
				return nil
			}
		}
		wantErr := filepath.WalkDir(start, rec(&want))
		gotErr := walkAhead(start, rec(&got), func(string) bool { return true }, HasMD)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !slices.Equal(got, want) {
			t.Errorf("walkAhead(%q) = %v %q, want %v %q", start, gotErr, got[:min(len(got), 3)], wantErr, want[:min(len(want), 3)])
		}
	}
}

// TestWalkAheadMissing checks a start that does not exist and a folder
// that cannot be read, as WalkDir reports them.
func TestWalkAheadMissing(t *testing.T) {
	root := t.TempDir()
	var want, got []string
	rec := func(calls *[]string) fs.WalkDirFunc {
		return func(p string, d fs.DirEntry, err error) error {
			*calls = append(*calls, walkCall(p, d, err))
			return nil
		}
	}
	missing := filepath.Join(root, "nope")
	wantErr := filepath.WalkDir(missing, rec(&want))
	gotErr := walkAhead(missing, rec(&got), func(string) bool { return true }, HasMD)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !slices.Equal(got, want) {
		t.Errorf("walkAhead(missing) = %v %q, want %v %q", gotErr, got, wantErr, want)
	}
}

// TestScanChangedFiles checks that a scan sees a note's new size and
// modification time, a new note and a removed one.
func TestScanChangedFiles(t *testing.T) {
	root := walkTree(t)
	before, err := Scan(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(root, "d03", "s1", "0 a.md")
	if err := os.WriteFile(changed, []byte("longer than before, by far"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "d04", "s0", "4 z.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "d06", "new.md"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := Scan(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := func(s ScanResult) map[string]File {
		m := map[string]File{}
		for _, f := range s.Notes {
			m[f.ID] = f
		}
		return m
	}
	b, a := files(before), files(after)
	fi, err := os.Lstat(changed)
	if err != nil {
		t.Fatal(err)
	}
	if f := a["d03/s1/0 a.md"]; f.Size != fi.Size() || !f.ModTime.Equal(fi.ModTime()) {
		t.Errorf("changed note: size %d mod %v, want %d %v", f.Size, f.ModTime, fi.Size(), fi.ModTime())
	}
	if _, ok := a["d04/s0/4 z.md"]; ok {
		t.Error("a removed note is still listed")
	}
	if _, ok := a["d06/new.md"]; !ok {
		t.Error("a new note is not listed")
	}
	if len(a) != len(b) {
		t.Errorf("%d notes after, want %d", len(a), len(b))
	}
}
