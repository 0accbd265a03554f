package vault

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

func TestSafePath(t *testing.T) {
	root := t.TempDir()
	testutil.WriteFiles(t, root, map[string]string{"Projects/Alpha.md": "a"})
	tests := []struct {
		desc string
		give string
		want string // vault-relative, slash form; "" when refused
	}{
		{desc: "note at the root", give: "Home.md", want: "Home.md"},
		{desc: "existing note", give: "Projects/Alpha.md", want: "Projects/Alpha.md"},
		{desc: "new note in new folders", give: "New/Deep/Note.md", want: "New/Deep/Note.md"},
		{desc: "dot folder", give: ".obsidian/app.json", want: ".obsidian/app.json"},
		{desc: "unicode", give: "Café/Menü.md", want: "Café/Menü.md"},
		{desc: "name with inner dots", give: "v1.2 notes.md", want: "v1.2 notes.md"},
		{desc: "empty", give: ""},
		{desc: "NUL", give: "a\x00.md"},
		{desc: "absolute", give: "/etc/passwd"},
		{desc: "double slash", give: "//server/share/x.md"},
		{desc: "drive and backslash", give: `C:\x.md`},
		{desc: "drive relative", give: "C:x.md"},
		{desc: "drive slash", give: "c:/x.md"},
		{desc: "UNC", give: `\\server\share\x.md`},
		{desc: "backslash", give: `Projects\Alpha.md`},
		{desc: "dot dot", give: "../x.md"},
		{desc: "dot dot inside", give: "a/../../x.md"},
		{desc: "dot dot that stays inside", give: "Projects/../Home.md"},
		{desc: "dot segment", give: "./x.md"},
		{desc: "empty segment", give: "a//x.md"},
		{desc: "trailing slash", give: "a/"},
		{desc: "reserved name", give: "CON"},
		{desc: "reserved name with extension", give: "nul.md"},
		{desc: "reserved folder", give: "com1/x.md"},
		{desc: "reserved, lower case, two extensions", give: "lpt9.tar.gz"},
		{desc: "reserved with space before dot", give: "aux .md"},
		{desc: "not reserved", give: "CONSOLE.md", want: "CONSOLE.md"},
		{desc: "not reserved COM10", give: "COM10.md", want: "COM10.md"},
		{desc: "trailing dot", give: "x."},
		{desc: "trailing space", give: "x /y.md"},
		{desc: "long name", give: strings.Repeat("a", 256)},
		{desc: "longest name", give: strings.Repeat("a", 255), want: strings.Repeat("a", 255)},
		{desc: "path over MaxPathBytes", give: strings.Repeat(strings.Repeat("b", 203)+"/", 5) + "xy.md"},
		{desc: "longest path", give: strings.Repeat(strings.Repeat("c", 203)+"/", 5) + "x.md", want: strings.Repeat(strings.Repeat("c", 203)+"/", 5) + "x.md"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := SafePath(root, tt.give)
			if tt.want == "" {
				if !errors.Is(err, ErrUnsafePath) {
					t.Errorf("SafePath(%q) = %q, %v, want ErrUnsafePath", tt.give, got, err)
				}
				return
			}
			want := filepath.Join(root, filepath.FromSlash(tt.want))
			if err != nil || got != want {
				t.Errorf("SafePath(%q) = %q, %v, want %q", tt.give, got, err, want)
			}
		})
	}
}

func TestSafePathSymlinks(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "vault")
	outside := filepath.Join(base, "outside")
	testutil.WriteFiles(t, base, map[string]string{"vault/Notes/a.md": "a", "outside/secret.md": "s"})
	links := map[string]string{
		"vault/Out":         outside,
		"vault/In":          filepath.Join(root, "Notes"),
		"vault/Notes/s.md":  filepath.Join(outside, "secret.md"),
		"vault/Dangling.md": filepath.Join(outside, "missing.md"),
		"vault/RelOut":      filepath.Join("..", "outside"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(name))); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	tests := []struct {
		give string
		ok   bool
	}{
		{give: "Out/new.md"},
		{give: "Out/secret.md"},
		{give: "Out/deeper/new.md"},
		{give: "RelOut/x.md"},
		{give: "Notes/s.md"},
		{give: "Dangling.md"},
		{give: "Out"},
		{give: "In/a.md", ok: true},
		{give: "In/new/x.md", ok: true},
		{give: "Notes/a.md", ok: true},
	}
	for _, tt := range tests {
		got, err := SafePath(root, tt.give)
		if tt.ok && err != nil {
			t.Errorf("SafePath(%q) = %v, want it inside the vault", tt.give, err)
		}
		if !tt.ok && !errors.Is(err, ErrUnsafePath) {
			t.Errorf("SafePath(%q) = %q, %v, want ErrUnsafePath", tt.give, got, err)
		}
	}

	// A vault that is itself reached through a symlink is fine.
	linkedRoot := filepath.Join(base, "linked")
	if err := os.Symlink(root, linkedRoot); err != nil {
		t.Fatal(err)
	}
	if _, err := SafePath(linkedRoot, "Notes/a.md"); err != nil {
		t.Errorf("SafePath through a symlinked root = %v", err)
	}
	if _, err := SafePath(linkedRoot, "Out/x.md"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("SafePath(linked root, Out/x.md) = %v, want ErrUnsafePath", err)
	}
}

func TestSafeDir(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		give, want string
		bad        bool
	}{
		{give: "", want: ""},
		{give: "Projects", want: "Projects"},
		{give: "Projects/", want: "Projects"},
		{give: "a/b", want: "a/b"},
		{give: "/", bad: true},
		{give: "..", bad: true},
		{give: "a//", bad: true},
		{give: "PRN", bad: true},
	}
	for _, tt := range tests {
		got, err := SafeDir(root, tt.give)
		if tt.bad {
			if !errors.Is(err, ErrUnsafePath) {
				t.Errorf("SafeDir(%q) = %q, %v, want ErrUnsafePath", tt.give, got, err)
			}
			continue
		}
		want := root
		if tt.want != "" {
			want = filepath.Join(root, filepath.FromSlash(tt.want))
		}
		if err != nil || got != want {
			t.Errorf("SafeDir(%q) = %q, %v, want %q", tt.give, got, err, want)
		}
	}
	if _, err := SafePath(filepath.Join(root, "missing"), "x.md"); err == nil || errors.Is(err, ErrUnsafePath) {
		t.Errorf("SafePath with a missing root = %v, want a plain error", err)
	}
}

func TestSafePathWindowsStream(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("':' is a file name character outside Windows")
	}
	if _, err := SafePath(t.TempDir(), "a.md:stream"); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("SafePath(a.md:stream) = %v, want ErrUnsafePath", err)
	}
}
