package vault

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// aliasList is "[*name,*name,...]" with n aliases.
func aliasList(name string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat("*"+name+",", n), ",") + "]"
}

// laughsYAML is the billion laughs: levels lists of width aliases of the
// list before, under keys l0, l1, ...
func laughsYAML(levels, width int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [\"lol\"]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d %s\n", i, i, aliasList(fmt.Sprintf("l%d", i-1), width))
	}
	return b.String()
}

// nestedFlow is a flow list nested depth deep around v.
func nestedFlow(depth int, v string) string {
	return strings.Repeat("[", depth) + v + strings.Repeat("]", depth)
}

// nestedBlock is a block map nested depth deep by indentation, under key x.
func nestedBlock(depth int) string {
	var b strings.Builder
	b.WriteString("x:\n")
	for i := 1; i < depth; i++ {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	b.WriteString(strings.Repeat(" ", depth) + "k: v\n")
	return b.String()
}

func TestYAMLBoundCheck(t *testing.T) {
	big := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	tests := []struct {
		desc string
		give string           // a frontmatter
		want map[string]error // what check says of each key, in order (nil: fits)
	}{
		{
			desc: "plain values",
			give: "title: T\ntags: [a, b]\nn: 1\nm: {a: [1, 2], b: {c: d}}\n",
			want: map[string]error{"title": nil, "tags": nil, "n": nil, "m": nil},
		},
		{
			desc: "a big but fine literal",
			give: "x: " + big(900<<10) + "\n",
			want: map[string]error{"x": nil},
		},
		{
			desc: "a literal over the property limit",
			give: "x: " + big(MaxPropertyBytes) + "\ny: 1\n",
			want: map[string]error{"x": errYAMLSize, "y": nil},
		},
		{
			desc: "a few aliases of a big anchor fit",
			give: "a: &a " + big(64<<10) + "\nb: " + aliasList("a", 10) + "\n",
			want: map[string]error{"a": nil, "b": nil},
		},
		{
			desc: "many aliases of a big anchor",
			give: "a: &a " + big(1<<20) + "\nb: " + aliasList("a", 5000) + "\ntags: " + aliasList("a", 5000) + "\nc: ok\n",
			want: map[string]error{"a": errYAMLSize, "b": errYAMLSize, "tags": errYAMLSize, "c": nil},
		},
		{
			desc: "aliases of aliases",
			give: "a: &a " + big(64<<10) + "\nb: &b " + aliasList("a", 100) + "\nc: " + aliasList("b", 100) + "\n",
			want: map[string]error{"a": nil, "b": errYAMLSize, "c": errYAMLSize},
		},
		{
			desc: "billion laughs",
			give: laughsYAML(9, 10) + "tags: *l9\naliases: *l9\n",
			want: map[string]error{"l0": nil, "l3": nil, "l5": errYAMLSize, "l9": errYAMLSize, "tags": errYAMLSize, "aliases": errYAMLSize},
		},
		{
			desc: "doubling 200 times (sizes saturate)",
			give: laughsYAML(200, 2) + "x: *l200\n",
			want: map[string]error{"l1": nil, "l63": errYAMLSize, "l200": errYAMLDepth, "x": errYAMLDepth},
		},
		{
			desc: "merge key bomb",
			give: func() string {
				var b strings.Builder
				b.WriteString("a: &a {x1: lol, x2: lol, x3: lol, x4: lol, x5: lol, x6: lol, x7: lol, x8: lol, x9: lol}\n")
				for c := 'b'; c <= 'j'; c++ {
					p := string(c - 1)
					fmt.Fprintf(&b, "%c: &%c {y1: *%s, y2: *%s, y3: *%s, y4: *%s, y5: *%s, y6: *%s, y7: *%s, y8: *%s, y9: *%s}\n", c, c, p, p, p, p, p, p, p, p, p)
				}
				b.WriteString("k: {<<: *j}\n")
				return b.String()
			}(),
			want: map[string]error{"a": nil, "c": nil, "j": errYAMLSize, "k": errYAMLSize},
		},
		{
			desc: "a legitimate merge key",
			give: "base: &base {x: 1, y: [a, b]}\nk:\n  <<: *base\n  z: 2\n",
			want: map[string]error{"base": nil, "k": nil},
		},
		{
			desc: "a list holding itself",
			give: "a: &a [*a]\nok: 1\n",
			want: map[string]error{"a": errYAMLLoop, "ok": nil},
		},
		{
			desc: "a map holding itself",
			give: "b: &b {x: *b}\nc: *b\n",
			want: map[string]error{"b": errYAMLLoop, "c": errYAMLLoop},
		},
		{
			desc: "a map merging itself",
			give: "a: &a\n  <<: *a\n  x: 1\n",
			want: map[string]error{"a": errYAMLLoop},
		},
		{
			desc: "deep flow lists",
			give: "ok: " + nestedFlow(MaxPropertyDepth, "1") + "\nx: " + nestedFlow(MaxPropertyDepth+1, "1") + "\ny: " + nestedFlow(5000, "") + "\n",
			want: map[string]error{"ok": nil, "x": errYAMLDepth, "y": errYAMLDepth},
		},
		{
			desc: "deep flow maps",
			give: "x: " + strings.Repeat("{a: ", 1000) + "1" + strings.Repeat("}", 1000) + "\n",
			want: map[string]error{"x": errYAMLDepth},
		},
		{
			desc: "deep block maps",
			give: nestedBlock(MaxPropertyDepth) + "y: 1\n",
			want: map[string]error{"x": nil, "y": nil},
		},
		{
			desc: "deeper block maps",
			give: nestedBlock(2000) + "y: 1\n",
			want: map[string]error{"x": errYAMLDepth, "y": nil},
		},
		{
			desc: "depth through aliases",
			give: "a: &a " + nestedFlow(40, "1") + "\nb: " + nestedFlow(40, "*a") + "\n",
			want: map[string]error{"a": nil, "b": errYAMLDepth},
		},
		{
			desc: "the note's limit",
			give: func() string {
				var b strings.Builder
				for i := range 5 {
					fmt.Fprintf(&b, "p%d: %s\n", i, big(900<<10))
				}
				return b.String() + "small: 1\n"
			}(),
			want: map[string]error{"p0": nil, "p3": nil, "p4": errYAMLSize, "small": nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tt.give), &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			b := newYAMLBound()
			got := map[string]error{}
			start := time.Now()
			for i := 0; i+1 < len(root.Content); i += 2 {
				got[root.Content[i].Value] = b.check(root.Content[i+1])
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("check took %v, want it linear in the text", took)
			}
			for key, want := range tt.want {
				err, ok := got[key]
				switch {
				case !ok:
					t.Errorf("no key %q", key)
				case want == nil && err != nil:
					t.Errorf("check(%s) = %v, want nil", key, err)
				case want != nil && !errors.Is(err, want):
					t.Errorf("check(%s) = %v, want %v", key, err, want)
				}
			}
		})
	}
}

