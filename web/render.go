package web

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	htmlrender "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/hashtag"
	"go.abhg.dev/goldmark/wikilink"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// The in-app addresses links are rewritten to (the page routes on the
// part after '#').
const (
	notePrefix    = "#/note/"
	missingPrefix = "#/missing/"
	tagPrefix     = "#/tag/"
	filePath      = "/api/file"
)

// sanitizer is the one policy every piece of note HTML passes through:
// user-generated content rules (no script, handler, style, javascript: or
// data: URL), links to other sites in a new tab without a referrer.
var sanitizer = newSanitizer()

func newSanitizer() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[a-z0-9 -]+$`)).OnElements("a", "code", "span", "div")
	p.AllowAttrs("type", "checked", "disabled").OnElements("input")
	p.AllowElements("input", "mark", "details", "summary")
	return p
}

// Sanitize returns html without anything that could run or load from elsewhere.
func Sanitize(html string) string { return sanitizer.Sanitize(html) }

// linkTable maps the targets a note writes to what the engine resolved
// them to, so that rendering links the same notes the graph links.
type linkTable struct {
	id    string
	links map[string]vaultgraph.NoteLink // by linkKey(kind group, target)
	tags  map[string]bool                // the note's tags, lower case
	// embed, when set, gives the address of an embed ("![[...]]") or ""
	// to treat it as any link (page.render).
	embed func(*wikilink.Node) string
}

func linkKey(markdown bool, target string) string {
	k := "w:"
	if markdown {
		k = "m:"
	}
	return k + vault.Fold(strings.TrimSpace(target))
}

func newLinkTable(id string, links []vaultgraph.NoteLink, tags []string) *linkTable {
	t := &linkTable{id: id, links: make(map[string]vaultgraph.NoteLink, len(links)), tags: map[string]bool{}}
	for _, tag := range tags {
		t.tags[strings.ToLower(tag)] = true
	}
	for _, l := range links {
		k := linkKey(l.Kind.Markdown(), l.Target)
		if _, ok := t.links[k]; !ok {
			t.links[k] = l
		}
	}
	return t
}

// dest is the in-app address of a link to target ("" for the note itself).
func (t *linkTable) dest(markdown bool, target string) string {
	l, ok := t.links[linkKey(markdown, target)]
	switch {
	case !ok && strings.TrimSpace(target) == "":
		return ""
	case ok && l.Status == vault.Resolved:
		return noteHref(l.ID)
	case ok && l.Status == vault.Attachment && l.File != "":
		return filePath + "?" + url.Values{"note": {t.id}, "path": {l.File}}.Encode()
	case !ok, l.Status == vault.Attachment, l.Status == vault.Broken:
		return missingPrefix + url.PathEscape(target)
	}
	return ""
}

// noteHref is the in-app address of note id.
func noteHref(id string) string { return notePrefix + url.PathEscape(id) }

// ResolveWikilink implements wikilink.Resolver.
func (t *linkTable) ResolveWikilink(n *wikilink.Node) ([]byte, error) {
	if n.Embed && t.embed != nil {
		if d := t.embed(n); d != "" {
			return []byte(d), nil
		}
	}
	return []byte(t.dest(false, string(n.Target))), nil
}

// ResolveHashtag implements hashtag.Resolver: a tag of the note links to
// its page; what the engine did not read as a tag stays text.
func (t *linkTable) ResolveHashtag(n *hashtag.Node) ([]byte, error) {
	tag := vault.Fold(string(n.Tag))
	if !t.tags[tag] {
		return nil, nil
	}
	return []byte(tagPrefix + url.PathEscape(tag)), nil
}

// Transform implements parser.ASTTransformer: links get in-app addresses.
func (t *linkTable) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.Link:
			x.Destination = t.localDest(x.Destination)
		case *ast.Image:
			x.Destination = t.localDest(x.Destination)
		}
		return ast.WalkContinue, nil
	})
}

var schemeRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

func (t *linkTable) localDest(d []byte) []byte {
	s := string(d)
	if schemeRE.MatchString(s) || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "//") {
		return d // another site, or a heading here: the sanitiser judges it
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	return []byte(t.dest(true, s))
}

var (
	_ wikilink.Resolver     = (*linkTable)(nil)
	_ hashtag.Resolver      = (*linkTable)(nil)
	_ parser.ASTTransformer = (*linkTable)(nil)
)

// render renders body to sanitised HTML with the links of t.
func render(t *linkTable, body string) (string, error) {
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Footnote,
			&wikilink.Extender{Resolver: t},
			&hashtag.Extender{Resolver: t, Variant: hashtag.ObsidianVariant}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(t, 100))),
		goldmark.WithRendererOptions(htmlrender.WithUnsafe()),
	)
	var buf bytes.Buffer
	if err := md.Convert([]byte(body), &buf); err != nil {
		return "", fmt.Errorf("render %s: %w", t.id, err)
	}
	return Sanitize(buf.String()), nil
}

var boldRE = regexp.MustCompile(`\*\*(.+?)\*\*`)

// SnippetHTML turns a search snippet (text with the matched words in
// **bold**) into HTML: everything escaped, the matches in <mark>.
func SnippetHTML(s string) string {
	return boldRE.ReplaceAllString(html.EscapeString(s), "<mark>$1</mark>")
}
