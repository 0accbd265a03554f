package vault

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
)

func TestParseCanvas(t *testing.T) {
	tests := []struct {
		desc      string
		give      string
		wantFiles []string
		wantTexts []string
		wantErr   bool
	}{
		{desc: "empty object", give: `{}`},
		{desc: "file and text nodes", give: `{"nodes":[{"type":"file","file":"A.md"},{"type":"text","text":"[[A]]"}],"edges":[]}`,
			wantFiles: []string{"A.md"}, wantTexts: []string{"[[A]]"}},
		{desc: "type after file", give: `{"nodes":[{"file":"A.md","x":1,"type":"file"}]}`, wantFiles: []string{"A.md"}},
		{desc: "escapes", give: `{"nodes":[{"type":"file","file":"Caf\u00e9\/x.md"}]}`, wantFiles: []string{"Café/x.md"}},
		{desc: "nested values skipped", give: `{"meta":{"nodes":[{"type":"file","file":"No.md"}]},"nodes":[{"type":"file","extra":{"file":"No.md"},"file":"A.md","list":[1,[2]]}]}`,
			wantFiles: []string{"A.md"}},
		{desc: "other node types", give: `{"nodes":[{"type":"link","url":"A.md"},{"type":"group","file":"B.md"},{"type":"text","file":"C.md"}]}`},
		{desc: "nodes not a list", give: `{"nodes":{"type":"file","file":"A.md"}}`},
		{desc: "odd elements", give: `{"nodes":[1,"x",null,[{"type":"file","file":"No.md"}],{"type":"file","file":"A.md"}]}`, wantFiles: []string{"A.md"}},
		{desc: "file not a string", give: `{"nodes":[{"type":"file","file":3}]}`},
		{desc: "invalid JSON", give: `{"nodes":[{"type":"file","file":"A.md"`, wantErr: true},
		{desc: "trailing data", give: `{} {}`, wantErr: true},
		{desc: "not an object", give: `["A.md"]`, wantErr: true},
		{desc: "empty", give: ``, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			c, err := ParseCanvas([]byte(tt.give))
			if tt.wantErr {
				if !errors.Is(err, ErrBadCanvas) {
					t.Errorf("ParseCanvas(%q) = %v, want ErrBadCanvas", tt.give, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCanvas(%q) = %v", tt.give, err)
			}
			var files, texts []string
			for _, f := range c.Files {
				files = append(files, f.Value)
				checkCanvasString(t, tt.give, f)
			}
			for _, x := range c.Texts {
				texts = append(texts, x.Value)
				checkCanvasString(t, tt.give, x)
			}
			if !slices.Equal(files, tt.wantFiles) || !slices.Equal(texts, tt.wantTexts) {
				t.Errorf("ParseCanvas(%q) = files %q, texts %q; want %q, %q", tt.give, files, texts, tt.wantFiles, tt.wantTexts)
			}
		})
	}
}

// checkCanvasString checks that s's range in data is its JSON string.
func checkCanvasString(t *testing.T, data string, s CanvasString) {
	t.Helper()
	var v string
	if err := json.Unmarshal([]byte(data[s.Start:s.End]), &v); err != nil || v != s.Value {
		t.Errorf("%q[%d:%d] = %q, want the JSON string of %q (%v)", data, s.Start, s.End, data[s.Start:s.End], s.Value, err)
	}
}

func TestCanvasTextEdits(t *testing.T) {
	tests := []struct {
		desc  string
		give  string // the JSON string, quotes included
		edits []Edit // of the decoded text
		want  string
	}{
		{desc: "plain", give: `"[[A]] x"`, edits: []Edit{{2, 3, "Ö \"q\""}}, want: `"[[Ö \"q\"]] x"`},
		{desc: "escapes kept", give: `"\u00e9\n[[A]]\t\ud83d\ude00"`, edits: []Edit{{5, 6, "B/C"}}, want: `"\u00e9\n[[B/C]]\t\ud83d\ude00"`},
		{desc: "escape inside the edit", give: `"[[\u0041b]]"`, edits: []Edit{{2, 4, "Z"}}, want: `"[[Z]]"`},
		{desc: "two edits", give: `"[[A]] [[A]]"`, edits: []Edit{{2, 3, "B"}, {8, 9, "B"}}, want: `"[[B]] [[B]]"`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			data := []byte(`{"text":` + tt.give + `}`)
			s := CanvasString{Start: 8, End: 8 + len(tt.give)}
			if err := json.Unmarshal([]byte(tt.give), &s.Value); err != nil {
				t.Fatal(err)
			}
			eds, err := CanvasTextEdits(data, s, tt.edits)
			if err != nil {
				t.Fatalf("CanvasTextEdits(%s) = %v", tt.give, err)
			}
			out, err := ApplyEdits(data, eds)
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"text":` + tt.want + `}`; string(out) != want {
				t.Errorf("CanvasTextEdits(%s) gives %s, want %s", tt.give, out, want)
			}
		})
	}
	// An edit that cuts an escape in two is refused.
	data := []byte(`{"text":"\u00e9"}`)
	s := CanvasString{Value: "é", Start: 8, End: 16}
	if _, err := CanvasTextEdits(data, s, []Edit{{1, 2, "x"}}); err == nil {
		t.Errorf("CanvasTextEdits(an edit inside \\u00e9) = nil error, want one")
	}
}

func TestRetargetCanvasFiles(t *testing.T) {
	data := []byte("{\"nodes\":[{\"type\":\"file\",\"file\" :\t\"Caf\\u00e9.md\"},{\"type\":\"file\",\"file\":\"Other.md\"},{\"type\":\"file\",\"file\":\"cafe\\u0301.md\"}]}")
	c, err := ParseCanvas(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ApplyEdits(data, RetargetCanvasFiles(c, "Café.md", "A/<b> & \"c\".md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"nodes\":[{\"type\":\"file\",\"file\" :\t\"A/<b> & \\\"c\\\".md\"},{\"type\":\"file\",\"file\":\"Other.md\"},{\"type\":\"file\",\"file\":\"cafe\\u0301.md\"}]}"
	if string(out) != want {
		t.Errorf("RetargetCanvasFiles gives\n%s\nwant\n%s", out, want)
	}
	if !CanvasShows(c, "Other.md") || CanvasShows(c, "other.md") {
		t.Errorf("CanvasShows compares paths exactly")
	}
}

// FuzzCanvas checks that ParseCanvas never panics, that every string it
// reports sits at its range, and that rewriting file and text nodes
// changes those strings only.
func FuzzCanvas(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"nodes":[]}`, `[]`, `"x"`, `{"nodes":[{"type":"file","file":"A.md"}]}`,
		`{"nodes":[{"type":"text","text":"[[A]] \u00e9 \ud83d\ude00 \ud800 \/ \\"}]}`,
		"{\"nodes\" : [ {\"file\" : \"B\\/C.md\" , \"type\" : \"file\" } ] }",
		`{"nodes":[{"type":"file","file":"A.md","file":"B.md"},{"type":"text","text":"x","text":"y"}]}`,
		`{"nodes":[{"type":"file","file":"A.md"`, "{\"nodes\":[{\"type\":\"text\",\"text\":\"\xff\"}]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCanvas(data)
		if err != nil {
			return
		}
		for _, s := range append(slices.Clone(c.Files), c.Texts...) {
			var v string
			if err := json.Unmarshal(data[s.Start:s.End], &v); err != nil || v != s.Value {
				t.Fatalf("%q[%d:%d] is not the JSON string %q: %v", data, s.Start, s.End, s.Value, err)
			}
		}
		edits := slices.Clone(RetargetCanvasFiles(c, NFC(firstValue(c.Files)), "N/é \"x\".md"))
		for _, s := range c.Texts {
			if eds, err := CanvasTextEdits(data, s, []Edit{{0, len(s.Value), "[[é]]"}}); err == nil {
				edits = append(edits, eds...)
			}
		}
		out, err := ApplyEdits(data, edits)
		if err != nil {
			t.Fatalf("ApplyEdits = %v", err)
		}
		c2, err := ParseCanvas(out)
		if err != nil || len(c2.Files) != len(c.Files) || len(c2.Texts) != len(c.Texts) {
			t.Fatalf("after rewriting %q: %q = %v, %+v", data, out, err, c2)
		}
	})
}

func firstValue(ss []CanvasString) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0].Value
}
