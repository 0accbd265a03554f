package vault

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// parseWithin parses src and fails the test when that takes longer than
// limit: bad input must not hang the indexer.
func parseWithin(t *testing.T, limit time.Duration, id string, src []byte) (*Note, error) {
	t.Helper()
	type result struct {
		n   *Note
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := testParser.Parse(id, src)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-time.After(limit):
		t.Fatalf("Parse(%s, %d bytes) still running after %v", id, len(src), limit)
		return nil, nil
	}
}

func TestParseMalformedYAML(t *testing.T) {
	tests := []struct {
		desc      string
		give      string
		wantWarn  string // substring of the one warning
		wantTags  []string
		wantLinks []string // targets
	}{
		{
			desc:      "unclosed flow list and stray colons (testvault Broken YAML)",
			give:      "---\ntitle: [unclosed\ntags: : :\n---\n# Broken YAML\n\nLinks to [[Home]]. #stillatag\n",
			wantWarn:  "malformed YAML frontmatter, properties ignored: yaml: line",
			wantTags:  []string{"stillatag"},
			wantLinks: []string{"Home"},
		},
		{
			desc:      "duplicate key",
			give:      "---\na: 1\na: 2\nrelated: \"[[X]]\"\n---\n[[Y]]",
			wantWarn:  "already defined",
			wantLinks: []string{"Y"},
		},
		{
			desc:     "tab indentation",
			give:     "---\nlist:\n\t- a\n---\n",
			wantWarn: "malformed YAML frontmatter",
		},
		{
			desc:     "a list, not a map",
			give:     "---\n- a\n- b\n---\n#body",
			wantWarn: "frontmatter is not a map of properties",
			wantTags: []string{"body"},
		},
		{
			desc:     "a bare scalar, not a map",
			give:     "---\njust text\n---\n",
			wantWarn: "frontmatter is not a map of properties",
		},
		{
			desc:     "invalid UTF-8 inside YAML",
			give:     "---\ntitle: caf\xe9\ntags: [a]\n---\n",
			wantWarn: "malformed YAML frontmatter",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Notes/Broken YAML.md", tt.give)
			if n.Properties != nil || n.Aliases != nil {
				t.Errorf("Parse(%q).Properties, Aliases = %v, %v, want none", tt.give, n.Properties, n.Aliases)
			}
			if n.Title != "Broken YAML" {
				t.Errorf("Parse(%q).Title = %q, want %q", tt.give, n.Title, "Broken YAML")
			}
			var warns []string
			for _, w := range n.Warnings {
				if !strings.HasPrefix(w, "file is not valid UTF-8") {
					warns = append(warns, w)
				}
			}
			if len(warns) != 1 || !strings.Contains(warns[0], tt.wantWarn) {
				t.Errorf("Parse(%q).Warnings = %q, want one containing %q", tt.give, n.Warnings, tt.wantWarn)
			}
			if !reflect.DeepEqual(n.Tags, tt.wantTags) {
				t.Errorf("Parse(%q).Tags = %q, want %q", tt.give, n.Tags, tt.wantTags)
			}
			var targets []string
			for _, l := range n.Links {
				targets = append(targets, l.Target)
			}
			if !reflect.DeepEqual(targets, tt.wantLinks) {
				t.Errorf("Parse(%q) link targets = %q, want %q", tt.give, targets, tt.wantLinks)
			}
		})
	}
}

// countValues counts the values in a decoded property value tree.
func countValues(v any) int {
	switch x := v.(type) {
	case []any:
		n := 1
		for _, e := range x {
			n += countValues(e)
		}
		return n
	case map[string]any:
		n := 1
		for _, e := range x {
			n += countValues(e)
		}
		return n
	}
	return 1
}

