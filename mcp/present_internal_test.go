package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// TestTOONFallback checks that an answer TOON cannot encode (here a
// string that is not UTF-8) comes back as JSON with a warning, never empty.
func TestTOONFallback(t *testing.T) {
	a := &answer{kind: kindRows, rowsKey: "nodes",
		rows:  []toon.Object{{{Key: "id", Value: "a.md"}, {Key: "title", Value: "bad \xff byte"}}},
		props: []toon.Object{nil},
	}
	s, err := a.render(FormatTOON, uncut)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Nodes    []map[string]any `json:"nodes"`
		Warnings []string         `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("fallback is not JSON: %v\n%s", err, s)
	}
	if len(out.Nodes) != 1 || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "TOON encoding failed") {
		t.Errorf("fallback = %s, want the row and a warning", s)
	}
}

// TestInterpretScore checks the words given to scores.
func TestInterpretScore(t *testing.T) {
	for v, want := range map[any]string{0.82: "0.82 strong", 0.5: "0.50 good", 0.3: "0.30 fair", 0.1: "0.10 weak", 12: "12", 3.5: "3.5"} {
		if got := interpretScore(v); got != want {
			t.Errorf("interpretScore(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestOmittedLine checks that the omitted line says what a cut left out
// and gives only advice that works for the answer: paging where it has
// pages, the note's resource for a note's cut content.
func TestOmittedLine(t *testing.T) {
	row := func(id string) toon.Object {
		return toon.Object{{Key: "id", Value: id}, {Key: "title", Value: id}, {Key: "tags", Value: "a b"}, {Key: "content", Value: "some text here"}}
	}
	rows := []toon.Object{row("a.md"), row("b.md"), row("c.md")}
	paged := &answer{kind: kindRows, rowsKey: "nodes", rows: rows, props: make([]toon.Object, 3),
		foot: paging(3, 1, 1)}
	unpaged := &answer{kind: kindRows, rowsKey: "nodes", rows: rows, props: make([]toon.Object, 3),
		foot: paging(3, 0, 0)}
	content := "a long note text"
	note := &answer{kind: kindNote, head: toon.Object{{Key: "id", Value: "n.md"}, {Key: "title", Value: "N"}, {Key: "tags", Value: []any{"x"}}},
		content: &content, rowsKey: "neighbors", rows: rows, props: make([]toon.Object, 3), warnings: []string{"w1", "w2"}}
	status := &answer{kind: kindStatus, keep: statusFields.minimal,
		head: toon.Object{{Key: "vault", Value: "/v"}, {Key: "notes", Value: 3}, {Key: "watcher", Value: "on"}}}
	c := func(f func(*cut)) cut { x := uncut; f(&x); return x }
	tests := []struct {
		desc string
		a    *answer
		c    cut
		want string
	}{
		{"paged rows cut", paged, c(func(x *cut) { x.rows = 1 }),
			"2 of 3 nodes left out (maxTokens 100, answer 900): raise maxTokens or page with a smaller limit"},
		{"unpaged rows cut: no paging advice", unpaged, c(func(x *cut) { x.rows = 1 }),
			"2 of 3 nodes left out (maxTokens 100, answer 900): raise maxTokens"},
		{"no rows left", paged, c(func(x *cut) { x.rows, x.minimal = 0, true }),
			"all 3 nodes left out (maxTokens 100, answer 900): raise maxTokens or page with a smaller limit"},
		{"minimal rows name their fields", paged, c(func(x *cut) { x.minimal = true }),
			"fields tags, content left out (maxTokens 100, answer 900): raise maxTokens"},
		{"rows' content cut", paged, c(func(x *cut) { x.rowContent = 5 }),
			"rows' content past 5 characters left out (maxTokens 100, answer 900): raise maxTokens"},
		{"note content cut, warnings left out", note, c(func(x *cut) { x.content, x.warnings = 4, 0 }),
			"content past 4 characters; 2 warnings left out (maxTokens 100, answer 900): raise maxTokens or read vaultgraph://note/n.md"},
		{"note neighbours cut", note, c(func(x *cut) { x.rows, x.warnings = 1, 1 }),
			"2 of 3 neighbors; 1 warning left out (maxTokens 100, answer 900): raise maxTokens or page through get_neighbors"},
		{"status minimal: its own fields, no ids", status, c(func(x *cut) { x.minimal = true }),
			"fields vault, watcher left out (maxTokens 100, answer 900): raise maxTokens"},
		{"id only", note, c(func(x *cut) { x.idOnly, x.rows = true, 0 }),
			"all but id left out (maxTokens 100, answer 900): raise maxTokens"},
		{"id only, list", paged, c(func(x *cut) { x.idOnly, x.rows = true, 0 }),
			"all but total, page, totalPages left out (maxTokens 100, answer 900): raise maxTokens"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := say(tt.a.omittedLine(tt.c, 100, 900), false); got != tt.want {
				t.Errorf("omittedLine = %q\nwant           %q", got, tt.want)
			}
		})
	}
}

// TestMarkdownScores checks that only search scores get a word: hub
// metrics (link counts, PageRank) are numbers, not relevance.
func TestMarkdownScores(t *testing.T) {
	rows := []toon.Object{{{Key: "id", Value: "a.md"}, {Key: "title", Value: "A"}, {Key: "score", Value: 1.0}}}
	for _, tt := range []struct {
		tool, want, unwant string
	}{
		{"search", "score 1.00 strong", ""},
		{"get_hubs", "score 1\n", "strong"},
	} {
		a := &answer{relevance: lookup(tt.tool).relevance, kind: kindRows, rowsKey: "nodes", rows: rows, props: []toon.Object{nil}}
		got := a.markdown(uncut)
		if !strings.Contains(got, tt.want) || (tt.unwant != "" && strings.Contains(got, tt.unwant)) {
			t.Errorf("%s markdown = %q, want %q and not %q", tt.tool, got, tt.want, tt.unwant)
		}
	}
}

// TestMarkdownLayout checks the blank lines of Markdown answers: none at
// the start, one before the footer.
func TestMarkdownLayout(t *testing.T) {
	body := "Line one.\nLast line."
	tests := []struct {
		desc string
		a    *answer
		want string
	}{
		{"note with title", &answer{kind: kindNote, head: toon.Object{{Key: "id", Value: "b.md"}, {Key: "title", Value: "B"}}, content: &body},
			"# B\nid: b.md\n\nLine one.\nLast line.\n\n" + say(markdownFooter, false)},
		{"content only", &answer{kind: kindNote, content: &body},
			"Line one.\nLast line.\n\n" + say(markdownFooter, false)},
		{"id only, at full detail", &answer{kind: kindNote, head: toon.Object{{Key: "id", Value: "b.md"}}, allFields: true},
			"# b.md\n\n" + say(markdownFooterFull, false)},
		{"rows with a hint", &answer{kind: kindRows, rowsKey: "tags", rows: []toon.Object{{{Key: "tag", Value: "x"}, {Key: "count", Value: 2}}}, props: []toon.Object{nil},
			foot: paging(3, 1, 3), hint: "page 1 of 3: pass page: 2 for more"},
			"1 of 3 tags (page 1 of 3)\n- x: 2\n\npage 1 of 3: pass page: 2 for more\n\n" + say(markdownFooter, false)},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := tt.a.markdown(uncut); got != tt.want {
				t.Errorf("markdown =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
