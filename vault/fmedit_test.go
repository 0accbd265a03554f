package vault

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSetFrontmatter(t *testing.T) {
	date := time.Date(2024, 3, 5, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		desc    string
		give    string
		tags    []string
		setTags bool
		props   []Property
		want    string
	}{
		{
			desc: "no frontmatter gets one", give: "Hello\n",
			tags: []string{"a", "#b"}, setTags: true,
			want: "---\ntags:\n  - a\n  - b\n---\nHello\n",
		},
		{
			desc: "no frontmatter, no final newline", give: "Hello",
			props: []Property{{Key: "status", Value: "draft"}},
			want:  "---\nstatus: draft\n---\nHello",
		},
		{
			desc: "empty file", give: "",
			props: []Property{{Key: "status", Value: "draft"}},
			want:  "---\nstatus: draft\n---\n",
		},
		{
			desc: "empty frontmatter", give: "---\n---\nBody\n",
			props: []Property{{Key: "status", Value: "draft"}},
			want:  "---\nstatus: draft\n---\nBody\n",
		},
		{
			desc: "empty frontmatter at the end of the file", give: "---\n---",
			props: []Property{{Key: "status", Value: "draft"}},
			want:  "---\nstatus: draft\n---",
		},
		{
			desc: "multi-line tag list replaced in place",
			give: "---\ntitle: X\ntags:\n  - old\n  - older\nstatus: draft\n---\nBody\n",
			tags: []string{"new"}, setTags: true,
			want: "---\ntitle: X\ntags:\n  - new\nstatus: draft\n---\nBody\n",
		},
		{
			desc: "compact list at the key's indentation replaced",
			give: "---\ntags:\n- old\n- older\nstatus: draft\n---\n",
			tags: []string{"new"}, setTags: true,
			want: "---\ntags:\n  - new\nstatus: draft\n---\n",
		},
		{
			desc: "flow tags become a block list",
			give: "---\ntags: [a, b]\n---\n",
			tags: []string{"a", "c"}, setTags: true,
			want: "---\ntags:\n  - a\n  - c\n---\n",
		},
		{
			desc: "tag string key spelled tag keeps its name",
			give: "---\ntag: x\nTags: y\n---\n",
			tags: []string{"z"}, setTags: true,
			want: "---\ntag:\n  - z\n---\n",
		},
		{
			desc:    "empty tags remove the key",
			give:    "---\na: 1\ntags:\n  - x\nb: 2\n---\n",
			setTags: true,
			want:    "---\na: 1\nb: 2\n---\n",
		},
		{
			desc: "empty tags on a note without frontmatter change nothing",
			give: "Body", setTags: true,
			want: "Body",
		},
		{
			desc:  "comments and quoted values kept",
			give:  "---\n# head comment\ntitle: \"Quoted: yes\" # keep\nalias: 'single'\nstatus: draft # why\n# between\nrating: 3\n---\n",
			props: []Property{{Key: "status", Value: "done"}},
			want:  "---\n# head comment\ntitle: \"Quoted: yes\" # keep\nalias: 'single'\nstatus: done # why\n# between\nrating: 3\n---\n",
		},
		{
			desc:    "comment on a list's key line kept",
			give:    "---\ntags: # mine\n  - a\n  # old: b\n\n# about next\nnext: 1\n---\n",
			tags:    []string{"c"},
			setTags: true,
			want:    "---\ntags: # mine\n  - c\n\n# about next\nnext: 1\n---\n",
		},
		{
			desc:    "CRLF everywhere",
			give:    "---\r\ntitle: X\r\ntags:\r\n  - a\r\n---\r\nBody\r\n",
			tags:    []string{"b", "c"},
			setTags: true,
			props:   []Property{{Key: "due", Value: date}, {Key: "notes", Value: "one\ntwo"}},
			want:    "---\r\ntitle: X\r\ntags:\r\n  - b\r\n  - c\r\ndue: 2024-03-05\r\nnotes: \"one\\ntwo\"\r\n---\r\nBody\r\n",
		},
		{
			desc:  "CRLF note without frontmatter",
			give:  "Body\r\nLine",
			props: []Property{{Key: "k", Value: "v"}},
			want:  "---\r\nk: v\r\n---\r\nBody\r\nLine",
		},
		{
			desc:  "closing line without final newline",
			give:  "---\na: 1\n---",
			props: []Property{{Key: "a", Value: int64(2)}},
			want:  "---\na: 2\n---",
		},
		{
			desc:  "remove a key",
			give:  "---\na: 1\nb: 2\nc: 3\n---\n",
			props: []Property{{Key: "b", Value: nil}},
			want:  "---\na: 1\nc: 3\n---\n",
		},
		{
			desc:  "remove a multi-line key, keep the comment after it",
			give:  "---\na:\n  - x\n  - y\n# note\nc: 3\n---\n",
			props: []Property{{Key: "a", Value: nil}},
			want:  "---\n# note\nc: 3\n---\n",
		},
		{
			desc:  "remove a missing key changes nothing",
			give:  "---\na: 1\n---\n",
			props: []Property{{Key: "zzz", Value: nil}},
			want:  "---\na: 1\n---\n",
		},
		{
			desc:  "keys match in any case and keep their spelling",
			give:  "---\nStatus: draft\n---\n",
			props: []Property{{Key: "status", Value: "done"}},
			want:  "---\nStatus: done\n---\n",
		},
		{
			desc:  "exact key wins over a case-insensitive one",
			give:  "---\nStatus: a\nstatus: b\n---\n",
			props: []Property{{Key: "status", Value: "c"}},
			want:  "---\nStatus: a\nstatus: c\n---\n",
		},
		{
			desc:  "quoted key keeps its quotes",
			give:  "---\n\"my key\": 1\nother: 2\n---\n",
			props: []Property{{Key: "my key", Value: int64(5)}},
			want:  "---\n\"my key\": 5\nother: 2\n---\n",
		},
		{
			desc: "values as Obsidian writes them",
			give: "---\n---\n",
			props: []Property{
				{Key: "related", Value: "[[Other]]"},
				{Key: "links", Value: []string{"[[A]]", "[[B|b]]"}},
				{Key: "due", Value: date},
				{Key: "at", Value: time.Date(2024, 3, 5, 10, 30, 0, 0, time.UTC)},
				{Key: "count", Value: 3},
				{Key: "ratio", Value: 0.5},
				{Key: "done", Value: true},
				{Key: "year", Value: "2024"},
				{Key: "empty", Value: []any{}},
			},
			want: "---\nrelated: \"[[Other]]\"\nlinks:\n  - \"[[A]]\"\n  - \"[[B|b]]\"\ndue: 2024-03-05\nat: 2024-03-05T10:30:00Z\ncount: 3\nratio: 0.5\ndone: true\nyear: \"2024\"\nempty: []\n---\n",
		},
		{
			desc: "an equal value keeps its bytes",
			give: "---\nstatus: 'draft'   # same\ntags: [a, b]\n---\n",
			tags: []string{"a", "b"}, setTags: true,
			props: []Property{{Key: "status", Value: "draft"}},
			want:  "---\nstatus: 'draft'   # same\ntags: [a, b]\n---\n",
		},
		{
			desc:  "new keys go after trailing comments",
			give:  "---\na: 1\n# end\n---\n",
			props: []Property{{Key: "b", Value: int64(2)}},
			want:  "---\na: 1\n# end\nb: 2\n---\n",
		},
		{
			desc:  "indented map",
			give:  "---\n  a: 1\n  b:\n    - x\n---\n",
			props: []Property{{Key: "b", Value: []string{"w"}}, {Key: "c", Value: "z"}},
			want:  "---\n  a: 1\n  b:\n    - w\n  c: z\n---\n",
		},
		{
			desc:  "literal block replaced whole",
			give:  "---\ndesc: |\n  line1\n\n  # not a comment\nnext: 1\n---\n",
			props: []Property{{Key: "desc", Value: "x"}},
			want:  "---\ndesc: x\nnext: 1\n---\n",
		},
		{
			desc:  "byte-order mark kept before new frontmatter",
			give:  "\uFEFFBody",
			props: []Property{{Key: "a", Value: "b"}},
			want:  "\uFEFF---\na: b\n---\nBody",
		},
		{
			desc:  "byte-order mark with frontmatter",
			give:  "\uFEFF---\na: 1\n---\n",
			props: []Property{{Key: "b", Value: "c"}},
			want:  "\uFEFF---\na: 1\nb: c\n---\n",
		},
		{
			desc:  "unclosed block is not frontmatter",
			give:  "---\na: 1\n",
			props: []Property{{Key: "b", Value: "c"}},
			want:  "---\nb: c\n---\n---\na: 1\n",
		},
		{
			desc: "emoji written as themselves", give: "",
			tags: []string{"🚀", "idea/💡"}, setTags: true,
			props: []Property{{Key: "title", Value: "Ideas 🚀?"}, {Key: "mood", Value: "😀: good"}, {Key: "raw", Value: `\U0001F680 🚀`}},
			want:  "---\ntitle: Ideas 🚀?\nmood: \"😀: good\"\nraw: \\U0001F680 🚀\ntags:\n  - 🚀\n  - idea/💡\n---\n",
		},
		{
			desc: "emoji beside a private-use character", give: "",
			props: []Property{{Key: "x", Value: "\uE000 🚀 \uE001"}},
			want:  "---\nx: \uE000 🚀 \uE001\n---\n",
		},
		{
			desc:  "later props win",
			give:  "",
			props: []Property{{Key: "a", Value: "1"}, {Key: "A", Value: "2"}, {Key: "b", Value: "x"}, {Key: "b", Value: nil}},
			want:  "---\na: \"2\"\n---\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := SetFrontmatter([]byte(tt.give), tt.tags, tt.setTags, tt.props)
			if err != nil {
				t.Fatalf("SetFrontmatter(%q) error: %v", tt.give, err)
			}
			if string(got) != tt.want {
				t.Errorf("SetFrontmatter(%q) =\n%q\nwant\n%q", tt.give, got, tt.want)
			}
			n, err := NewParser().Parse("x.md", got)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range n.Warnings {
				if strings.Contains(w, "frontmatter") {
					t.Errorf("Parse(result) warns: %s", w)
				}
			}
		})
	}
}

