package vault

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestReplaceContent(t *testing.T) {
	tests := []struct {
		desc      string
		src, give string
		want      string
		wantWhole bool
		wantErr   string
	}{
		{"body only: frontmatter kept", "---\na: 1\n---\nold\n", "new\n", "---\na: 1\n---\nnew\n", false, ""},
		{"whole text replaces the block", "---\na: 1\n---\nold\n", "---\nb: 2\n---\nnew\n", "---\nb: 2\n---\nnew\n", true, ""},
		{"whole text on a note without one", "old\n", "---\nb: 2\n---\nnew", "---\nb: 2\n---\nnew", true, ""},
		{"a new note", "", "---\nb: 2\n---\nnew", "---\nb: 2\n---\nnew", true, ""},
		{"CRLF file", "---\r\na: 1\r\n---\r\nold\r\n", "---\nb: 2\n---\nnew\n", "---\r\nb: 2\r\n---\r\nnew\r\n", true, ""},
		{"LF file, CRLF content", "a\n", "---\r\nb: 2\r\n---\r\nnew\r\n", "---\nb: 2\n---\nnew\n", true, ""},
		{"BOM in both: once", "\uFEFFold\n", "\uFEFF---\nb: 2\n---\nnew\n", "\uFEFF---\nb: 2\n---\nnew\n", true, ""},
		{"BOM of the file kept", "\uFEFFold\n", "---\nb: 2\n---\nnew\n", "\uFEFF---\nb: 2\n---\nnew\n", true, ""},
		{"BOM of the content kept", "old\n", "\uFEFF---\nb: 2\n---\nnew\n", "\uFEFF---\nb: 2\n---\nnew\n", true, ""},
		{"empty block", "---\na: 1\n---\nold\n", "---\n---\n", "---\n---\n", true, ""},
		{"comments only", "old\n", "---\n# note\n---\nx", "---\n# note\n---\nx", true, ""},
		{"flow map is readable", "old\n", "---\n{a: 1}\n---\nx", "---\n{a: 1}\n---\nx", true, ""},
		{"unclosed rule is body", "---\na: 1\n---\nold\n", "---\nx\n", "---\na: 1\n---\n---\nx\n", false, ""},
		{"closed by ... is body", "---\na: 1\n---\nold\n", "---\nb: 2\n...\nx\n", "---\na: 1\n---\n---\nb: 2\n...\nx\n", false, ""},
		{"rule not on the first line is body", "old\n", "\n---\na: 1\n---\nx\n", "\n---\na: 1\n---\nx\n", false, ""},
		{"malformed YAML", "old\n", "---\na: [1\n---\nx\n", "", true, "malformed YAML"},
		{"not a map", "old\n", "---\n- a\n---\nx\n", "", true, "not a map of properties"},
		{"key twice", "old\n", "---\na: 1\na: 2\n---\nx\n", "", true, `key "a" is given twice`},
		{"the note's own broken block", "---\na: [1\n---\nold\n", "---\na: [1\n---\nnew\n", "---\na: [1\n---\nnew\n", true, ""},
		{"the note's own broken block, CRLF", "---\r\na: [1\r\n---\r\nold\r\n", "---\na: [1\n---\nnew\n", "---\r\na: [1\r\n---\r\nnew\r\n", true, ""},
		{"another broken block", "---\na: [1\n---\nold\n", "---\na: [2\n---\nnew\n", "", true, "malformed YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, whole, err := ReplaceContent([]byte(tt.src), tt.give)
			if tt.wantErr != "" {
				if !errors.Is(err, ErrBadFrontmatter) || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
					t.Errorf("ReplaceContent(%q, %q) = %q, %v, want ErrBadFrontmatter saying %q", tt.src, tt.give, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want || whole != tt.wantWhole {
				t.Errorf("ReplaceContent(%q, %q) = %q, %v, %v, want %q, %v", tt.src, tt.give, got, whole, err, tt.want, tt.wantWhole)
			}
		})
	}
}

func TestEditFrontmatterReplaced(t *testing.T) {
	tests := []struct {
		desc  string
		src   string
		tags  []string
		set   bool
		props []Property
		want  []Replaced
	}{
		{"tags replaced", "---\ntags: [x]\n---\n", []string{"y"}, true, nil, []Replaced{{"tags", "[x]", "[y]"}}},
		{"block list shown in flow style", "---\ntags:\n  - x\n  - z\n---\n", []string{"y"}, true, nil, []Replaced{{"tags", "[x, z]", "[y]"}}},
		{"same tags", "---\ntags: [x]\n---\n", []string{"x"}, true, nil, nil},
		{"tags removed", "---\ntags: [x]\n---\n", nil, true, nil, []Replaced{{"tags", "[x]", ""}}},
		{"a second tag key removed", "---\ntag: a\ntags: [x]\n---\n", []string{"x"}, true, nil, []Replaced{{"tag", "a", ""}}},
		{"property replaced, new one not reported", "---\ns: draft\n---\n", nil, false, []Property{{"S", "done"}, {"n", int64(1)}}, []Replaced{{"s", "draft", "done"}}},
		{"removed then set again", "---\ns: draft\n---\n", nil, false, []Property{{"s", nil}, {"s", "done"}}, []Replaced{{"s", "draft", "done"}}},
		{"removed then set to the same", "---\ns: draft\n---\n", nil, false, []Property{{"s", nil}, {"s", "draft"}}, nil},
		{"long value shortened", "---\ns: " + strings.Repeat("word ", 40) + "\n---\n", nil, false, []Property{{"s", "x"}}, []Replaced{{"s", strings.TrimSpace(strings.Repeat("word ", 16)) + "…", "x"}}},
		{"nothing changed", "---\ns: 1\n---\n", nil, false, []Property{{"s", int64(1)}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			out, got, err := EditFrontmatter([]byte(tt.src), tt.tags, tt.set, tt.props)
			if err != nil {
				t.Fatalf("EditFrontmatter(%q) = %v", tt.src, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("EditFrontmatter(%q) replaced %q, want %q", tt.src, got, tt.want)
			}
			plain, err := SetFrontmatter([]byte(tt.src), tt.tags, tt.set, tt.props)
			if err != nil || !bytes.Equal(plain, out) {
				t.Errorf("SetFrontmatter = %q, %v, want EditFrontmatter's %q", plain, err, out)
			}
		})
	}
}

// FuzzReplaceContent checks that content with a frontmatter block becomes
// the whole text, with one readable block and the content's body, and
// that other content is a new body.
func FuzzReplaceContent(f *testing.F) {
	f.Add([]byte("---\na: 1\n---\nold\n"), "---\nb: 2\n---\nnew\n")
	f.Add([]byte("\uFEFF---\r\na: 1\r\n---\r\nold\r\n"), "\uFEFF---\nb: [x]\n---\n---\nnew")
	f.Add([]byte("old"), "---\n---\n")
	f.Add([]byte("---\na: [1\n---\n"), "---\na: [1\n---\nbody")
	for _, s := range fuzzSeeds {
		f.Add([]byte("---\ntags: [t]\n---\nbody\n"), s)
	}
	for _, b := range testVaultFiles(f) {
		f.Add(b, string(b)+"\nedited\n")
	}
	p := NewParser()
	f.Fuzz(func(t *testing.T, src []byte, content string) {
		out, whole, err := ReplaceContent(src, content)
		if err != nil {
			if !errors.Is(err, ErrBadFrontmatter) || !whole || out != nil {
				t.Fatalf("ReplaceContent(%q, %q) = %q, %v, %v: want ErrBadFrontmatter for whole text", src, content, out, whole, err)
			}
			return
		}
		if !whole {
			if !bytes.Equal(out, ReplaceBody(src, content)) {
				t.Fatalf("ReplaceContent(%q, %q) = %q, not ReplaceBody's", src, content, out)
			}
			return
		}
		c, err := p.Parse("x.md", []byte(content))
		if err != nil {
			return // binary
		}
		n, err := p.Parse("x.md", out)
		if err != nil {
			t.Fatalf("Parse(ReplaceContent(%q, %q)) = %v", src, content, err)
		}
		if n.BodyStart == 0 || c.BodyStart == 0 {
			t.Fatalf("ReplaceContent(%q, %q) = %q: no frontmatter (body at %d, content's at %d)", src, content, out, n.BodyStart, c.BodyStart)
		}
		wantBody := convertEOL(content[c.BodyStart:], fileEOL(src))
		if string(out[n.BodyStart:]) != wantBody {
			t.Fatalf("ReplaceContent(%q, %q) = %q: body %q, want the content's %q", src, content, out, out[n.BodyStart:], wantBody)
		}
		for _, w := range n.Warnings {
			if (strings.HasPrefix(w, "malformed YAML frontmatter") || strings.HasPrefix(w, "frontmatter is not a map")) && !bytes.Equal(frontmatterOf(out), frontmatterOf(src)) {
				t.Fatalf("ReplaceContent(%q, %q) = %q, a new block that is not read: %s", src, content, out, w)
			}
		}
		if bytes.HasPrefix(out, []byte(bom+bom)) {
			t.Fatalf("ReplaceContent(%q, %q) = %q: two byte-order marks", src, content, out)
		}
	})
}

// frontmatterOf returns the YAML text of src's frontmatter, nil when it
// has none.
func frontmatterOf(src []byte) []byte {
	blk, ok := locateFrontmatter(src)
	if !ok {
		return nil
	}
	return src[blk.rawStart:blk.rawEnd]
}