// TestParseYAMLBounds: a property over a bound is left out with a warning
// that names it and the limit; the rest of the note is indexed.
func TestParseYAMLBounds(t *testing.T) {
	big := `"` + strings.Repeat("x", 1<<20) + `"`
	tests := []struct {
		desc        string
		give        string // the frontmatter
		wantKeys    []string
		wantWarning string // in the warning about property "b"
		wantTags    []string
		wantAliases []string
	}{
		{
			desc:        "many aliases of a big anchor",
			give:        "title: T\na: &a " + big + "\nb: " + aliasList("a", 5000) + "\nc: \"[[Other]]\"\n",
			wantKeys:    []string{"title", "c"},
			wantWarning: "over the limit of 1 MiB once its aliases are expanded",
		},
		{
			desc:        "a bomb under tags and aliases",
			give:        "title: T\ntags: [t1, t2]\naliases: [A]\n" + laughsYAML(9, 10) + "b: x\ntag: *l9\nalias: *l9\n",
			wantTags:    []string{"t1", "t2", "body"},
			wantAliases: []string{"A"},
			wantWarning: "", // checked below
		},
		{
			desc:        "a deep value",
			give:        "title: T\nb: " + nestedFlow(1000, "\"[[Other]]\"") + "\nc: \"[[Other]]\"\n",
			wantKeys:    []string{"title", "c"},
			wantWarning: "nest more than 64 levels deep",
		},
		{
			desc:        "a loop",
			give:        "title: T\nb: &b {x: *b}\nc: \"[[Other]]\"\n",
			wantKeys:    []string{"title", "c"},
			wantWarning: "alias inside its own anchor",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			src := "---\n" + tt.give + "---\n#body [[Target]]\n"
			n, err := parseWithin(t, 10*time.Second, "Note.md", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if n.Title != "T" {
				t.Errorf("Title = %q, want T", n.Title)
			}
			var targets []string
			for _, l := range n.Links {
				targets = append(targets, l.Target)
			}
			if !strings.Contains(strings.Join(targets, ","), "Target") {
				t.Errorf("links %q, want the body's link", targets)
			}
			if tt.wantKeys != nil {
				var keys []string
				for _, p := range n.Properties {
					keys = append(keys, p.Key)
				}
				if strings.Join(keys, ",") != strings.Join(tt.wantKeys, ",") {
					t.Errorf("properties %q, want %q", keys, tt.wantKeys)
				}
				if !strings.Contains(strings.Join(targets, ","), "Other") {
					t.Errorf("links %q, want the link of property c", targets)
				}
			}
			if tt.wantWarning != "" {
				want := `frontmatter property "b" ignored: `
				found := false
				for _, w := range n.Warnings {
					if strings.HasPrefix(w, want) && strings.Contains(w, tt.wantWarning) {
						found = true
					}
				}
				if !found {
					t.Errorf("warnings %q, want %q...%q", n.Warnings, want, tt.wantWarning)
				}
			}
			if tt.wantTags != nil {
				for _, key := range []string{"tag", "alias"} {
					want := fmt.Sprintf("frontmatter property %q ignored: value too big: over the limit of 1 MiB once its aliases are expanded", key)
					if !strings.Contains(strings.Join(n.Warnings, "\n"), want) {
						t.Errorf("warnings %q, want %q", n.Warnings, want)
					}
				}
			}
			if tt.wantTags != nil && strings.Join(n.Tags, ",") != strings.Join(tt.wantTags, ",") {
				t.Errorf("tags %q, want %q", n.Tags, tt.wantTags)
			}
			if tt.wantAliases != nil && strings.Join(n.Aliases, ",") != strings.Join(tt.wantAliases, ",") {
				t.Errorf("aliases %q, want %q", n.Aliases, tt.wantAliases)
			}
		})
	}
}

