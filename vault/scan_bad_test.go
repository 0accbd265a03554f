package vault

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// writeFiles creates files (path -> content) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	testutil.WriteFiles(t, root, files)
}

// scanWithin runs Scan and fails the test when it does not return in
// time (a symlink loop must not loop).
func scanWithin(t *testing.T, root string) ScanResult {
	t.Helper()
	type result struct {
		res ScanResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := Scan(root, nil)
		done <- result{res, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Scan(%q) error: %v", root, r.err)
		}
		return r.res
	case <-time.After(10 * time.Second):
		t.Fatalf("Scan(%q) still running after 10s", root)
		return ScanResult{}
	}
}

func problemMap(ps []Problem) map[string]string {
	m := map[string]string{}
	for _, p := range ps {
		m[p.Path] = p.Reason
	}
	return m
}

func TestScanSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"Secret.md": "[[Home]]", "dir/Other.md": "x"})
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"Home.md": "# Home", "real/Note.md": "[[Home]]"})
	links := map[string]string{ // link -> target
		"loop.md":        "loop.md",
		"ping.md":        "pong.md",
		"pong.md":        "ping.md",
		"dangling.md":    "nothing.md",
		"out.md":         filepath.Join(outside, "Secret.md"),
		"outdir":         filepath.Join(outside, "dir"),
		"linkdir":        "real",
		"real/back":      "..",
		"real/self":      ".",
		"alias.md":       filepath.Join("real", "Note.md"),
		"real/up.md":     filepath.Join("..", "Home.md"),
		"real/escape.md": filepath.Join("..", "..", filepath.Base(outside), "Secret.md"),
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(l))); err != nil {
			t.Fatal(err)
		}
	}
	res := scanWithin(t, root)

	wantNotes := []string{"Home.md", "alias.md", "real/Note.md", "real/up.md"}
	if got := noteIDs(res.Notes); !reflect.DeepEqual(got, wantNotes) {
		t.Errorf("Scan() notes = %q, want %q", got, wantNotes)
	}
	probs := problemMap(res.Problems)
	tests := []struct {
		desc string
		path string
		want string // substring of the reason
	}{
		{desc: "a link to itself", path: "loop.md", want: "broken symlink"},
		{desc: "two links to each other", path: "ping.md", want: "broken symlink"},
		{desc: "two links to each other, second", path: "pong.md", want: "broken symlink"},
		{desc: "dangling", path: "dangling.md", want: "broken symlink"},
		{desc: "a file outside the vault", path: "out.md", want: "leaves the vault"},
		{desc: "a folder outside the vault", path: "outdir", want: "leaves the vault"},
		{desc: "a relative link out of the vault", path: "real/escape.md", want: "leaves the vault"},
		{desc: "a folder inside the vault", path: "linkdir", want: "symlinked folder not followed"},
		{desc: "a folder loop to the parent", path: "real/back", want: "symlinked folder not followed"},
		{desc: "a folder loop to itself", path: "real/self", want: "symlinked folder not followed"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			reason, ok := probs[tt.path]
			if !ok || !strings.Contains(reason, tt.want) {
				t.Errorf("Scan() problem for %s = %q (found: %v), want a reason containing %q", tt.path, reason, ok, tt.want)
			}
		})
	}
	if len(res.Problems) != len(tests) {
		t.Errorf("Scan() problems = %v, want %d", res.Problems, len(tests))
	}
}

// parseScanned reads and parses every scanned note as the engine does and
// returns the notes and the files that could not be indexed.
func parseScanned(t *testing.T, res ScanResult) (map[string]*Note, map[string]string) {
	t.Helper()
	notes := map[string]*Note{}
	probs := problemMap(res.Problems)
	for _, f := range res.Notes {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			probs[f.ID] = err.Error()
			continue
		}
		n, err := testParser.Parse(f.ID, src)
		if err != nil {
			probs[f.ID] = err.Error()
			continue
		}
		notes[f.ID] = n
	}
	return notes, probs
}

func TestScanBinaryNote(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Home.md":  "[[Image]]",
		"Image.md": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
	})
	notes, probs := parseScanned(t, scanWithin(t, root))
	if _, ok := notes["Home.md"]; !ok || len(notes) != 1 {
		t.Errorf("parsed notes = %v, want Home.md only", notes)
	}
	if reason := probs["Image.md"]; !strings.Contains(reason, ErrBinary.Error()) {
		t.Errorf("problem for Image.md = %q, want one saying %q", reason, ErrBinary)
	}
	src, _ := os.ReadFile(filepath.Join(root, "Image.md"))
	if _, err := testParser.Parse("Image.md", src); !errors.Is(err, ErrBinary) {
		t.Errorf("Parse(Image.md) error = %v, want ErrBinary", err)
	}
}

func TestScanUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 000 does not stop root from reading")
	}
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"Home.md":           "# Home",
		"Locked.md":         "secret",
		"Closed/Inside.md":  "x",
		"Open/Reachable.md": "y",
	})
	for _, p := range []string{"Locked.md", "Closed"} {
		full := filepath.Join(root, p)
		if err := os.Chmod(full, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(full, 0o755) })
	}
	res := scanWithin(t, root)
	notes, probs := parseScanned(t, res)
	var got []string
	for id := range notes {
		got = append(got, id)
	}
	sort.Strings(got)
	if want := []string{"Home.md", "Open/Reachable.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("parsed notes = %q, want %q", got, want)
	}
	for _, p := range []string{"Locked.md", "Closed"} {
		if reason := probs[p]; !strings.Contains(reason, "permission denied") {
			t.Errorf("problem for %s = %q, want permission denied", p, reason)
		}
	}
}
