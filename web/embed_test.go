package web_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/web"
)

// embedNotes are the notes the embed tests add to testvault.
var embedNotes = map[string]string{
	"Emb.md": "# Emb\n\n![[Whole]]\n\n![[Sections#Goals]]\n\n![[Sections#^blk]]\n\n![[Nowhere]]\n\n![[Sections#Nope]]\n\n" +
		"![[Evil Embed]]\n\n![[Diagram.png]]\n\nInline ![[Whole]] too.\n",
	"Whole.md":      "---\ntags: [whole]\n---\nWHOLE-TEXT with a link to [[Home]].\n",
	"Sections.md":   "# S\n\n## Goals\n\nGOAL-TEXT\n\n### Sub\n\nSUB-TEXT\n\n## Other\n\nOTHER-TEXT\n\nBlock BLOCK-TEXT ^blk\n\nAFTER-BLOCK\n",
	"Evil Embed.md": "<script>window.x=1</script>\n<img src=x onerror=alert(2)>\nEVIL-TEXT\n\n[a](javascript:alert(3)) <a href=\"javascript:alert(4)\">b</a>\n",
	"A.md":          "A-TEXT\n\n![[B]]\n",
	"B.md":          "B-TEXT\n\n![[A]]\n",
	"Self.md":       "SELF-TEXT\n\n![[Self]]\n\n![[#Part]]\n\n## Part\n\nPART-TEXT\n",
	"D1.md":         "D1-TEXT\n\n![[D2]]\n",
	"D2.md":         "D2-TEXT\n\n![[D3]]\n",
	"D3.md":         "D3-TEXT\n\n![[D4]]\n",
	"D4.md":         "D4-TEXT\n",
	"Places.md": "# Places ![[Whole]]\n\nBefore\n![[Sections#Goals]]\nAfter\n\n![[Whole]]\n![[Sections#^blk]]\n\n" +
		"- ![[Whole]]\n- an item with ![[Whole]] inside\n\n| cell |\n| --- |\n| ![[Whole]] |\n\nSee ![[Nowhere]] here.\n",
}

// embedPages returns a function that gives the rendered HTML of a note
// in a copy of testvault that also holds embedNotes.
func embedPages(t *testing.T) func(id string) string {
	t.Helper()
	e, srv, dir := open(t, web.Options{})
	for name, body := range embedNotes {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return func(id string) string {
		t.Helper()
		var n struct{ HTML string }
		if res := get(t, srv, "/api/note?id="+url.QueryEscape(id), &n); res.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/note?id=%s = %d", id, res.StatusCode)
		}
		return n.HTML
	}
}

func TestEmbeds(t *testing.T) {
	page := embedPages(t)
	emb := page("Emb")
	tests := []struct {
		desc string
		want []string // in the HTML
		not  []string // not in it
	}{
		{desc: "a whole note, in a frame with a link to it, rendered as a note (links, tags)",
			want: []string{`<div class="embed"><div class="embed-source"><a href="#/note/Whole.md"`, `>Whole</a></div><p>WHOLE-TEXT`, `href="#/note/Home.md"`},
			not:  []string{"tags: [whole]"}},
		{desc: "a heading: its section, down to the next heading of its level",
			want: []string{`>Sections › Goals</a>`, "GOAL-TEXT", "SUB-TEXT"}, not: []string{"OTHER-TEXT"}},
		{desc: "a block", want: []string{`>Sections › ^blk</a>`, "BLOCK-TEXT"}, not: []string{"AFTER-BLOCK"}},
		{desc: "a missing note: a broken embed",
			want: []string{`<div class="embed broken-embed"><a href="#/missing/Nowhere"`, `>Nowhere</a> <span class="muted">(no such note)</span></div>`}},
		{desc: "a missing heading: a broken embed linking the note",
			want: []string{`<div class="embed broken-embed"><a href="#/note/Sections.md"`, `>Sections#Nope</a> <span class="muted">(no such heading or block)`}},
		{desc: "an embedded note's script stays sanitised", want: []string{"EVIL-TEXT"},
			not: []string{"<script", "window.x", "onerror", `="javascript:`}},
		{desc: "an image embed stays an image", want: []string{`<img src="/api/file?note=Emb.md&amp;path=Diagram.png"`}},
		{desc: "an embed inside a line: a link marked as an embed, no frame inside the paragraph",
			want: []string{`<p>Inline <span class="embed-inline"><a href="#/note/Whole.md" rel="nofollow noreferrer">Whole</a></span> too.</p>`}},
		{desc: "no placeholder left", not: []string{"#/embed/"}},
	}
	for _, tt := range tests {
		checkHTML(t, tt.desc+": Emb's HTML", emb, tt.want, tt.not)
	}
}

