package vault

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/hashtag"
	"go.abhg.dev/goldmark/wikilink"
)

// collector gathers a note's links and tags from the goldmark AST and the
// frontmatter. Offsets from the parser are relative to src[off:].
type collector struct {
	src   []byte
	off   int
	lines lineIndex
	note  *Note
	spans spanTable // the links' spans (parseMarkdown)

	// defs, when set (ParseForRewrite), holds the destination range of
	// each link reference definition by normalised label.
	defs map[string]span

	title   string
	tagSeen map[string]int // 1: the tag was added; 2: a duplicate was met too
	dupTags []string       // the first duplicate of each tag
}

func (c *collector) walk(doc ast.Node) {
	body := c.src[c.off:]
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *wikilink.Node:
			c.wikilink(x)
		case *ast.Link:
			c.markdownLink(x, KindMarkdown, string(x.Destination), x.Reference, body)
		case *ast.Image:
			c.markdownLink(x, KindImage, string(x.Destination), x.Reference, body)
		case *hashtag.Node:
			c.addTag(string(x.Tag))
		case *ast.Heading:
			c.heading(x)
		case *ast.Paragraph, *ast.TextBlock:
			c.blockID(n)
		}
		return ast.WalkContinue, nil
	})
}

func (c *collector) wikilink(n *wikilink.Node) {
	sp, ok := c.spans[n]
	if !ok {
		return
	}
	start, end := c.off+sp.start, c.off+sp.end
	raw := string(c.src[start:end])
	kind, open := KindWiki, 2
	if strings.HasPrefix(raw, "!") {
		kind, open = KindEmbed, 3
	}
	if len(raw) < open+2 {
		return
	}
	c.addWikilink(kind, raw[open:len(raw)-2], start, start+open, "")
}

// addWikilink records a wikilink whose inner text (between the brackets)
// starts at innerStart and whose whole text starts at start.
func (c *collector) addWikilink(kind LinkKind, inner string, start, innerStart int, property string) {
	c.addMappedWikilink(kind, inner, start, func(i int) int { return innerStart + i }, property)
}

// addMappedWikilink records a wikilink whose inner text is inner (as
// decoded) and whose whole text starts at start; at maps an offset into
// inner+"]]" to the offset in the file where the text of that byte
// starts.
func (c *collector) addMappedWikilink(kind LinkKind, inner string, start int, at func(int) int, property string) {
	target, fragment, alias := parseWikilinkInner(inner)
	c.note.Links = append(c.note.Links, Link{
		Kind:        kind,
		Target:      cleanTarget(target),
		Fragment:    validUTF8(fragment),
		Alias:       validUTF8(alias),
		Property:    property,
		Start:       start,
		End:         at(len(inner) + 2),
		TargetStart: at(0),
		TargetEnd:   at(len(target)),
		Line:        c.lines.line(start),
	})
}

func (c *collector) markdownLink(n ast.Node, kind LinkKind, dest string, ref *ast.ReferenceLink, body []byte) {
	sp, ok := c.spans[n]
	pos := n.Pos()
	if !ok || pos < 0 || dest == "" || isExternal(dest) {
		return
	}
	l := Link{
		Kind:        kind,
		Alias:       validUTF8(plainText(n, body)),
		Start:       c.off + pos,
		End:         c.off + sp.end,
		TargetStart: -1,
		TargetEnd:   -1,
		Line:        c.lines.line(c.off + pos),
	}
	// A reference link has no destination of its own to point at, even
	// when a '(' follows it: "[ref](" that never closes is a shortcut
	// reference link.
	if ds, de, inline := markdownDestination(c.src[c.off:], sp.start); inline && ref == nil && de <= sp.end {
		l.TargetStart, l.TargetEnd = c.off+ds, c.off+de
	} else if ref != nil && c.defs != nil {
		// ParseForRewrite: the destination of the definition it uses.
		if d, ok := c.defs[util.ToLinkReference(ref.Value)]; ok {
			l.TargetStart, l.TargetEnd = c.off+d.start, c.off+d.end
		}
	}
	if l.TargetStart >= 0 {
		if h := bytes.IndexByte(c.src[l.TargetStart:l.TargetEnd], '#'); h >= 0 {
			l.TargetEnd = l.TargetStart + h
		}
	}
	l.Target, l.Fragment = splitDestination(dest)
	c.note.Links = append(c.note.Links, l)
}

// splitDestination reads a markdown link's destination: its target,
// cleaned, and its fragment (after '#'). Backslash escapes and entities
// mean what CommonMark says ("a\_b.md" is "a_b.md"); goldmark leaves them
// for its renderer to resolve.
func splitDestination(dest string) (target, fragment string) {
	target, fragment, _ = strings.Cut(decodeDestination(unescapeDestination(dest)), "#")
	return cleanTarget(target), validUTF8(fragment)
}

// validUTF8 replaces invalid UTF-8 in s with U+FFFD.
func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// cleanTarget trims and NFC-normalises a link target and replaces invalid
// UTF-8, so that it can be compared with note names.
func cleanTarget(t string) string {
	return NFC(validUTF8(strings.TrimSpace(t)))
}

func (c *collector) addTag(raw string) {
	tag := NormalizeTag(raw)
	if tag == "" {
		return
	}
	key := strings.ToLower(tag)
	if c.tagSeen == nil {
		c.tagSeen = map[string]int{}
	}
	switch c.tagSeen[key] {
	case 0:
		c.note.Tags = append(c.note.Tags, tag)
		c.tagSeen[key] = 1
	case 1:
		c.dupTags = append(c.dupTags, tag)
		c.tagSeen[key] = 2
	}
}

// finish sets the title and sorts links into file order.
func (c *collector) finish() {
	n := c.note
	n.Title = c.title
	if n.Title == "" {
		n.Title = BaseName(n.ID)
	}
	sort.SliceStable(n.Links, func(i, j int) bool { return n.Links[i].Start < n.Links[j].Start })
	switch {
	case len(n.Links) == 0:
		n.Links = nil // a note without links has none, not an empty list
	case cap(n.Links) > len(n.Links):
		// The note is kept as long as the engine runs: the room append
		// left was a fifth of the links' memory.
		n.Links = slices.Clone(n.Links)
	}
	if cap(n.Tags) > len(n.Tags) {
		n.Tags = slices.Clone(n.Tags) // the same for the tags
	}
	for _, t := range c.dupTags {
		n.Warnings = append(n.Warnings, fmt.Sprintf("duplicate tag ignored: %s", t))
	}
}