// laughs builds a YAML alias bomb: levels anchors, each a list of width
// aliases to the one before, so the last expands to width^levels strings.
func laughs(levels, width int) string {
	var b strings.Builder
	b.WriteString("---\nl0: &l0 [\"lol\"]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := 0; j < width; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	fmt.Fprintf(&b, "tags: *l%d\naliases: *l%d\nrelated: *l%d\ntitle: Bomb\n---\n#body [[Link]]\n", levels, levels, levels)
	return b.String()
}

func TestParseAliasBomb(t *testing.T) {
	tests := []struct {
		desc   string
		levels int
		width  int
	}{
		{desc: "billion laughs", levels: 9, width: 10},
		{desc: "ten billion laughs", levels: 10, width: 10},
		{desc: "wide", levels: 3, width: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			src := laughs(tt.levels, tt.width)
			n, err := parseWithin(t, 10*time.Second, "Bomb.md", []byte(src))
			if err != nil {
				t.Fatalf("Parse(bomb) error: %v", err)
			}
			total := 0
			for _, p := range n.Properties {
				total += countValues(p.Value)
			}
			if total > 1_000_000 {
				t.Errorf("Parse(bomb) kept %d property values, want a bounded number", total)
			}
			if n.Title != "Bomb" || !reflect.DeepEqual(n.Tags, []string{"body"}) || len(n.Links) != 1 {
				t.Errorf("Parse(bomb) = title %q, tags %q, %d links; want the rest of the note intact", n.Title, n.Tags, len(n.Links))
			}
		})
	}
}

func TestParseBinary(t *testing.T) {
	tests := []struct {
		desc       string
		give       []byte
		wantBinary bool
	}{
		{desc: "PNG bytes", give: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), wantBinary: true},
		{desc: "NUL in text", give: []byte("# Title\n\x00 [[Link]]"), wantBinary: true},
		{desc: "NUL far into the file is not sniffed", give: append(bytes.Repeat([]byte("a"), binarySniffBytes), 0), wantBinary: false},
		{desc: "empty file", give: []byte{}, wantBinary: false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n, err := testParser.Parse("bin.md", tt.give)
			if got := errors.Is(err, ErrBinary); got != tt.wantBinary {
				t.Fatalf("Parse(%.20q) error = %v, want ErrBinary: %v", tt.give, err, tt.wantBinary)
			}
			if tt.wantBinary && n != nil {
				t.Errorf("Parse(%.20q) = %+v, want a nil note", tt.give, n)
			}
			if !tt.wantBinary && (err != nil || n == nil) {
				t.Errorf("Parse(%.20q) = %v, %v, want a note", tt.give, n, err)
			}
		})
	}
}

// checkValidStrings fails the test when any string of the note is not
// valid UTF-8.
func checkValidStrings(t *testing.T, n *Note) {
	t.Helper()
	var all []string
	all = append(all, n.ID, n.Title)
	all = append(all, n.Tags...)
	all = append(all, n.Aliases...)
	all = append(all, n.Warnings...)
	for _, l := range n.Links {
		all = append(all, l.Target, l.Fragment, l.Alias, l.Property)
	}
	for _, p := range n.Properties {
		all = append(all, p.Key, fmt.Sprint(p.Value))
	}
	for _, s := range all {
		if !utf8.ValidString(s) {
			t.Errorf("note %s holds invalid UTF-8 %q", n.ID, s)
		}
	}
}

func TestParseInvalidUTF8(t *testing.T) {
	tests := []struct {
		desc string
		give string
	}{
		{desc: "in a heading and a wikilink", give: "# T\xff\n[[A\xffB#h\xff|al\xff]] #t\xffx\n"},
		{desc: "in a markdown link", give: "[a\xff](b\xff.md#c\xff) ![i\xfe](p\xfe.png)"},
		{desc: "in a tag", give: "#ok\xc3 #z\xed\xa0\x80"},
		{desc: "truncated multibyte at the end", give: "[[東\xe4\xba"},
		{desc: "latin-1 text", give: "caf\xe9 [[caf\xe9]] #caf\xe9"},
		{desc: "in the frontmatter", give: "---\nrelated: \"[[X\xff]]\"\n---\nbody"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, "Bad.md", tt.give)
			found := false
			for _, w := range n.Warnings {
				found = found || strings.Contains(w, "UTF-8")
			}
			if !found {
				t.Errorf("Parse(%q).Warnings = %q, want one about UTF-8", tt.give, n.Warnings)
			}
			checkValidStrings(t, n)
		})
	}
}

