package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.abhg.dev/goldmark/wikilink"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// An embed of a note ("![[Note]]", "![[Note#Heading]]", "![[Note#^block]]")
// shows that note, or that part of it, in a frame inside the note page,
// rendered and sanitised as a note is. An embed of an image or another
// file stays what the wikilink renderer makes of it (an image, a link).
const (
	// maxEmbedDepth is how deep embeds show: a note's embeds, and their
	// own embeds; an embed deeper than that is a link.
	maxEmbedDepth = 2
	// maxEmbeds bounds the embeds one page shows; the ones after are
	// links.
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

// embedRef is an embed met while rendering, shown in place of its
// placeholder link.
type embedRef struct {
	target   string // as written
	fragment string
	id       string // the note it finds; "" when broken
}

// renderPage renders note id's body as RenderNote does, with its embeds of
// notes shown in frames.
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
	nonce := newNonce()
	chain = append(slices.Clip(chain), id)
	var refs []embedRef
	t.embed = func(n *wikilink.Node) string {
		target := string(n.Target)
		if strings.TrimSpace(target) == "" || len(chain) > maxEmbedDepth || p.embeds >= maxEmbeds {
			return ""
		}
		ref := embedRef{target: target, fragment: string(n.Fragment)}
		l, ok := t.links[linkKey(false, target)]
		switch {
		case ok && l.Status == vault.Resolved && isNoteID(l.ID):
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
	}
	// A placeholder alone in its paragraph takes the paragraph's place.
	re := regexp.MustCompile(`(?s)(<p>)?<a href="#/embed/` + nonce + `/(\d+)"[^>]*>.*?</a>(</p>)?`)
	out = re.ReplaceAllStringFunc(out, func(m string) string {
		sub := re.FindStringSubmatch(m)
		i, _ := strconv.Atoi(sub[2])
		if sub[1] != "" && sub[3] != "" {
			return frames[i]
		}
		return sub[1] + frames[i] + sub[3]
	})
	return Sanitize(out), nil
}

// frame renders the frame of one embed: the embedded note or part with a
// link to it, or a broken embed.
func (p *page) frame(ref embedRef, chain []string) (string, error) {
	name := ref.target
	if ref.fragment != "" {
		name += "#" + ref.fragment
	}
	if ref.id == "" {
		return brokenEmbed(missingPrefix+url.PathEscape(ref.target), name, "no such note"), nil
	}
	n, err := p.src.GetNode(p.ctx, ref.id, false)
	if err != nil {
		return "", fmt.Errorf("embed %s: %w", ref.id, err)
	}
	body, err := p.src.Section(p.ctx, ref.id, ref.fragment)
	if n == nil || errors.Is(err, vaultgraph.ErrNotFound) {
		return brokenEmbed(NoteHref(ref.id), name, "no such heading or block"), nil
	}
	if err != nil {
		return "", fmt.Errorf("embed %s: %w", name, err)
	}
	links, _, err := p.src.NoteLinks(p.ctx, ref.id)
	if err != nil {
		return "", fmt.Errorf("embed %s: %w", ref.id, err)
	}
	inner, err := p.render(ref.id, body, newLinkTable(ref.id, links, n.Tags), chain)
	if err != nil {
		return "", err
	}
	title := n.Title
	if ref.fragment != "" {
		title += " › " + strings.TrimPrefix(strings.TrimSpace(ref.fragment), "#")
	}
	return fmt.Sprintf(`<div class="embed"><div class="embed-source"><a href="%s">%s</a></div>%s</div>`,
		html.EscapeString(NoteHref(ref.id)), html.EscapeString(title), inner), nil
}

// brokenEmbed is the frame of an embed that finds nothing.
func brokenEmbed(href, name, why string) string {
	return fmt.Sprintf(`<div class="embed broken-embed"><a href="%s">%s</a> <span class="muted">(%s)</span></div>`,
		html.EscapeString(href), html.EscapeString(name), why)
}

// isNoteID reports whether id is a markdown note (a canvas shows as a
// link).
func isNoteID(id string) bool { return strings.HasSuffix(strings.ToLower(id), ".md") }

func newNonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
