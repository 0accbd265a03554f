package toon_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/toon"
	"github.com/vaultgraph/vaultgraph/internal/toon/toontest"
)

// decodeFixtureOptions maps fixture options onto DecodeOptions; unknown
// options fail the test instead of being silently ignored.
func decodeFixtureOptions(t *testing.T, raw map[string]json.RawMessage) toontest.DecodeOptions {
	t.Helper()
	var o toontest.DecodeOptions
	for k, v := range raw {
		switch k {
		case "indentSize":
			if err := json.Unmarshal(v, &o.Indent); err != nil {
				t.Fatalf("indentSize: %v", err)
			}
		case "strict":
			var strict bool
			if err := json.Unmarshal(v, &strict); err != nil {
				t.Fatalf("strict: %v", err)
			}
			o.Lenient = !strict
		default:
			t.Fatalf("unsupported fixture option %q", k)
		}
	}
	return o
}

// readFixtures loads every fixture file matching pattern.
func readFixtures(t testing.TB, pattern, category string) map[string]toon.FixtureFile {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no fixtures match %s", pattern)
	}
	out := make(map[string]toon.FixtureFile, len(files))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var ff toon.FixtureFile
		if err := json.Unmarshal(data, &ff); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if ff.Category != category || len(ff.Tests) == 0 {
			t.Fatalf("%s: category %q with %d tests", file, ff.Category, len(ff.Tests))
		}
		out[strings.TrimSuffix(filepath.Base(file), ".json")] = ff
	}
	return out
}

func TestDecodeFixtures(t *testing.T) {
	passed := 0
	for name, ff := range readFixtures(t, "../../testdata/toon/decode/*.json", "decode") {
		t.Run(name, func(t *testing.T) {
			for _, tc := range ff.Tests {
				t.Run(tc.Name, func(t *testing.T) {
					if tc.MinSpecVersion != "" && tc.MinSpecVersion > "4.0" {
						t.Skipf("needs spec %s", tc.MinSpecVersion)
					}
					var in string
					if err := json.Unmarshal(tc.Input, &in); err != nil {
						t.Fatalf("input is not a string: %v", err)
					}
					got, err := toontest.Decode(in, decodeFixtureOptions(t, tc.Options))
					if tc.ShouldError {
						if err == nil {
							t.Fatalf("Decode(%q) = %s, want an error", in, show(got))
						}
						if !errors.Is(err, toontest.ErrSyntax) || !strings.Contains(err.Error(), "line ") {
							t.Errorf("Decode(%q) error %q: want ErrSyntax with a line number", in, err)
						}
						passed++
						return
					}
					if err != nil {
						t.Fatalf("Decode(%q): %v", in, err)
					}
					want, err := toon.FromJSON(tc.Expected)
					if err != nil {
						t.Fatalf("expected: %v", err)
					}
					if !equalJSON(got, want) {
						t.Fatalf("Decode(%q) = %s, want %s", in, show(got), tc.Expected)
					}
					passed++
				})
			}
		})
	}
	t.Logf("%d decode fixtures passed", passed)
}