func TestParseHugeNote(t *testing.T) {
	tests := []struct {
		desc      string
		head      string
		wantTitle string
		wantTags  []string
		wantLinks int
		size      int
	}{
		{
			desc:      "frontmatter then 20 MB of links and tags",
			head:      "---\ntitle: Big Log\ntags: [log]\nrelated: \"[[Home]]\"\n---\n",
			wantTitle: "Big Log",
			wantTags:  []string{"log"},
			wantLinks: 1,
			size:      20 << 20,
		},
		{
			desc:      "no frontmatter",
			head:      "# Just a log\n",
			wantTitle: "Huge",
			size:      MaxParseBytes + 1,
		},
		{
			desc:      "a four-dash line inside the frontmatter",
			head:      "---\ntitle: Big Log\ntags: [log]\nseen: [a,\n----\n]\n---\n",
			wantTitle: "Big Log",
			wantTags:  []string{"log"},
			size:      MaxParseBytes + 1,
		},
		{
			desc:      "unclosed frontmatter",
			head:      "---\ntitle: Never Closed\n",
			wantTitle: "Huge",
			size:      MaxParseBytes + 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "Huge.md")
			line := []byte("2024-01-01 12:00:00 INFO [[Some Note]] #tag request served in 12ms\n")
			body := bytes.Repeat(line, tt.size/len(line)+1)
			if err := os.WriteFile(path, append([]byte(tt.head), body...), 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n, err := parseWithin(t, 20*time.Second, "Huge.md", src)
			if err != nil {
				t.Fatalf("Parse(20 MB) error: %v", err)
			}
			if n.Title != tt.wantTitle || !reflect.DeepEqual(n.Tags, tt.wantTags) || len(n.Links) != tt.wantLinks {
				t.Errorf("Parse(20 MB) = title %q, tags %q, %d links; want %q, %q, %d",
					n.Title, n.Tags, len(n.Links), tt.wantTitle, tt.wantTags, tt.wantLinks)
			}
			if len(n.Warnings) != 1 || !strings.Contains(n.Warnings[0], "only its frontmatter was parsed") {
				t.Errorf("Parse(20 MB).Warnings = %q, want one saying only the frontmatter was parsed", n.Warnings)
			}
			if n.Size != int64(len(src)) {
				t.Errorf("Parse(20 MB).Size = %d, want %d", n.Size, len(src))
			}
		})
	}
}

func TestParseManyLinks(t *testing.T) {
	const count = 100_000
	tests := []struct {
		desc string
		sep  string
		form string // fmt format with the link number
	}{
		{desc: "wikilinks one per line", sep: "\n", form: "[[Note %d]]"},
		{desc: "wikilinks on one line", sep: " ", form: "[[Note %d|n]]"},
		{desc: "markdown links on one line", sep: " ", form: "[n](Note%%20%d.md)"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			for i := 0; i < count; i++ {
				fmt.Fprintf(&b, tt.form, i)
				b.WriteString(tt.sep)
			}
			src := b.String()
			n, err := parseWithin(t, 30*time.Second, "Many.md", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if len(n.Links) != count {
				t.Fatalf("Parse(%d links).Links has %d links, want %d", count, len(n.Links), count)
			}
			for _, i := range []int{0, 1, count / 2, count - 1} {
				l := n.Links[i]
				want := fmt.Sprintf(tt.form, i)
				if got := src[l.Start:l.End]; got != want {
					t.Errorf("Links[%d] text = %q, want %q", i, got, want)
				}
				if wantTarget := fmt.Sprintf("Note %d", i); strings.TrimSuffix(l.Target, ".md") != wantTarget {
					t.Errorf("Links[%d].Target = %q, want %q", i, l.Target, wantTarget)
				}
			}
		})
	}
}