func TestSetFrontmatterErrors(t *testing.T) {
	tests := []struct {
		desc  string
		give  string
		tags  []string
		props []Property
		want  error
	}{
		{desc: "malformed YAML", give: "---\na: [1\n---\n", props: []Property{{Key: "b", Value: "c"}}, want: ErrBadFrontmatter},
		{desc: "value over MaxPropertyBytes", give: "", props: []Property{{Key: "big", Value: strings.Repeat("x", MaxPropertyBytes+1)}}, want: ErrBadProperty},
		{desc: "tags over MaxPropertyBytes", give: "", tags: []string{strings.Repeat("t", MaxPropertyBytes/2), strings.Repeat("u", MaxPropertyBytes/2)}, want: ErrBadProperty},
		{desc: "a list, not a map", give: "---\n- a\n---\n", props: []Property{{Key: "b", Value: "c"}}, want: ErrBadFrontmatter},
		{desc: "a scalar, not a map", give: "---\nhello\n---\n", props: []Property{{Key: "b", Value: "c"}}, want: ErrBadFrontmatter},
		{desc: "duplicate key", give: "---\na: 1\na: 2\n---\n", props: []Property{{Key: "b", Value: "c"}}, want: ErrBadFrontmatter},
		{desc: "flow map", give: "---\n{a: 1}\n---\n", props: []Property{{Key: "b", Value: "c"}}, want: ErrBadFrontmatter},
		{desc: "anchor used elsewhere", give: "---\na: &x 1\nb: *x\n---\n", props: []Property{{Key: "a", Value: "2"}}, want: ErrBadFrontmatter},
		{desc: "two documents", give: "---\na: 1\n--- \nb: 2\n---\n", props: []Property{{Key: "c", Value: "2"}}, want: ErrBadFrontmatter},
		{desc: "explicit key", give: "---\n? a\n: 1\n---\n", props: []Property{{Key: "c", Value: "2"}}, want: ErrBadFrontmatter},
		{desc: "empty key", give: "", props: []Property{{Key: " ", Value: "2"}}, want: ErrBadProperty},
		{desc: "key with newline", give: "", props: []Property{{Key: "a\nb", Value: "2"}}, want: ErrBadProperty},
		{desc: "invalid UTF-8 value", give: "", props: []Property{{Key: "a", Value: "\xff"}}, want: ErrBadProperty},
		{desc: "not a tag", give: "", tags: []string{"two words"}, want: ErrBadProperty},
		{desc: "binary", give: "---\na: 1\n---\n\x00", props: []Property{{Key: "b", Value: "c"}}, want: ErrBinary},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := SetFrontmatter([]byte(tt.give), tt.tags, tt.tags != nil, tt.props)
			if !errors.Is(err, tt.want) {
				t.Errorf("SetFrontmatter(%q) = %q, %v, want error %v", tt.give, got, err, tt.want)
			}
		})
	}
}

