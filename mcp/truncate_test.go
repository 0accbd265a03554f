package mcp_test

// Truncation of long answers: maxTokens on note content and lists (truncate.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/mcp"
)

// longText returns n words "w0001 w0002 ...", each 5 characters and a
// space.
func longText(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "w%04d", i)
	}
	return b.String()
}

// checkTruncated fails unless got is full cut to at most max characters
// at a word boundary and marked.
func checkTruncated(t testing.TB, where, full, got string, limit int) {
	t.Helper()
	text, ok := strings.CutSuffix(got, mcp.TruncationMark)
	if !ok {
		t.Errorf("%s: content ends %q, want %q", where, got[max(0, len(got)-30):], mcp.TruncationMark)
		return
	}
	if n := utf8.RuneCountInString(text); n > limit || n < limit-10 {
		t.Errorf("%s: %d characters kept, want at most %d and close to it", where, n, limit)
	}
	if !strings.HasPrefix(full, text) {
		t.Errorf("%s: truncated content is not a prefix of the note", where)
		return
	}
	if next, _ := utf8.DecodeRuneInString(full[len(text):]); !unicode.IsSpace(next) {
		t.Errorf("%s: cut inside a word: ...%q | %q...", where, text[max(0, len(text)-10):], full[len(text):len(text)+10])
	}
}