func TestParseDeepNesting(t *testing.T) {
	const depth = 2000
	tests := []struct {
		desc      string
		give      string
		wantLinks int
	}{
		{desc: "blockquotes", give: strings.Repeat(">", depth) + " [[Deep]] #deep\n", wantLinks: 1},
		{desc: "blockquotes over many lines", give: strings.Repeat(strings.Repeat("> ", 200)+"[[Q]]\n", 200), wantLinks: 200},
		{desc: "nested lists", give: func() string {
			var b strings.Builder
			for i := 0; i < 200; i++ {
				b.WriteString(strings.Repeat("  ", i) + "- [[L]]\n")
			}
			return b.String()
		}(), wantLinks: 200},
		{desc: "one-line nested list markers", give: strings.Repeat("- ", depth) + "[[Deep]]\n", wantLinks: 1},
		{desc: "open brackets", give: strings.Repeat("[", 20_000) + "[[Deep]]" + strings.Repeat("]", 20_000), wantLinks: 1},
		{desc: "emphasis markers", give: strings.Repeat("*_", 20_000) + " [[Deep]] " + strings.Repeat("_*", 20_000), wantLinks: 1},
		{desc: "backticks", give: strings.Repeat("`", 20_000) + " [[Deep]] " + strings.Repeat("``", 12_000), wantLinks: 1},
		{desc: "nested YAML flow lists", give: "---\nx: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n---\n[[Deep]]", wantLinks: 1},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			n, err := parseWithin(t, 20*time.Second, "Deep.md", []byte(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			if len(n.Links) != tt.wantLinks {
				t.Errorf("Parse(%.40q...).Links has %d links, want %d", tt.give, len(n.Links), tt.wantLinks)
			}
		})
	}
}

func TestParseLongLines(t *testing.T) {
	// Big enough that a parser scanning the rest of the line at each
	// opener (quadratic) takes many seconds, small enough to stay fast.
	const n = 30_000
	tests := []struct {
		desc      string
		give      string
		wantLinks int
	}{
		{desc: "unclosed markdown links", give: strings.Repeat("[a](", n)},
		{desc: "unclosed markdown links after a space", give: strings.Repeat("[a]( ", n)},
		{desc: "unclosed angle destinations", give: strings.Repeat("[a](<", n)},
		{desc: "unclosed images", give: strings.Repeat("![a](", n)},
		{desc: "wikilink openers without a closer", give: strings.Repeat("[[a", n)},
		{desc: "empty wikilink targets before one closer", give: strings.Repeat("[[|", n) + "]]"},
		{desc: "empty aliases", give: strings.Repeat("[[a", n) + "|]]"},
		{desc: "embed openers", give: strings.Repeat("![", n)},
		{desc: "brackets", give: strings.Repeat("[", 3*n)},
		{desc: "hashes", give: strings.Repeat("#", 3*n)},
		{desc: "tags", give: strings.Repeat(" #a", n), wantLinks: 0},
		{desc: "links in one frontmatter value", give: "---\nx: \"" + strings.Repeat("[[a]]", n) + "\"\n---\n", wantLinks: n},
		{desc: "a long destination is skipped, a short one kept", give: "[x](" + strings.Repeat("a", maxDestinationBytes+1) + ".md) [y](" + strings.Repeat("b", maxDestinationBytes-3) + ".md)", wantLinks: 1},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			n, err := parseWithin(t, 5*time.Second, "Long.md", []byte(tt.give))
			if err != nil {
				t.Fatal(err)
			}
			if len(n.Links) != tt.wantLinks {
				t.Errorf("Parse(%.40q...).Links has %d links, want %d", tt.give, len(n.Links), tt.wantLinks)
			}
		})
	}
}
