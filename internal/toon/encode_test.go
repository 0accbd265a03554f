package toon

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureFile mirrors tests/fixtures.schema.json of the TOON spec repository.
type fixtureFile struct {
	Version  string        `json:"version"`
	Category string        `json:"category"`
	Tests    []fixtureCase `json:"tests"`
}

type fixtureCase struct {
	Name           string                     `json:"name"`
	Input          json.RawMessage            `json:"input"`
	Expected       json.RawMessage            `json:"expected"`
	ShouldError    bool                       `json:"shouldError"`
	Options        map[string]json.RawMessage `json:"options"`
	MinSpecVersion string                     `json:"minSpecVersion"`
}

// fixtureOptions maps fixture options onto Options; unknown options fail
// the test instead of being silently ignored.
func fixtureOptions(t *testing.T, raw map[string]json.RawMessage) Options {
	t.Helper()
	var o Options
	for k, v := range raw {
		switch k {
		case "indentSize":
			if err := json.Unmarshal(v, &o.Indent); err != nil {
				t.Fatalf("indentSize: %v", err)
			}
		case "delimiter":
			var d string
			if err := json.Unmarshal(v, &d); err != nil || len(d) != 1 {
				t.Fatalf("delimiter %s: %v", v, err)
			}
			o.Delimiter = d[0]
		default:
			t.Fatalf("unsupported fixture option %q", k)
		}
	}
	return o
}

func TestEncodeFixtures(t *testing.T) {
	files, err := filepath.Glob("../../testdata/toon/fixtures/encode/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no encode fixtures found")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var ff fixtureFile
		if err := json.Unmarshal(data, &ff); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if ff.Category != "encode" || len(ff.Tests) == 0 {
			t.Fatalf("%s: category %q with %d tests", file, ff.Category, len(ff.Tests))
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			for _, tc := range ff.Tests {
				t.Run(tc.Name, func(t *testing.T) {
					if tc.MinSpecVersion != "" && tc.MinSpecVersion > "4.0" {
						t.Skipf("needs spec %s", tc.MinSpecVersion)
					}
					opts := fixtureOptions(t, tc.Options)
					in, err := FromJSON(tc.Input)
					if err != nil {
						t.Fatalf("FromJSON: %v", err)
					}
					got, err := Encode(in, opts)
					if tc.ShouldError {
						if err == nil {
							t.Fatalf("expected an error, got %q", got)
						}
						return
					}
					if err != nil {
						t.Fatalf("Encode: %v", err)
					}
					var want string
					if err := json.Unmarshal(tc.Expected, &want); err != nil {
						t.Fatalf("expected is not a string: %v", err)
					}
					if got != want {
						t.Errorf("input %s\n got:\n%s\nwant:\n%s", tc.Input, got, want)
					}
				})
			}
		})
	}
}

func TestEncodeHostValues(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"NaN", math.NaN(), "null"},
		{"+Inf", math.Inf(1), "null"},
		{"-Inf in array", []any{math.Inf(-1), 1}, "[2]: null,1"},
		{"negative zero float", math.Copysign(0, -1), "0"},
		{"float trailing", 1.5, "1.5"},
		{"float 1e21", 1e21, "1e+21"},
		{"float 1e-7", 1e-7, "1e-7"},
		{"float 1e20", 1e20, "100000000000000000000"},
		{"float32", float32(0.1), "0.1"},
		{"int64", int64(-42), "-42"},
		{"uint64", uint64(math.MaxUint64), "18446744073709551615"},
		{"number exponent", json.Number("1.5E+3"), "1500"},
		{"number zero forms", []any{json.Number("-0"), json.Number("-0.0e5"), json.Number("0.000")}, "[3]: 0,0,0"},
		{"number trailing zeros", json.Number("1.5000"), "1.5"},
		{"number lossless", json.Number("9007199254740993"), "9007199254740993"},
		{"number tiny", json.Number("0.0000001234"), "1.234e-7"},
		{"number lower bound", json.Number("0.000001"), "0.000001"},
		{"number huge", json.Number("-12345678901234567890123"), "-1.2345678901234567890123e+22"},
		{"number huge exponent", json.Number("1e99999999999999999999"), "1e+99999999999999999999"},
		{"number tiny exponent", json.Number("25e-99999999999999999999"), "2.5e-99999999999999999998"},
		{"control escape", "a\x01b\x7f", `"a\u0001b` + "\x7f" + `"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Encode(tc.in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	cyclic := []any{nil}
	cyclic[0] = cyclic
	cases := []struct {
		name string
		in   any
		opts Options
	}{
		{"map", map[string]any{"a": 1}, Options{}},
		{"struct", struct{ A int }{1}, Options{}},
		{"duplicate key", Object{{"a", 1}, {"a", 2}}, Options{}},
		{"invalid number", json.Number("01"), Options{}},
		{"invalid utf8", "\xff", Options{}},
		{"cyclic", cyclic, Options{}},
		{"bad delimiter", "x", Options{Delimiter: ';'}},
		{"negative indent", "x", Options{Indent: -1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := Encode(tc.in, tc.opts); err == nil {
				t.Fatalf("expected an error, got %q", got)
			}
		})
	}
}

func TestFromJSON(t *testing.T) {
	v, err := FromJSON([]byte(`{"b":1,"a":[true,null,"x",2.50]}`))
	if err != nil {
		t.Fatal(err)
	}
	o, ok := v.(Object)
	if !ok || len(o) != 2 || o[0].Key != "b" || o[1].Key != "a" {
		t.Fatalf("key order lost: %#v", v)
	}
	if o[0].Value != json.Number("1") {
		t.Errorf("number not kept as json.Number: %#v", o[0].Value)
	}
	for _, bad := range []string{``, `{"a":1,"a":2}`, `1 2`, `[1,`, `{"a"}`} {
		if _, err := FromJSON([]byte(bad)); err == nil {
			t.Errorf("FromJSON(%q): expected an error", bad)
		}
	}
}

func FuzzEncode(f *testing.F) {
	for _, s := range []string{
		`{"items":[{"id":1,"c":{"n":"Ada","k":"DK"}},{"id":2,"c":{"n":"Bob","k":"UK"}}]}`,
		`{"m":{"a":{"x":1},"b":{"x":2}},"l":[[],[1,"-x"],{},{"a":[{"b":1}]}]}`,
		`[1e400,-0,"#",""," a ","\u0001",null,true]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := FromJSON(data)
		if err != nil {
			return
		}
		for _, opts := range []Options{{}, {Indent: 4, Delimiter: '\t'}, {Delimiter: '|'}} {
			out, err := Encode(v, opts)
			if err != nil {
				t.Fatalf("Encode(%s): %v", data, err)
			}
			if strings.Contains(out, "\r") || strings.Contains(out, " \n") || strings.HasSuffix(out, "\n") || strings.HasSuffix(out, " ") {
				t.Fatalf("whitespace invariant broken for %s: %q", data, out)
			}
		}
	})
}
