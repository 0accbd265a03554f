package vault

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestDecodeQuoted(t *testing.T) {
	tests := []struct {
		desc string
		give string // a quoted scalar, maybe followed by more text
		want string // its value, or "<error>"
		// at maps an offset of the value to the offset in give where its
		// source starts, for the offsets listed.
		at map[int]int
	}{
		{desc: "single quotes", give: "'abc' x", want: "abc", at: map[int]int{0: 1, 2: 3, 3: 4}},
		{desc: "doubled apostrophe", give: "'it''s'", want: "it's", at: map[int]int{2: 3, 3: 5, 4: 6}},
		{desc: "double quotes with escapes", give: `"a\"b\\c\td"`, want: "a\"b\\c\td", at: map[int]int{1: 2, 2: 4, 3: 5, 4: 7, 5: 8, 6: 10, 7: 11}},
		{desc: "unicode escapes", give: `"\u00e9\x41\U0001F680"`, want: "éA🚀", at: map[int]int{0: 1, 1: 1, 2: 7, 3: 11, 7: 21}},
		{desc: "folded line break", give: "\"a  \n   b\"", want: "a b", at: map[int]int{1: 2, 2: 8}},
		{desc: "empty line is a line break", give: "'a\n\n  b'", want: "a\nb", at: map[int]int{1: 2, 2: 6}},
		{desc: "escaped line break", give: "\"a\\\n   b\"", want: "ab", at: map[int]int{1: 7}},
		{desc: "CRLF", give: "\"a\r\n b\"", want: "a b", at: map[int]int{1: 2, 2: 5}},
		{desc: "blanks kept before the closing quote", give: "' a  '", want: " a  ", at: map[int]int{0: 1, 3: 4, 4: 5}},
		{desc: "a double quote in single quotes", give: `'"'`, want: `"`},
		{desc: "a backslash in single quotes", give: `'\'`, want: `\`},
		{desc: "unclosed", give: "'abc", want: "<error>"},
		{desc: "bad escape", give: `"\q"`, want: "<error>"},
		{desc: "surrogate", give: `"\ud800"`, want: "<error>"},
		{desc: "short hex", give: `"\x4"`, want: "<error>"},
		{desc: "not a quote", give: "abc", want: "<error>"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			val, from, ok := decodeQuoted([]byte(tt.give), 0)
			if !ok {
				if tt.want != "<error>" {
					t.Fatalf("decodeQuoted(%q) failed, want %q", tt.give, tt.want)
				}
				return
			}
			if string(val) != tt.want {
				t.Fatalf("decodeQuoted(%q) = %q, want %q", tt.give, val, tt.want)
			}
			if len(from) != len(val)+1 || tt.give[from[len(val)]] != tt.give[0] {
				t.Fatalf("decodeQuoted(%q): %d offsets, the last %d, want %d ending at the closing quote", tt.give, len(from), from[len(from)-1], len(val)+1)
			}
			for i, want := range tt.at {
				if from[i] != want {
					t.Errorf("decodeQuoted(%q): value byte %d comes from %d, want %d", tt.give, i, from[i], want)
				}
			}
		})
	}
}

// yamlScalar returns what the YAML parser makes of the value of "k:"
// written as text, and whether it parses to a quoted scalar.
func yamlScalar(text string) (string, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("k: "+text+"\n"), &doc); err != nil || len(doc.Content) == 0 {
		return "", false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return "", false
	}
	v := m.Content[1]
	if v.Kind != yaml.ScalarNode || v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 {
		return "", false
	}
	return v.Value, true
}

// checkLikeYAML checks decodeQuoted against the YAML parser on text, the
// value of a key: where the parser reads a quoted scalar, decodeQuoted
// must give the same value (or fail, which costs only the links of that
// value), and each offset must point inside the scalar.
func checkLikeYAML(t *testing.T, text string) {
	t.Helper()
	want, ok := yamlScalar(text)
	if !ok {
		return
	}
	val, from, good := decodeQuoted([]byte(text), 0)
	if !good {
		if strings.ContainsAny(want, "[]") {
			t.Logf("decodeQuoted(%q) failed; the YAML parser reads %q", text, want)
		}
		return
	}
	if string(val) != want {
		t.Fatalf("decodeQuoted(%q) = %q, the YAML parser reads %q", text, val, want)
	}
	prev := 0
	for i, f := range from {
		if f < prev || f < 1 || f > from[len(from)-1] {
			t.Fatalf("decodeQuoted(%q): offset %d of byte %d out of order or outside the quotes", text, f, i)
		}
		prev = f
	}
}

func TestDecodeQuotedLikeYAML(t *testing.T) {
	for _, text := range []string{
		`'[[Old|it''s]]'`, `"[[Old|say \"hi\"]]"`, `"\t\ \/\N\_\L\P\e\0\a\b\v\f\r\n"`, `'a  b'`,
		"\"a\n  \n\n  b\"", "'a \n\tb'", "\"a\\\n\n  b\"", `"\x7f\u0085"`, "'x'''", `""`, `''`,
		"\"line1\r\n  line2\"", "'  lead\n  trail  '", `"é [[Café]]"`,
	} {
		checkLikeYAML(t, text)
	}
}

func FuzzDecodeQuoted(f *testing.F) {
	for _, s := range []string{
		`'[[Old|it''s]]'`, `"[[Old|say \"hi\"]]"`, `"\u00e9\x20\U0001F680"`, "\"a\\\n  b\"", "'a\n\n b'", `"\q"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 512 {
			return
		}
		checkLikeYAML(t, text)
		if q := text; len(q) > 0 && (q[0] == '\'' || q[0] == '"') {
			// What the rewriter writes: no line breaks or control characters.
			if dec, ok := unquoteFragment(q[1:], q[0]); ok && strings.IndexFunc(dec, yamlUnprintable) < 0 &&
				!strings.ContainsAny(dec, "\r\n\u2028\u2029") {
				if again, ok := unquoteFragment(quoteYAML(dec, q[0]), q[0]); !ok || again != dec {
					t.Fatalf("quoteYAML(%q) reads back as %q, %v", dec, again, ok)
				}
			}
		}
	})
}