// TestSetFrontmatterYAMLBombs: an edit next to a value that aliases would
// blow up never expands it: it succeeds with the value's bytes kept, or
// fails with ErrBadFrontmatter, within bounded time and allocations.
func TestSetFrontmatterYAMLBombs(t *testing.T) {
	big := `"` + strings.Repeat("x", 1<<20) + `"`
	tests := []struct {
		desc string
		give string // the frontmatter
		keep string // a line the edit must keep as it is
	}{
		{desc: "many aliases of a big anchor", give: "a: &a " + big + "\nb: " + aliasList("a", 5000) + "\n", keep: "b: " + aliasList("a", 5000)},
		{desc: "the same under tags", give: "a: &a " + big + "\ntags: " + aliasList("a", 5000) + "\n", keep: "a: &a " + big},
		{desc: "aliases of aliases", give: "a: &a \"" + strings.Repeat("y", 64<<10) + "\"\nb: &b " + aliasList("a", 100) + "\nc: " + aliasList("b", 100) + "\n", keep: "c: " + aliasList("b", 100)},
		{desc: "billion laughs", give: laughsYAML(9, 10) + "status: *l9\n", keep: "status: *l9"},
		{desc: "merge of a loop", give: "a: &a\n  <<: *a\n  x: 1\nb: 2\n", keep: "  <<: *a"},
		{desc: "deep", give: "x: " + nestedFlow(5000, "") + "\n", keep: "x: " + nestedFlow(5000, "")},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			src := []byte("---\n" + tt.give + "---\nbody\n")
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			// No bound on time: an expansion shows in what it
			// allocates, and a hang meets the test's timeout.
			out, err := SetFrontmatter(src, []string{"new"}, true, []Property{{Key: "added", Value: int64(1)}})
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
				t.Errorf("SetFrontmatter allocated %d MB, want no expansion", alloc>>20)
			}
			if err != nil {
				if !errors.Is(err, ErrBadFrontmatter) {
					t.Fatalf("SetFrontmatter = %v, want success or ErrBadFrontmatter", err)
				}
				t.Logf("SetFrontmatter = %v", err)
				return
			}
			if len(out) > len(src)+100 {
				t.Errorf("SetFrontmatter grew %d bytes to %d", len(src), len(out))
			}
			if !bytes.Contains(out, []byte("\n"+tt.keep+"\n")) {
				t.Errorf("SetFrontmatter lost the line %.80q", tt.keep)
			}
			if !bytes.Contains(out, []byte("tags:\n  - new\n")) || !bytes.Contains(out, []byte("added: 1\n")) {
				t.Errorf("SetFrontmatter = %.200q..., want the new tag and property", out[max(0, len(out)-200):])
			}
		})
	}
}

// TestSetFrontmatterBigValueSame: an edit that sets a value over the
// bounds (which the indexer would leave out) is refused, be it the value
// already written or a new one; nothing is written.
func TestSetFrontmatterBigValueSame(t *testing.T) {
	long := strings.Repeat("z", MaxPropertyBytes+10)
	src := []byte("---\nx: '" + long + "'\ny: 1\n---\n")
	for _, v := range []string{long, long + "!"} {
		out, err := SetFrontmatter(src, nil, false, []Property{{Key: "x", Value: v}})
		if !errors.Is(err, ErrBadProperty) || out != nil {
			t.Errorf("SetFrontmatter(x: %d bytes) = %.60q, %v; want ErrBadProperty", len(v), out, err)
		}
	}
	// Other edits of that note still work and keep the big value as is.
	out, err := SetFrontmatter(src, nil, false, []Property{{Key: "y", Value: int64(2)}})
	if err != nil || !bytes.Contains(out, []byte(long)) || !bytes.HasSuffix(out, []byte("y: 2\n---\n")) {
		t.Errorf("SetFrontmatter(y: 2) = %.60q, %v; want y rewritten and x kept", out, err)
	}
}
