package web

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"go.abhg.dev/goldmark/wikilink"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// An embed of a note ("![[Note]]", "![[Note#Heading]]", "![[Note#^block]]")
// shows that note or part in a frame, rendered and sanitised as a note is;
// an embed of another file stays what the wikilink renderer makes of it.
const (
	// maxEmbedDepth is how deep embeds show; a deeper one is a link.
	maxEmbedDepth = 2
	// maxEmbeds bounds the embeds one page shows; later ones are links.
	maxEmbeds = 50
)

// noteSource is what rendering a page with its embeds reads of the engine.
type noteSource interface {
	NoteLinks(ctx context.Context, id string) ([]vaultgraph.NoteLink, string, error)
	GetNode(ctx context.Context, id string, withContent bool) (*vaultgraph.Node, error)
	Section(ctx context.Context, id, fragment string) (string, error)
}

var _ noteSource = (*vaultgraph.Engine)(nil)

// page renders one note page and the notes it embeds.
type page struct {
	ctx    context.Context
	src    noteSource
	embeds int // embeds shown so far
}

// embedRef is an embed met while rendering.
type embedRef struct {
	target   string // as written
	fragment string
	id       string // the note it finds; "" when broken
	place    embedPlace
}

// embedPlace is where an embed stands, which decides how it shows: a
// frame where it stands alone on its line of a paragraph or a list item,
// else an inline link marked as an embed (HTML allows no block inside a
// paragraph or a heading, and a frame would break a table's row).
type embedPlace int

const (
	inLine      embedPlace = iota // inside a line of text: an inline link
	aloneInPara                   // alone on its line of a paragraph: the paragraph is split around its frame
	aloneBlock                    // alone on its line of a tight list item: its frame
)

// placeOf tells where the embed n stands in its document.
func placeOf(n *wikilink.Node) embedPlace {
	lineEnd := func(s ast.Node) bool {
		t, ok := s.(*ast.Text)
		return ok && (t.SoftLineBreak() || t.HardLineBreak())
	}
	prev, next := n.PreviousSibling(), n.NextSibling()
	if prev != nil && !lineEnd(prev) {
		return inLine
	}
	if t, ok := next.(*ast.Text); next != nil && (!ok || !lineEnd(t) || t.Segment.Len() > 0) {
		return inLine
	}
	switch n.Parent().(type) {
	case *ast.Paragraph:
		return aloneInPara
	case *ast.TextBlock:
		return aloneBlock
	}
	return inLine
}

// renderPage renders note id's body with its embeds of notes in frames.
func renderPage(ctx context.Context, src noteSource, id, body string, links []vaultgraph.NoteLink, tags []string) (string, error) {
	p := &page{ctx: ctx, src: src}
	return p.render(id, body, newLinkTable(id, links, tags), nil)
}

// render renders body, of note id, with t; chain holds the notes whose
// embeds hold it (outermost first). Each embed the wikilink renderer meets
// becomes a link to a placeholder address (#/embed/NONCE/N), which the
// rendered, sanitised HTML then has replaced by its frame: a note cannot
// write a placeholder, as it cannot know the nonce.
func (p *page) render(id, body string, t *linkTable, chain []string) (string, error) {
	nonce := rand.Text()
	chain = append(slices.Clip(chain), id)
	var refs []embedRef
	t.embed = func(n *wikilink.Node) string {
		target := string(n.Target)
		if strings.TrimSpace(target) == "" || len(chain) > maxEmbedDepth || p.embeds >= maxEmbeds {
			return ""
		}
		ref := embedRef{target: target, fragment: string(n.Fragment), place: placeOf(n)}
		l, ok := t.links[linkKey(false, target)]
		switch {
		case ok && l.Status == vault.Resolved && vault.HasMD(l.ID): // a canvas shows as a link
			if slices.Contains(chain, l.ID) {
				return "" // a cycle: the link only
			}
			ref.id = l.ID
		case !ok || l.Status == vault.Broken:
		default:
			return "" // an image, another file, the note itself
		}
		p.embeds++
		refs = append(refs, ref)
		return fmt.Sprintf("#/embed/%s/%d", nonce, len(refs)-1)
	}
	out, err := render(t, body)
	if err != nil || len(refs) == 0 {
		return out, err
	}
	frames := make([]string, len(refs))
	for i, ref := range refs {
		if frames[i], err = p.frame(ref, chain); err != nil {
			return "", err
		}
		if ref.place == aloneInPara {
			frames[i] = "</p>" + frames[i] + "<p>"
		}
	}
	re := regexp.MustCompile(`(?s)<a href="#/embed/` + nonce + `/(\d+)"[^>]*>.*?</a>`)
	out = re.ReplaceAllStringFunc(out, func(m string) string {
		i, _ := strconv.Atoi(re.FindStringSubmatch(m)[1])
		return frames[i]
	})
	// A paragraph split around a frame may leave an empty one before or
	// after it.
	return Sanitize(emptyParaRE.ReplaceAllString(out, "")), nil
}

var emptyParaRE = regexp.MustCompile(`<p>\s*</p>`)

// frame renders the frame of one embed: the embedded note or part with a
// link to it, or a broken embed (inLine: a link marked as an embed).
func (p *page) frame(ref embedRef, chain []string) (string, error) {
	name := ref.target
	if ref.fragment != "" {
		name += "#" + ref.fragment
	}
	if ref.id == "" {
		return brokenEmbed(missingPrefix+url.PathEscape(ref.target), name, "no such note", ref.place), nil
	}
	n, err := p.src.GetNode(p.ctx, ref.id, false)
	if err != nil {
		return "", fmt.Errorf("embed %s: %w", ref.id, err)
	}
	body, err := p.src.Section(p.ctx, ref.id, ref.fragment)
	if n == nil || errors.Is(err, vaultgraph.ErrNotFound) {
		return brokenEmbed(noteHref(ref.id), name, "no such heading or block", ref.place), nil
	}
	if err != nil {
		return "", fmt.Errorf("embed %s: %w", name, err)
	}
	title := n.Title
	if ref.fragment != "" {
		title += " › " + strings.TrimPrefix(strings.TrimSpace(ref.fragment), "#")
	}
	source := fmt.Sprintf(`<a href="%s">%s</a>`, html.EscapeString(noteHref(ref.id)), html.EscapeString(title))
	if ref.place == inLine {
		return `<span class="embed-inline">` + source + `</span>`, nil
	}
	links, _, err := p.src.NoteLinks(p.ctx, ref.id)
	if err != nil {
		return "", fmt.Errorf("embed %s: %w", ref.id, err)
	}
	inner, err := p.render(ref.id, body, newLinkTable(ref.id, links, n.Tags), chain)
	if err != nil {
		return "", err
	}
	return `<div class="embed"><div class="embed-source">` + source + `</div>` + inner + `</div>`, nil
}

// brokenEmbed is the frame of an embed that finds nothing.
func brokenEmbed(href, name, why string, place embedPlace) string {
	tag, class := "div", "embed broken-embed"
	if place == inLine {
		tag, class = "span", "embed-inline broken-embed"
	}
	return fmt.Sprintf(`<%s class="%s"><a href="%s">%s</a> <span class="muted">(%s)</span></%s>`,
		tag, class, html.EscapeString(href), html.EscapeString(name), why, tag)
}
