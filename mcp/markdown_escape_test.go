package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/toon"
	"github.com/vaultgraph/vaultgraph/internal/toon/toontest"
	"github.com/vaultgraph/vaultgraph/mcp"
)

// hostile are note names and frontmatter values that would change a
// Markdown answer's structure if written as they are.
var hostile = struct {
	names, titles, tags, aliases []string
	propKey, propValue, propItem string
}{
	names:     []string{"# Hub |x| <script> ```", "> Leaf\n- item [link](x) **b**", "1. Other * ~~s~~ _u_ ]("},
	titles:    []string{"Evil\n\n## Injected heading", "```\nfence\n| a | b |\n|---|---|", "<script>alert(1)</script> [l](x) **b** \\"},
	tags:      []string{"evil|tag", "a<b>", "x**y**", "t[l](x)", "a`b"},
	aliases:   []string{"Alias\n# H", "| cell |", "- item", "===", "<!-- c"},
	propKey:   "k|# x",
	propValue: "v\n---\n# heading\n> quote",
	propItem:  "1. item",
}

// benign is s with every character that is not a letter, digit or space
// replaced by x (newlines too): a value of the same length without
// Markdown.
func benign(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' {
			return r
		}
		return 'x'
	}, s)
}

// escapeVault writes a vault of three notes (0 links to 1, 1 and 2 to
// each other: a name with "#" cannot be a link's target) with the
// values of hostile, mapped through f, as names, titles, tags, aliases
// and properties.
func escapeVault(t *testing.T, f func(string) string) string {
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(f(s)); return string(b) }
	files := map[string]string{}
	for i, name := range hostile.names {
		next := url.PathEscape(f(hostile.names[[]int{1, 2, 1}[i]]))
		var tags, aliases []string
		for _, tag := range hostile.tags {
			tags = append(tags, q(tag))
		}
		for _, a := range hostile.aliases {
			aliases = append(aliases, q(a))
		}
		files[f(name)+".md"] = fmt.Sprintf("---\ntitle: %s\ntags: [%s]\naliases: [%s]\n%s: %s\nlist: [%s]\n---\n"+
			"Zebra note %d. It links to [the next](%s.md).\n",
			q(hostile.titles[i]), strings.Join(tags, ", "), strings.Join(aliases, ", "),
			q(hostile.propKey), q(hostile.propValue), q(hostile.propItem), i, next)
	}
	// A second note of Leaf's name (a duplicate name) and one whose
	// frontmatter does not parse (a problem): vault_status lists them.
	leaf := url.PathEscape(f(hostile.names[1]))
	files["Sub/"+f(hostile.names[1])+".md"] = "Zebra note 3. It links to [the next](../" + leaf + ".md).\n"
	files[f("Bad | <b> # x")+".md"] = "---\ntitle: \"unclosed\n---\nZebra note 4. It links to [the next](" + leaf + ".md).\n"
	return writeVault(t, files)
}

// escapeCalls are readCalls on escapeVault, and the write tools.
func escapeCalls(f func(string) string) []call {
	hub, leaf, other := f(hostile.names[0]), f(hostile.names[1]), f(hostile.names[2])
	calls := readCalls(hub+".md", other+".md", f(hostile.tags[0]), "zebra")
	writes := []call{
		{"create_node", "create_node", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.CreateNode(ctx, mcp.CreateNodeParams{Title: f("New * `x` ~~s~~ _u_ =="), Content: "Body.", Presentation: p})
		}},
		{"update_node", "update_node", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			title := f("Renamed * `x` ~~s~~ _u_ ==")
			return tl.UpdateNode(ctx, mcp.UpdateNodeParams{ID: leaf + ".md", Title: &title, DryRun: true, Presentation: p})
		}},
		{"delete_node", "delete_node", func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
			return tl.DeleteNode(ctx, mcp.DeleteNodeParams{ID: other + ".md", Presentation: p})
		}},
	}
	return append(calls, writes...)
}

// markdownShape is the structure of a Markdown text as goldmark (with
// GFM's tables, strikethrough and task lists) parses it: the tree of its
// nodes' kinds and heading levels, without the text itself. GFM's
// linkify is left out: it makes a bare URL or e-mail address in a value
// clickable, with its text as it is.
func markdownShape(md string) string { return shapeOf(md, false) }

