package embed

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunks(t *testing.T) {
	tests := []struct {
		desc  string
		title string
		give  string
		max   int
		want  []string // Heading|Text
	}{
		{
			desc:  "empty body: one chunk with the title",
			title: "Alpha Plan",
			give:  "",
			want:  []string{"|Alpha Plan"},
		},
		{
			desc:  "no headings",
			title: "Note",
			give:  "Just some text.\n\nAnd more.",
			want:  []string{"|Note\n\nJust some text.\n\nAnd more."},
		},
		{
			desc:  "sections with heading path",
			title: "Trip",
			give:  "Intro line.\n# Plan\nGo east.\n## Day 1\nTokyo.\n## Day 2 ##\nKyoto.\n# Costs\nLow.",
			want: []string{
				"|Trip\n\nIntro line.",
				"Plan|Trip > Plan\n\nGo east.",
				"Day 1|Trip > Plan > Day 1\n\nTokyo.",
				"Day 2|Trip > Plan > Day 2\n\nKyoto.",
				"Costs|Trip > Costs\n\nLow.",
			},
		},
		{
			desc:  "empty sections give no chunk",
			title: "T",
			give:  "# A\n## B\ntext\n# C\n",
			want:  []string{"B|T > A > B\n\ntext"},
		},
		{
			desc:  "only headings: the title and headings",
			title: "T",
			give:  "# A\n\n## B\n",
			want:  []string{"|T\n\n# A\n\n## B"},
		},
		{
			desc:  "headings inside fenced code are not headings",
			title: "Code",
			give:  "# Real\n```sh\n# comment\n~~~\n# still code\n```\nafter\n~~~~\n# tilde code\n~~~~\n# Next\nx",
			want: []string{
				"Real|Code > Real\n\n```sh\n# comment\n~~~\n# still code\n```\nafter\n~~~~\n# tilde code\n~~~~",
				"Next|Code > Next\n\nx",
			},
		},
		{
			desc:  "not headings: #tag, ####### and indented code",
			title: "T",
			give:  "#tag here\n####### seven\n    # indented code\ntext",
			want:  []string{"|T\n\n#tag here\n####### seven\n    # indented code\ntext"},
		},
		{
			desc:  "long section split at paragraphs",
			title: "T",
			give:  "# H\n" + strings.Repeat("a", 20) + "\n\n" + strings.Repeat("b", 20) + "\n\n" + strings.Repeat("c", 20),
			max:   60,
			want: []string{
				"H|T > H\n\n" + strings.Repeat("a", 20) + "\n\n" + strings.Repeat("b", 20),
				"H|T > H\n\n" + strings.Repeat("c", 20),
			},
		},
		{
			desc:  "long paragraph split at sentences",
			title: "T",
			give:  "One two three. Four five six! Seven eight nine? Ten.",
			max:   35,
			want:  []string{"|T\n\nOne two three. Four five six!", "|T\n\nSeven eight nine? Ten."},
		},
		{
			desc:  "long sentence split at words",
			title: "T",
			give:  "alpha beta gamma delta epsilon zeta",
			max:   20,
			want:  []string{"|T\n\nalpha beta gamma", "|T\n\ndelta epsilon", "|T\n\nzeta"},
		},
		{
			desc:  "a long word split between characters, never inside one",
			title: "T",
			give:  strings.Repeat("é", 12),
			max:   16,
			want:  []string{"|T\n\néééééé", "|T\n\néééééé"},
		},
		{
			desc:  "CRLF line endings",
			title: "T",
			give:  "# A\r\nx\r\n# B\r\ny\r\n",
			want:  []string{"A|T > A\n\nx", "B|T > B\n\ny"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := Chunks(tt.title, tt.give, tt.max)
			var gotS []string
			for _, c := range got {
				gotS = append(gotS, c.Heading+"|"+c.Text)
			}
			if strings.Join(gotS, "\n---\n") != strings.Join(tt.want, "\n---\n") {
				t.Errorf("Chunks =\n%q\nwant\n%q", gotS, tt.want)
			}
			checkChunks(t, tt.title, tt.give, tt.max, got)
		})
	}
}