// TestEmbedPlaces: an embed alone on its line shows in a frame (a block),
// splitting its paragraph around it; one inside a line of text, a
// heading or a table cell is an inline link marked as an embed: no block
// ever opens inside a paragraph or a heading, which a browser would close
// early.
func TestEmbedPlaces(t *testing.T) {
	got := embedPages(t)("Places")
	if bad := blockInPhrasing(got); bad != "" {
		t.Errorf("Places' HTML opens %s:\n%s", bad, got)
	}
	if n := strings.Count(got, `<div class="embed">`); n != 4 {
		t.Errorf("Places' HTML has %d frames, want 4 (the lines alone, in paragraphs and a list item):\n%s", n, got)
	}
	if n := strings.Count(got, `class="embed-inline`); n != 4 {
		t.Errorf("Places' HTML has %d inline embeds, want 4 (heading, list item text, table cell, missing note):\n%s", n, got)
	}
	checkHTML(t, "Places' HTML", got, []string{
		"<p>Before\n</p><div class=\"embed\"><div class=\"embed-source\"><a href=\"#/note/Sections.md\"",
		"</div><p>\nAfter</p>",
		"<li><div class=\"embed\">",
		`<span class="embed-inline broken-embed"><a href="#/missing/Nowhere" rel="nofollow noreferrer">Nowhere</a> <span class="muted">(no such note)</span></span> here.`,
	}, []string{"<p></p>", "#/embed/"})
}

// blockTagRE finds the opening and closing tags of paragraphs, headings
// and the blocks that may not open inside them.
var blockTagRE = regexp.MustCompile(`<(/?)(p|h[1-6]|div|ul|ol|table|blockquote|pre)[ >]`)

// blockInPhrasing returns the first block tag that opens inside a
// paragraph or a heading of html, with what it opens in, or "".
func blockInPhrasing(html string) string {
	open := ""
	for _, m := range blockTagRE.FindAllStringSubmatch(html, -1) {
		switch closing, tag := m[1] == "/", m[2]; {
		case closing && tag == open:
			open = ""
		case !closing && open != "":
			return "<" + tag + "> inside <" + open + ">"
		case !closing && (tag == "p" || tag[0] == 'h'):
			open = tag
		}
	}
	return ""
}

// checkHTML fails the test unless html holds every string of want and
// none of not.
func checkHTML(t *testing.T, what, html string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(html, w) {
			t.Errorf("%s lacks %s:\n%s", what, w, html)
		}
	}
	for _, w := range not {
		if strings.Contains(html, w) {
			t.Errorf("%s holds %s:\n%s", what, w, html)
		}
	}
}

func TestEmbedCyclesAndDepth(t *testing.T) {
	page := embedPages(t)
	tests := []struct {
		desc, note string
		frames     int
		want, not  []string
	}{
		{desc: "A embeds B embeds A: B shown, A inside it a link", note: "A", frames: 1,
			want: []string{"A-TEXT", "B-TEXT", `<a href="#/note/A.md" rel="nofollow noreferrer">A</a>`}},
		{desc: "a note embedding itself or its own heading: links", note: "Self", frames: 0,
			want: []string{"SELF-TEXT", "PART-TEXT"}},
		{desc: "two levels shown, the third a link", note: "D1", frames: 2,
			want: []string{"D2-TEXT", "D3-TEXT", `<a href="#/note/D4.md" rel="nofollow noreferrer">D4</a>`}, not: []string{"D4-TEXT"}},
	}
	for _, tt := range tests {
		got := page(tt.note)
		if n := strings.Count(got, `class="embed"`); n != tt.frames {
			t.Errorf("%s: %d frames, want %d:\n%s", tt.desc, n, tt.frames, got)
		}
		checkHTML(t, tt.desc+": HTML", got, tt.want, tt.not)
	}
}