// shapeOf is markdownShape, of the blocks only when blocks is set.
func shapeOf(md string, blocks bool) string {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser().Parse(text.NewReader(src))
	var b strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch {
		case n.Kind() == ast.KindText, n.Kind() == ast.KindString:
			return ast.WalkContinue, nil
		case blocks && n.Type() == ast.TypeInline:
			return ast.WalkSkipChildren, nil
		}
		if !entering {
			b.WriteString(")")
			return ast.WalkContinue, nil
		}
		b.WriteString(" (" + n.Kind().String())
		if h, ok := n.(*ast.Heading); ok {
			fmt.Fprintf(&b, "%d", h.Level)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// TestMarkdownCannotBeForged: note names, titles, tags, aliases and
// property values full of Markdown (newlines, headings, fences, tables,
// HTML, links) leave every Markdown answer, of every read tool at each
// detail and of the write tools, with the structure it has for plain
// values.
func TestMarkdownCannotBeForged(t *testing.T) {
	bad := openTools(t, escapeVault(t, func(s string) string { return s }))
	good := openTools(t, escapeVault(t, benign))
	badCalls, goodCalls := escapeCalls(func(s string) string { return s }), escapeCalls(benign)
	// The reads at each detail, then the writes (each runs once).
	for _, detail := range mcp.Details.Values {
		for i := range badCalls {
			if badCalls[i].tool == "create_node" || badCalls[i].tool == "update_node" || badCalls[i].tool == "delete_node" {
				continue
			}
			compareShapes(t, bad, good, badCalls[i], goodCalls[i], detail)
		}
	}
	for i := len(badCalls) - 3; i < len(badCalls); i++ {
		compareShapes(t, bad, good, badCalls[i], goodCalls[i], mcp.DetailStandard)
	}
}

// compareShapes renders the hostile call bc and the plain call gc in
// Markdown at detail and reports when their structures differ.
func compareShapes(t *testing.T, bad, good *mcp.Tools, bc, gc call, detail string) {
	t.Helper()
	p := mcp.Presentation{Format: mcp.FormatMarkdown, Detail: detail}
	if bc.tool == "vault_status" {
		p.Fields = []string{"notes", "links", "tags", "problems", "duplicateNames"}
	}
	got, want := renderRaw(t, bad, bc, p), renderRaw(t, good, gc, p)
	if gs, ws := markdownShape(got), markdownShape(want); gs != ws {
		t.Errorf("%s (%s): the Markdown answer's structure\n%s\nwith hostile values, want\n%s\n\nanswer:\n%s\n\nplain answer:\n%s",
			bc.name, detail, gs, ws, got, want)
	}
}

// renderRaw runs c and renders its answer as p says (as render does,
// without its vault_status fields).
func renderRaw(t *testing.T, tl *mcp.Tools, c call, p mcp.Presentation) string {
	t.Helper()
	v, err := c.run(context.Background(), tl, p)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	s, err := mcp.Render(c.tool, v, p)
	if err != nil {
		t.Fatalf("%s: Render = %v", c.name, err)
	}
	return s
}

// TestTOONAndJSONCarryHostileValues: TOON and JSON answers are safe
// through their encoders: a value with newlines, quotes, a colon, a
// comma, a leading "-" and "|" decodes to itself.
func TestTOONAndJSONCarryHostileValues(t *testing.T) {
	title := "- Evil: \"q\", a|b\n\n## Injected\t#x"
	tl := openTools(t, writeVault(t, map[string]string{
		"Evil.md": "---\ntitle: " + mustJSON(title) + "\ntags: [\"a|b\", \"c,d\"]\n---\nZebra body.\n",
	}))
	c := escapeCalls(func(s string) string { return s })[0] // get_node
	c.run = func(ctx context.Context, tl *mcp.Tools, p mcp.Presentation) (any, error) {
		return tl.GetNode(ctx, mcp.GetNodeParams{ID: "Evil.md", Presentation: p})
	}
	for _, format := range []string{mcp.FormatTOON, mcp.FormatJSON} {
		s := renderRaw(t, tl, c, mcp.Presentation{Format: format})
		var v any
		var err error
		if format == mcp.FormatTOON {
			v, err = toontest.Decode(s, toontest.DecodeOptions{})
		} else {
			err = json.Unmarshal([]byte(s), &v)
		}
		if err != nil {
			t.Fatalf("%s answer does not decode: %v\n%s", format, err, s)
		}
		m, _ := v.(map[string]any)
		if m == nil {
			if o, ok := v.(toon.Object); ok {
				m = map[string]any{}
				for _, f := range o {
					m[f.Key] = f.Value
				}
			}
		}
		if got := m["title"]; !reflect.DeepEqual(got, title) {
			t.Errorf("%s answer title = %q, want %q\n%s", format, got, title, s)
		}
	}
}

func mustJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestMarkdownNoteFenceClosed: a note's content is written as it is, but
// a code fence it leaves open is closed, so that the neighbours and the
// footer after it stay outside the code block.
func TestMarkdownNoteFenceClosed(t *testing.T) {
	tl := openTools(t, writeVault(t, map[string]string{
		"Open.md":  "See [[B]].\n\n````go\ncode\n```\n",
		"Tilde.md": "See [[B]].\n\n  ~~~\ncode ~~~\n",
		"Shut.md":  "See [[B]].\n\n```\ncode\n```\n",
		"B.md":     "B body.\n",
	}))
	for _, id := range []string{"Open", "Tilde", "Shut"} {
		v, err := tl.GetNode(context.Background(), mcp.GetNodeParams{ID: id, Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := mcp.Render("get_node", v, mcp.Presentation{Format: mcp.FormatMarkdown})
		if err != nil {
			t.Fatal(err)
		}
		if shape := markdownShape(got); !strings.Contains(shape, "(FencedCodeBlock) (Heading2)") {
			t.Errorf("get_node %s (markdown) structure %s, want the code block closed before the neighbours:\n%s", id, shape, got)
		}
	}
}

// FuzzMarkdownAnswer: whatever text a note's title, id, tags, aliases,
// properties, warnings and snippet hold, a Markdown answer of get_node
// (with a neighbour) and of search has the structure it has for a plain
// word; the snippet may only add inline Markdown.
func FuzzMarkdownAnswer(f *testing.F) {
	for _, s := range append(append([]string{"x", "Evil\n\n## Injected", "- a", "1) b", "[ ] c", "<div>", "***", "a\\", "  ~~~ x", "Te\xff\\|_", "Te\xff"},
		hostile.names...), hostile.titles...) {
		f.Add(s, "**bold** [l](x) `c` "+s)
	}
	f.Fuzz(func(t *testing.T, text, snippet string) {
		if !utf8.ValidString(text) || !utf8.ValidString(snippet) {
			// Never a panic; the structure is checked on valid text.
			renderFuzzed(t, "get_node", text, snippet)
			renderFuzzed(t, "search", text, snippet)
			return
		}
		if strings.TrimFunc(text, isSpaceOrControl) == "" {
			return
		}
		for _, c := range []struct {
			blocks        bool
			text, snippet string
		}{{false, text, "plain words"}, {true, text, snippet}} {
			for _, tool := range []string{"get_node", "search"} {
				got := renderFuzzed(t, tool, c.text, c.snippet)
				want := renderFuzzed(t, tool, "x", "plain words")
				if gs, ws := shapeOf(got, c.blocks), shapeOf(want, c.blocks); gs != ws {
					t.Fatalf("%s with %q, snippet %q: structure\n%s\nwant\n%s\n\n%s", tool, c.text, c.snippet, gs, ws, got)
				}
			}
		}
	})
}

func isSpaceOrControl(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// renderFuzzed renders, at full detail in Markdown, a get_node answer (a
// note with a neighbour) or a search answer whose text values are text
// and whose snippets and neighbour content are snippet.
func renderFuzzed(t *testing.T, tool, text, snippet string) string {
	t.Helper()
	score, one := 0.5, 1
	body := "Body."
	n := mcp.NodeResponse{ID: text + ".md", Title: text, Tags: []string{text, "b"}, Aliases: []string{text},
		Properties: mcp.Properties{{Key: text, Value: text}, {Key: "list", Value: []any{text, text}}},
		Created:    "2024-01-01", Hash: "abc", Size: 1, Warnings: []string{text}}
	var v any
	if tool == "get_node" {
		nb := n
		nb.Direction, nb.Content, nb.Warnings = "out", &snippet, nil
		n.Content, n.IncomingCount, n.OutgoingCount = &body, &one, &one
		n.Links = []vaultgraph.LinkInfo{{ID: text + ".md", Title: text}}
		n.BrokenLinks, n.Attachments = []string{text}, []string{text}
		n.Neighbors = []mcp.NodeResponse{nb, nb}
		v = &n
	} else {
		n.Score, n.Snippet = &score, snippet
		v = &mcp.ListResponse{Nodes: []mcp.NodeResponse{n, n}, PageInfo: mcp.PageInfo{Total: 4, Page: 1, TotalPages: 2, Hint: "page 2: " + text}, Warnings: []string{text}}
	}
	s, err := mcp.Render(tool, v, mcp.Presentation{Format: mcp.FormatMarkdown, Detail: mcp.DetailFull})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