func TestDecode(t *testing.T) {
	cases := []struct {
		desc string
		give string
		opts toontest.DecodeOptions
		want string // JSON
	}{
		{"canonical numbers", "a[4]: 1.5000,-0,1e999,9007199254740993", toontest.DecodeOptions{}, `{"a":[1.5,0,1e+999,9007199254740993]}`},
		{"key with space before bracket", "foo [2]: bar", toontest.DecodeOptions{}, `{"foo [2]":"bar"}`},
		{"byte-order mark", "\ufeffa: 1", toontest.DecodeOptions{}, `{"a":1}`},
		{"keyless header in object (lenient)", "a:\n  [2]: x,y", toontest.DecodeOptions{Lenient: true}, `{"a":{"[2]":"x,y"}}`},
		{"depth jump (lenient)", "a:\n    b: 1\nc[1]:\n      - x", toontest.DecodeOptions{Lenient: true}, `{"a":{"b":1},"c":["x"]}`},
		{"extra rows (lenient)", "t[1]{a}:\n  1\n  2", toontest.DecodeOptions{Lenient: true}, `{"t":[{"a":1},{"a":2}]}`},
		{"indent 4", "a[1]:\n    - b:\n            c: 1\n        d[1]{x}:\n            y", toontest.DecodeOptions{Indent: 4}, `{"a":[{"b":{"c":1},"d":[{"x":"y"}]}]}`},
		{"list item header after spaces", "a[1]:\n  -   [1]: x", toontest.DecodeOptions{}, `{"a":[["x"]]}`},
		{"escapes", `"\\\"\n\r\t\u00e9\u0000"`, toontest.DecodeOptions{}, `"\\\"\n\r\t\u00e9\u0000"`},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := toontest.Decode(tc.give, tc.opts)
			if err != nil {
				t.Fatalf("Decode(%q): %v", tc.give, err)
			}
			want, err := toon.FromJSON([]byte(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if !equalJSON(got, want) {
				t.Errorf("Decode(%q) = %s, want %s", tc.give, show(got), tc.want)
			}
		})
	}
	if got, _ := toontest.Decode("a: 1.50e1", toontest.DecodeOptions{}); got.(toon.Object)[0].Value != json.Number("15") {
		t.Errorf("number not canonical: %#v", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		desc string
		give string
		want string // in the error message
	}{
		{"count", "a: 1\nb[3]: x,y", "line 2: 2 values, header declares 3"},
		{"rows", "t[2]{a}:\n  1\n  2\n  3", "line 4: more rows than the 2 declared"},
		{"items", "l[1]:\n  - a\n  - b", "line 3: more list items than the 1 declared"},
		{"blank line", "l[2]:\n  - a\n\n  - b", "line 3: blank line inside an array"},
		{"indentation", "a:\n   b: 1", "line 2: indentation of 3 spaces"},
		{"tab", "a:\n\tb: 1", "line 2: tab in indentation"},
		{"over-indented", "a: 1\n  b: 2", "line 2: over-indented line"},
		{"bad escape", "a: 1\nb: \"\\q\"", `line 2: invalid escape \q`},
		{"utf-8", "a: \xff", "line 1: ill-formed UTF-8"},
		{"width", "t[1]{a,b}:\n  1", "line 2: 1 cells, header declares 2 fields"},
		{"depth", strings.Repeat("[1]:\n", 1) + nestedList(1001), "nested deeper than 1000"},
	}
	for _, tc := range cases {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := toontest.Decode(tc.give, toontest.DecodeOptions{})
			if err == nil {
				t.Fatalf("Decode(%.80q) = %.80s, want an error", tc.give, show(got))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Decode(%.80q) error = %q, want it to contain %q", tc.give, err, tc.want)
			}
		})
	}
	if _, err := toontest.Decode("a: 1", toontest.DecodeOptions{Indent: -1}); err == nil {
		t.Error("negative indent: want an error")
	}
}

// nestedList is n list items, each the single element of the one before.
func nestedList(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s- [1]:\n", strings.Repeat("  ", i))
	}
	fmt.Fprintf(&b, "%s- x", strings.Repeat("  ", n+1))
	return b.String()
}

// TestDecodeRoundTrip decodes what Encode wrote for every encode fixture
// input, with the fixture's options.
func TestDecodeRoundTrip(t *testing.T) {
	for name, ff := range readFixtures(t, "../../testdata/toon/fixtures/encode/*.json", "encode") {
		for _, tc := range ff.Tests {
			if tc.ShouldError {
				continue
			}
			in, err := toon.FromJSON(tc.Input)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, tc.Name, err)
			}
			checkRoundTrip(t, in, toon.FixtureOptions(t, tc.Options))
		}
	}
}

// TestDecodeRoundTripRandom checks Decode(Encode(v)) == v for random
// values, with every delimiter and several indent sizes.
func TestDecodeRoundTripRandom(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		opts := toon.Options{Indent: []int{1, 2, 4}[g.r.IntN(3)], Delimiter: ",\t|"[g.r.IntN(3)]}
		checkRoundTrip(t, g.value(0), opts)
	}
}

func checkRoundTrip(t *testing.T, v any, opts toon.Options) {
	t.Helper()
	text, err := toon.Encode(v, opts)
	if err != nil {
		t.Fatalf("Encode(%s): %v", show(v), err)
	}
	got, err := toontest.Decode(text, toontest.DecodeOptions{Indent: opts.Indent})
	if err != nil {
		t.Fatalf("Decode(Encode(%s)): %v\nTOON:\n%s", show(v), err, text)
	}
	if want := toon.HeaderOrder(v, true); !equalJSON(got, want) {
		t.Fatalf("Decode(Encode(v)) = %s, want %s\nTOON:\n%s", show(got), show(want), text)
	}
}