func TestContentTruncation(t *testing.T) {
	body := longText(3000) // 17,999 characters
	dir := writeVault(t, map[string]string{
		"Long.md":  "---\ntags: [long]\n---\n" + body + "\n\n[[Short]]\n",
		"Short.md": "Links [[Long]]. #long\n",
	})
	tools := newTools(t, dir)
	ctx := context.Background()

	got, err := tools.GetNode(ctx, mcp.GetNodeParams{ID: "Long"})
	if err != nil {
		t.Fatal(err)
	}
	checkTruncated(t, "get_node", body, *got.(*mcp.NodeResponse).Content, mcp.PrimaryContentChars)

	got, err = tools.GetNode(ctx, mcp.GetNodeParams{ID: "Short", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := got.(*mcp.NodeResponse)
	if *r.Content != "Links [[Long]]. #long\n" {
		t.Errorf("get_node Short content = %q, want it whole", *r.Content)
	}
	if len(r.Neighbors) != 1 {
		t.Fatalf("get_node Short neighbours = %v, want Long", r.Neighbors)
	}
	checkTruncated(t, "get_node neighbour", body, *r.Neighbors[0].Content, mcp.NeighborContentChars)
	for _, detail := range []string{mcp.DetailStandard, mcp.DetailFull} {
		_, m := objectFields(t, answerJSON(t, "get_node", r, mcp.Presentation{Detail: detail}))
		var nbs []struct{ ID, Content string }
		if err := json.Unmarshal(m["neighbors"], &nbs); err != nil || len(nbs) != 1 {
			t.Fatalf("rendered neighbours = %s (%v), want Long", m["neighbors"], err)
		}
		checkTruncated(t, "rendered get_node neighbour, "+detail, body, nbs[0].Content, mcp.NeighborContentChars)
	}

	lists := []struct {
		desc string
		give func() (any, error)
	}{
		{"get_neighbors", func() (any, error) { return tools.GetNeighbors(ctx, mcp.GetNeighborsParams{ID: "Short"}) }},
		{"search_by_tags", func() (any, error) { return tools.SearchByTags(ctx, mcp.SearchByTagsParams{Tags: []string{"long"}}) }},
		{"list_nodes", func() (any, error) { return tools.ListNodes(ctx, mcp.ListNodesParams{}) }},
	}
	for _, tt := range lists {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := tt.give()
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, n := range got.(*mcp.ListResponse).Nodes {
				if n.ID == "Long.md" {
					checkTruncated(t, tt.desc, body, *n.Content, mcp.ListContentChars)
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: Long.md not listed", tt.desc)
			}
			// A row's content is a preview: 200 characters at standard
			// detail, 500 at full.
			for detail, limit := range map[string]int{mcp.DetailStandard: mcp.ShortContentChars, mcp.DetailFull: mcp.ListContentChars} {
				_, m := objectFields(t, answerJSON(t, tt.desc, got, mcp.Presentation{Detail: detail}))
				var rows []struct{ ID, Content string }
				if err := json.Unmarshal(m["nodes"], &rows); err != nil {
					t.Fatal(err)
				}
				for _, r := range rows {
					if r.ID == "Long.md" {
						checkTruncated(t, tt.desc+" "+detail, body, r.Content, limit)
					}
				}
			}
		})
	}
	t.Run("random_node", func(t *testing.T) {
		tools.Rand = rand.New(rand.NewPCG(1, 1))
		for range 20 {
			got, err := tools.RandomNode(ctx, mcp.RandomNodeParams{Tags: []string{"long"}})
			if err != nil {
				t.Fatal(err)
			}
			if r := got.(*mcp.NodeResponse); r.ID == "Long.md" {
				checkTruncated(t, "random_node", body, *r.Content, mcp.PrimaryContentChars)
				return
			}
		}
		t.Errorf("random_node never picked Long.md")
	})
}

func TestTruncate(t *testing.T) {
	const mark = mcp.TruncationMark
	tests := []struct {
		desc string
		give string
		max  int
		want string
	}{
		{desc: "fits", give: "hello world", max: 20, want: "hello world"},
		{desc: "exact length", give: "hello world", max: 11, want: "hello world"},
		{desc: "empty", give: "", max: 5, want: ""},
		{desc: "no limit", give: "hello world", max: 0, want: "hello world"},
		{desc: "cut back to a space", give: "hello world again", max: 13, want: "hello world" + mark},
		{desc: "cut at the end of a word", give: "aa bb cc dd ee", max: 8, want: "aa bb cc" + mark},
		{desc: "cut just after a space", give: "hello world again", max: 12, want: "hello world" + mark},
		{desc: "runs of spaces trimmed", give: "hello     world", max: 8, want: "hello" + mark},
		{desc: "newline is a boundary", give: "line one\nline two", max: 12, want: "line one" + mark},
		{desc: "one giant word", give: strings.Repeat("x", 50), max: 10, want: strings.Repeat("x", 10) + mark},
		{desc: "giant word after a short one", give: "a " + strings.Repeat("x", 50), max: 10, want: "a " + strings.Repeat("x", 8) + mark},
		{desc: "multi-byte words", give: "日本語の テキスト です", max: 6, want: "日本語の" + mark},
		{desc: "multi-byte fits by characters", give: "日本語の テキスト", max: 9, want: "日本語の テキスト"},
		{desc: "multi-byte giant word", give: strings.Repeat("é", 20), max: 5, want: "ééééé" + mark},
		{desc: "emoji", give: "🚀🚀🚀🚀", max: 2, want: "🚀🚀" + mark},
		{desc: "combining accent kept whole", give: "cafe\u0301 menu", max: 6, want: "cafe\u0301" + mark},
		{desc: "bold cut: closed", give: "a **bb cc** dd", max: 8, want: "a **bb**" + mark},
		{desc: "bold kept whole", give: "a **bb** cc dd", max: 10, want: "a **bb**" + mark},
		{desc: "a lone ** in the text: left as it is", give: "a ** b c d", max: 6, want: "a ** b" + mark},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := mcp.Truncate(tt.give, tt.max); got != tt.want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", tt.give, tt.max, got, tt.want)
			}
		})
	}

	t.Run("random text", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 5))
		alphabet := []rune("ab cdé日本 🚀\n\t")
		for i := range 2000 {
			rs := make([]rune, r.IntN(80))
			for j := range rs {
				rs[j] = alphabet[r.IntN(len(alphabet))]
			}
			s, max := string(rs), 1+r.IntN(60)
			got := mcp.Truncate(s, max)
			if utf8.RuneCountInString(s) <= max {
				if got != s {
					t.Fatalf("#%d Truncate(%q, %d) = %q, want it unchanged", i, s, max, got)
				}
				continue
			}
			text, ok := strings.CutSuffix(got, mark)
			if !ok || !utf8.ValidString(got) || !strings.HasPrefix(s, text) || utf8.RuneCountInString(text) > max {
				t.Fatalf("#%d Truncate(%q, %d) = %q, want a valid prefix of at most %d characters and the mark", i, s, max, got, max)
			}
		}
	})
}