func TestReplaceBody(t *testing.T) {
	tests := []struct {
		desc, give, body, want string
	}{
		{desc: "body after frontmatter", give: "---\na: 1\n---\nold\n", body: "new\n", want: "---\na: 1\n---\nnew\n"},
		{desc: "body without final newline stays so", give: "---\na: 1\n---\nold\n", body: "new", want: "---\na: 1\n---\nnew"},
		{desc: "CRLF file", give: "---\r\na: 1\r\n---\r\nold\r\n", body: "x\ny\n", want: "---\r\na: 1\r\n---\r\nx\r\ny\r\n"},
		{desc: "CRLF body in an LF file", give: "---\na: 1\n---\nold\n", body: "x\r\ny\r\n", want: "---\na: 1\n---\nx\ny\n"},
		{desc: "mixed body in a CRLF file", give: "old\r\n", body: "x\r\ny\nz", want: "x\r\ny\r\nz"},
		{desc: "no frontmatter", give: "old", body: "new", want: "new"},
		{desc: "frontmatter bytes kept", give: "---\n# c\nb:   'x'  \n---\nold", body: "", want: "---\n# c\nb:   'x'  \n---\n"},
		{desc: "closing line ends the file", give: "---\na: 1\n---", body: "body", want: "---\na: 1\n---\nbody"},
		{desc: "closing line ends the file, empty body", give: "---\na: 1\n---", body: "", want: "---\na: 1\n---"},
		{desc: "byte-order mark kept", give: "\uFEFFold", body: "new", want: "\uFEFFnew"},
		{desc: "byte-order mark and frontmatter", give: "\uFEFF---\na: 1\n---\nold", body: "new", want: "\uFEFF---\na: 1\n---\nnew"},
		{desc: "unclosed frontmatter is body", give: "---\na: 1\n", body: "new", want: "new"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := ReplaceBody([]byte(tt.give), tt.body); string(got) != tt.want {
				t.Errorf("ReplaceBody(%q, %q) = %q, want %q", tt.give, tt.body, got, tt.want)
			}
		})
	}
}

