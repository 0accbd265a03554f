package vault

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// realisticNote returns a note of about size bytes written the way
// people write in Obsidian: frontmatter, headings, paragraphs with
// wikilinks, markdown links and tags, lists, a table, code and quotes.
func realisticNote(size int) []byte {
	var b bytes.Buffer
	b.WriteString("---\ntitle: Weekly Review\ntags: [review, work/weekly]\naliases: [Week Review]\n" +
		"created: 2024-06-03\nstatus: draft\npriority: 3\nrelated:\n  - \"[[Projects/Alpha Plan]]\"\n  - \"[[Beta]]\"\n---\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\n## Section %d\n\n", i)
		fmt.Fprintf(&b, "This week we looked at [[Project %d]] again and compared it with [[Archive/Project %d|the old plan]]. "+
			"The numbers in [the report](Reports/Report%%20%d.md#Summary) were better than expected, "+
			"so the team moved on to #planning/q%d and left notes in ![[diagram-%d.png]].\n\n", i, i-1, i, i%4+1, i)
		fmt.Fprintf(&b, "- [ ] follow up with [[People/Person %d]] about #followup\n"+
			"- [x] read [an article](https://example.com/articles/%d#part) on estimation\n"+
			"- see also [[Meeting %d#Decisions]] and [[Meeting %d#^dec-%d]]\n\n", i, i, i, i, i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "| Item | Owner | Link |\n| --- | --- | --- |\n| Budget | Ana | [[Budget %d\\|budget]] |\n| Hiring | Bo | [[Hiring]] |\n\n", i)
		}
		if i%4 == 0 {
			b.WriteString("```go\nfunc main() { fmt.Println(\"[[not a link]] #notatag\") }\n```\n\n")
		}
		if i%5 == 0 {
			fmt.Fprintf(&b, "> Quote of the week, from [[Book %d]]: *keep it simple*. #quotes\n\n", i)
		}
	}
	return b.Bytes()
}

func BenchmarkParse(b *testing.B) {
	var all []byte
	for _, src := range testVaultFiles(b) {
		all = append(all, src...)
		all = append(all, '\n')
	}
	tests := []struct {
		desc string
		give []byte
	}{
		{desc: "testvault", give: all},
		{desc: "note20KB", give: realisticNote(20 << 10)},
	}
	p := NewParser()
	for _, tt := range tests {
		b.Run(tt.desc, func(b *testing.B) {
			b.SetBytes(int64(len(tt.give)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse("Bench.md", tt.give); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRealisticNote keeps the benchmark note honest: it parses into the
// links and tags it was written with, with no warning but its repeated
// tags.
func TestRealisticNote(t *testing.T) {
	src := realisticNote(20 << 10)
	n := mustParse(t, "Bench.md", string(src))
	if len(src) < 20<<10 || len(src) > 22<<10 {
		t.Errorf("realisticNote(20 KB) is %d bytes", len(src))
	}
	for _, w := range n.Warnings {
		if !strings.HasPrefix(w, "duplicate tag ignored") {
			t.Errorf("realisticNote: warning %q", w)
		}
	}
	if len(n.Links) < 200 || len(n.Tags) < 5 || n.Title != "Weekly Review" {
		t.Errorf("realisticNote: %d links, tags %q, title %q", len(n.Links), n.Tags, n.Title)
	}
}
