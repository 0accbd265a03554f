package vault

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFileName(t *testing.T) {
	tests := []struct {
		desc, give, want string
	}{
		{desc: "kept as is", give: "Alpha Plan", want: "Alpha Plan"},
		{desc: "case kept", give: "iPhone XR notes", want: "iPhone XR notes"},
		{desc: "forbidden characters removed", give: `a\b/c:d*e?f"g<h>i|j#k^l[m]n`, want: "abcdefghijklmn"},
		{desc: "link brackets", give: "See [[Other]]", want: "See Other"},
		{desc: "white space collapsed", give: "  a \t b\n\nc  ", want: "a b c"},
		{desc: "space left by a removed character", give: "Q: what?", want: "Q what"},
		{desc: "trailing dots", give: "Wait...", want: "Wait"},
		{desc: "trailing dot and space", give: "End . ", want: "End"},
		{desc: "leading dots", give: ".NET tips", want: "NET tips"},
		{desc: "inner dots kept", give: "v1.2 release", want: "v1.2 release"},
		{desc: "NFC", give: "Cafe\u0301", want: "Caf\u00e9"},
		{desc: "NFC across a removed character", give: "e#\u0301", want: "\u00e9"},
		{desc: "control characters", give: "a\x01b\x7fc", want: "abc"},
		{desc: "invalid UTF-8 dropped", give: "a\xffb", want: "ab"},
		{desc: "emoji", give: "🚀 Launch", want: "🚀 Launch"},
		{desc: "reserved as a word", give: "CON game", want: "CON game"},
		{desc: "percent and parentheses", give: "50% (draft)", want: "50% (draft)"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := FileName(tt.give)
			if err != nil || got != tt.want {
				t.Errorf("FileName(%q) = %q, %v, want %q", tt.give, got, err, tt.want)
			}
		})
	}
}

func TestFileNameErrors(t *testing.T) {
	for _, give := range []string{"", "   ", "???", "[[]]", "...", "CON", "nul", "Com1", "lpt3.txt", "aux."} {
		if got, err := FileName(give); !errors.Is(err, ErrBadName) {
			t.Errorf("FileName(%q) = %q, %v, want ErrBadName", give, got, err)
		}
	}
}

func TestFileNameLength(t *testing.T) {
	for _, give := range []string{
		strings.Repeat("a", 300),
		strings.Repeat("é", 150), // 2 bytes each: 300 bytes
		strings.Repeat("日", 100), // 3 bytes each: 300 bytes
		strings.Repeat("🚀", 80),  // 4 bytes each: 320 bytes
		strings.Repeat("a", 199) + " bc",
		strings.Repeat("a", 198) + "..xyz",
	} {
		got, err := FileName(give)
		if err != nil {
			t.Errorf("FileName(%d bytes) error: %v", len(give), err)
			continue
		}
		if len(got) > MaxFileNameBytes || !utf8.ValidString(got) || strings.HasSuffix(got, " ") || strings.HasSuffix(got, ".") {
			t.Errorf("FileName(%q) = %q (%d bytes), want valid UTF-8 of at most %d bytes with no trailing space or dot", give, got, len(got), MaxFileNameBytes)
		}
		if len(got) < MaxFileNameBytes-4 {
			t.Errorf("FileName(%q) = %q: cut to %d bytes, want close to %d", give, got, len(got), MaxFileNameBytes)
		}
		if _, err := SafePath(t.TempDir(), got+".md"); err != nil {
			t.Errorf("SafePath(FileName(...)+\".md\") = %v", err)
		}
	}
}

func FuzzFileName(f *testing.F) {
	for _, s := range []string{"Alpha Plan", "a/b", " . ", "CON", "Cafe\u0301", strings.Repeat("日", 100), "\xff"} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, title string) {
		name, err := FileName(title)
		if err != nil {
			if !errors.Is(err, ErrBadName) {
				t.Fatalf("FileName(%q) error %v is not ErrBadName", title, err)
			}
			return
		}
		if name == "" || len(name) > MaxFileNameBytes || !utf8.ValidString(name) || NFC(name) != name ||
			strings.ContainsAny(name, forbiddenNameChars) {
			t.Fatalf("FileName(%q) = %q", title, name)
		}
		if _, err := SafePath(root, name+".md"); err != nil {
			t.Fatalf("FileName(%q) = %q, which SafePath refuses: %v", title, name, err)
		}
	})
}