// TestLocateFrontmatterAgreesWithParse checks that the editor and the
// parser see the same frontmatter block.
func TestLocateFrontmatterAgreesWithParse(t *testing.T) {
	p := NewParser()
	inputs := append(testVaultFiles(t), []byte("---\na: 1\n-----\nb: 2\n---\nbody"), []byte("---\n\n---\n"), []byte("--- \na: 1\n---\n"), []byte("---\r\na: 1\r\n---"))
	for _, s := range fuzzSeeds {
		inputs = append(inputs, []byte(s))
	}
	for _, src := range inputs {
		checkLocate(t, p, src)
	}
}

func checkLocate(t *testing.T, p *Parser, src []byte) {
	t.Helper()
	n, err := p.Parse("x.md", src)
	if err != nil {
		return
	}
	got := 0
	if blk, ok := locateFrontmatter(src); ok {
		got = blk.end
	}
	if got != n.BodyStart {
		t.Errorf("locateFrontmatter(%q) ends at %d, Parse().BodyStart = %d", src, got, n.BodyStart)
	}
}

func FuzzSetFrontmatter(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), "status", "done", uint8(1), "a,b", true)
	}
	for _, b := range testVaultFiles(f) {
		f.Add(b, "title", "New", uint8(1), "", false)
	}
	f.Add([]byte("---\ntitle: X # c\ntags:\n  - a\n  - b\nx: [1, 2]\n---\nbody"), "x", "", uint8(0), "c", true)
	f.Add([]byte("---\r\na: |\r\n  t\r\n\r\n# c\r\nb: 'q'\r\n---\r\n"), "a", "v\nw", uint8(1), "", false)
	f.Add([]byte("---\n  a: 1\n  b: 2\n---"), "c", "2024-01-02", uint8(4), "t", true)
	p := NewParser()
	kinds := 6
	f.Fuzz(func(t *testing.T, src []byte, key, val string, kind uint8, tagList string, setTags bool) {
		checkLocate(t, p, src)
		var value any
		switch int(kind) % kinds {
		case 0:
			value = nil
		case 1:
			value = val
		case 2:
			value = int64(len(val))
		case 3:
			value = strings.Split(val, ",")
		case 4:
			value = time.Date(2000+len(val)%100, 1, 1+len(val)%28, 0, 0, 0, 0, time.UTC)
		case 5:
			value = len(val)%2 == 0
		}
		var tags []string
		if tagList != "" {
			tags = strings.Split(tagList, ",")
		}
		props := []Property{{Key: key, Value: value}}
		out, err := SetFrontmatter(src, tags, setTags, props)
		if err != nil {
			if !errors.Is(err, ErrBadFrontmatter) && !errors.Is(err, ErrBadProperty) && !errors.Is(err, ErrBinary) {
				t.Fatalf("SetFrontmatter(%q) error %v wraps no sentinel", src, err)
			}
			return
		}
		before, err := p.Parse("x.md", src)
		if err != nil {
			t.Fatalf("SetFrontmatter accepted what Parse refuses: %v", err)
		}
		after, err := p.Parse("x.md", out)
		if err != nil {
			t.Fatalf("Parse(SetFrontmatter(%q)) = %v", src, err)
		}
		if !hasFrontmatterWarning(before) && hasFrontmatterWarning(after) {
			t.Fatalf("SetFrontmatter(%q) = %q: the result warns %q", src, out, after.Warnings)
		}
		// The body is untouched.
		if !bytes.HasSuffix(out, src[before.BodyStart:]) && before.BodyStart > 0 {
			t.Fatalf("SetFrontmatter(%q) = %q changed the body", src, out)
		}
		if before.BodyStart > 0 && !bytes.Equal(out[after.BodyStart:], src[before.BodyStart:]) {
			t.Fatalf("SetFrontmatter(%q) = %q changed the body", src, out)
		}
		// The value set reads back.
		special := false
		for _, s := range []string{"tags", "tag", "aliases", "alias"} {
			special = special || strings.EqualFold(key, s)
		}
		if k := int(kind) % kinds; !special && (k == 1 || k == 2 || k == 5) {
			var got any
			found := false
			for _, p := range after.Properties {
				if p.Key == key || !found && equalFold(p.Key, key) {
					got, found = p.Value, true
				}
			}
			if !found || got != value {
				t.Fatalf("SetFrontmatter(%q, %q=%#v) = %q, which reads back %#v (found %v)", src, key, value, out, got, found)
			}
		}
		// Keys not mentioned keep their bytes.
		blk, ok := locateFrontmatter(src)
		if !ok {
			return
		}
		fm, err := parseFMEntries(src[blk.rawStart:blk.rawEnd])
		if err != nil {
			t.Fatalf("SetFrontmatter(%q) accepted frontmatter it cannot split: %v", src, err)
		}
		for _, e := range fm.entries {
			if equalFold(e.name, key) || setTags && (strings.EqualFold(e.name, "tags") || strings.EqualFold(e.name, "tag")) {
				continue
			}
			entry := fm.raw[e.start:e.end]
			if !bytes.Contains(out, entry) {
				t.Fatalf("SetFrontmatter(%q) = %q lost the bytes of key %q: %q", src, out, e.name, entry)
			}
		}
	})
}

func hasFrontmatterWarning(n *Note) bool {
	for _, w := range n.Warnings {
		if strings.Contains(w, "frontmatter") {
			return true
		}
	}
	return false
}