func FuzzDecode(f *testing.F) {
	for _, ff := range readFixtures(f, "../../testdata/toon/decode/*.json", "decode") {
		for _, tc := range ff.Tests {
			var s string
			if json.Unmarshal(tc.Input, &s) == nil {
				f.Add(s)
			}
		}
	}
	for _, ff := range readFixtures(f, "../../testdata/toon/fixtures/encode/*.json", "encode") {
		for _, tc := range ff.Tests {
			var s string
			if json.Unmarshal(tc.Expected, &s) == nil {
				f.Add(s)
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, opts := range []toontest.DecodeOptions{{}, {Lenient: true}, {Indent: 1}} {
			v, err := toontest.Decode(text, opts)
			if err != nil {
				continue
			}
			out, err := toon.Encode(v, toon.Options{})
			if err != nil {
				t.Fatalf("Encode(Decode(%q, %+v)): %v", text, opts, err)
			}
			again, err := toontest.Decode(out, toontest.DecodeOptions{})
			if err != nil {
				t.Fatalf("Decode(%q) of the re-encoded %q: %v", out, text, err)
			}
			if want := toon.HeaderOrder(v, true); !equalJSON(again, want) {
				t.Fatalf("round trip of %q (%+v) via %q: got %s, want %s", text, opts, out, show(again), show(want))
			}
		}
	})
}

// equalJSON is JSON-model equality (spec §2) with object keys in order;
// numbers compare by value.
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case toon.Object:
		y, ok := b.(toon.Object)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i].Key != y[i].Key || !equalJSON(x[i].Value, y[i].Value) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		cx, okx := toon.CanonicalNumber(string(x))
		cy, oky := toon.CanonicalNumber(string(y))
		return okx && oky && cx == cy
	}
	return a == b
}

// show renders a decoded value for failure messages.
func show(v any) string {
	switch x := v.(type) {
	case toon.Object:
		parts := make([]string, len(x))
		for i, f := range x {
			parts[i] = fmt.Sprintf("%q:%s", f.Key, show(f.Value))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, el := range x {
			parts[i] = show(el)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case string:
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprint(v)
}

// gen makes random JSON-model values heavy in the strings and shapes TOON
// must quote or tabulate.
type gen struct{ r *rand.Rand }

var fragments = []string{
	"a", "key", "x y", "", " ", "\t", "\n", "\r", `"`, `\`, ":", ",", "|", "-", "#",
	"[", "]", "{", "}", "[2]", "true", "null", "42", "-3.5", "05", "1e6", "é",
	"東京", "🚀", "\x01", "\u00a0", "- x", "a: b", "[]", "id", "_x.y",
}

var numbers = []string{"0", "-0", "7", "-42", "3.25", "1e6", "-1.5E-7", "1e21", "0.000001",
	"123456789012345678901234567890", "9007199254740993", "2.50", "1e-400"}

func (g gen) str() string {
	var b strings.Builder
	for range g.r.IntN(4) {
		b.WriteString(fragments[g.r.IntN(len(fragments))])
	}
	return b.String()
}

func (g gen) prim() any {
	switch g.r.IntN(6) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return json.Number(numbers[g.r.IntN(len(numbers))])
	case 3:
		return json.Number(fmt.Sprint(g.r.Int64N(2e6) - 1e6))
	}
	return g.str()
}

func (g gen) value(depth int) any {
	if depth > 4 {
		return g.prim()
	}
	n := g.r.IntN(4)
	switch g.r.IntN(8) {
	case 0, 1:
		return g.prim()
	case 2:
		o := toon.Object{}
		for _, k := range g.keys(n) {
			o = append(o, toon.Field{Key: k, Value: g.value(depth + 1)})
		}
		return o
	case 3:
		arr := make([]any, n)
		for i := range arr {
			arr[i] = g.value(depth + 1)
		}
		return arr
	case 4: // rows for a table
		s := g.shape(depth)
		arr := make([]any, n+1)
		for i := range arr {
			arr[i] = g.fill(s)
		}
		return arr
	case 5: // entries for a keyed object
		s := g.shape(depth)
		o := toon.Object{}
		for _, k := range g.keys(n + 2) {
			o = append(o, toon.Field{Key: k, Value: g.fill(s)})
		}
		return o
	case 6:
		arr := make([]any, n)
		for i := range arr {
			inner := make([]any, g.r.IntN(3))
			for j := range inner {
				inner[j] = g.prim()
			}
			arr[i] = inner
		}
		return arr
	}
	return []any{g.prim(), g.value(depth + 1), toon.Object{}, []any{}}
}

// keys returns n distinct random keys.
func (g gen) keys(n int) []string {
	var out []string
	seen := map[string]bool{}
	for len(out) < n {
		if k := g.str(); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// shape is the field structure of uniform objects: a nil sub is a leaf.
type shape struct {
	keys []string
	subs []*shape
}

func (g gen) shape(depth int) *shape {
	s := &shape{keys: g.keys(1 + g.r.IntN(3))}
	for range s.keys {
		var sub *shape
		if depth < 3 && g.r.IntN(4) == 0 {
			sub = g.shape(depth + 1)
		}
		s.subs = append(s.subs, sub)
	}
	return s
}

// fill makes an object of shape s, its keys sometimes shuffled.
func (g gen) fill(s *shape) toon.Object {
	o := make(toon.Object, len(s.keys))
	for i, k := range s.keys {
		var v any = g.prim()
		if s.subs[i] != nil {
			v = g.fill(s.subs[i])
		}
		o[i] = toon.Field{Key: k, Value: v}
	}
	if g.r.IntN(3) == 0 {
		g.r.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
	}
	return o
}