// checkChunks checks the invariants: size, valid UTF-8, Text ends with
// body[Start:End].
func checkChunks(t *testing.T, title, body string, max int, chunks []Chunk) {
	t.Helper()
	if max <= 0 {
		max = DefaultChunkChars
	}
	max = maxInt(max, minChunkChars)
	if len(chunks) == 0 {
		t.Fatal("no chunks")
	}
	for _, c := range chunks {
		if len(c.Text) > max {
			t.Fatalf("chunk of %d bytes > %d: %q", len(c.Text), max, c.Text)
		}
		if !utf8.ValidString(c.Text) && utf8.ValidString(title+body) {
			t.Fatalf("chunk not valid UTF-8: %q", c.Text)
		}
		if c.Start < 0 || c.End > len(body) || c.Start > c.End {
			t.Fatalf("range [%d,%d) outside body of %d", c.Start, c.End, len(body))
		}
		if len(chunks) > 1 || c.End > c.Start {
			if !strings.HasSuffix(c.Text, body[c.Start:c.End]) {
				t.Fatalf("Text %q does not end with body[%d:%d] = %q", c.Text, c.Start, c.End, body[c.Start:c.End])
			}
		}
	}
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func TestChunksLongTitle(t *testing.T) {
	title := strings.Repeat("Long title ", 40)
	body := "# " + strings.Repeat("Heading ", 30) + "\nbody text here"
	got := Chunks(title, body, 100)
	checkChunks(t, title, body, 100, got)
	if !strings.HasSuffix(got[0].Text, "body text here") {
		t.Errorf("Text = %q", got[0].Text)
	}
}

func TestChunksRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	pieces := []string{"# Head\n", "## Sub\n", "```\n", "text ", "more words. ", "東京の旅行。", "é", "\n\n", "\n", "x", "  ", "#tag ", "😀"}
	for range 500 {
		var b strings.Builder
		for range r.IntN(200) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		max := 16 + r.IntN(200)
		body := b.String()
		checkChunks(t, "Title é", body, max, Chunks("Title é", body, max))
	}
}

func TestChunksCoverContent(t *testing.T) {
	// Every non-space character of the content outside heading lines
	// appears in exactly one chunk.
	body := "intro\n# A\n" + strings.Repeat("word ", 400) + "\n# B\nend"
	chunks := Chunks("T", body, 200)
	covered := make([]int, len(body))
	for _, c := range chunks {
		for i := c.Start; i < c.End; i++ {
			covered[i]++
		}
	}
	for i, n := range covered {
		ch := body[i]
		inHeading := strings.HasPrefix(body[strings.LastIndexByte(body[:i], '\n')+1:], "#")
		if ch != ' ' && ch != '\n' && !inHeading && n != 1 {
			t.Fatalf("byte %d (%q) covered %d times", i, ch, n)
		}
	}
}

// TestEachChunkText: EachChunkText gives the Text of each chunk Chunks
// gives, in order, for random bodies and titles (an empty one, and a
// note without content, included).
func TestEachChunkText(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	pieces := []string{"# Head\n", "## Sub\n", "```\n", "text ", "more words. ", "東京の旅行。", "é", "\n\n", "\n", "x", "  ", "#tag ", "😀"}
	titles := []string{"", "Title é", "  ", strings.Repeat("Long title ", 40)}
	for round := range 500 {
		var b strings.Builder
		for range r.IntN(200) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		body, title, max := b.String(), titles[round%len(titles)], r.IntN(300)
		var want []string
		for _, c := range Chunks(title, body, max) {
			want = append(want, c.Text)
		}
		var got []string
		n := EachChunkText(title, body, max, func(text string) { got = append(got, strings.Clone(text)) })
		if !slices.Equal(got, want) || n != len(want) {
			t.Fatalf("EachChunkText(%q, %q, %d) = %d %q, want %q", title, body, max, n, got, want)
		}
	}
}
