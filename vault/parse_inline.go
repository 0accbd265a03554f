package vault

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/wikilink"
)

type span struct{ start, end int }

// spanKey is the parser context's key of the spanTable that the inline
// parsers below fill in.
var spanKey = parser.NewContextKey()

// spanTable holds the byte range [start, end) of what the inline parsers
// below matched, relative to the parsed source, by the node they made.
// It sits beside the AST rather than in a node attribute: goldmark gives
// a node's first attribute a slice of room for ten, which was a fifth of
// the bytes a parse allocated.
type spanTable map[ast.Node]span

// putSpan records the span of n in pc's spanTable.
func putSpan(pc parser.Context, n ast.Node, s span) {
	t, _ := pc.Get(spanKey).(spanTable)
	if t == nil {
		t = spanTable{}
		pc.Set(spanKey, t)
	}
	t[n] = s
}

// newContext returns a parser context whose spanTable has room for
// links spans (none when links is 0: putSpan makes it if need be).
func newContext(links int) parser.Context {
	pc := parser.NewContext()
	if links > 0 {
		pc.Set(spanKey, make(spanTable, links))
	}
	return pc
}

// spansOf returns pc's spanTable (nil when none was made).
func spansOf(pc parser.Context) spanTable {
	t, _ := pc.Get(spanKey).(spanTable)
	return t
}

// wikilinkParser parses [[wikilinks]] and ![[embeds]] into the nodes of
// goldmark-wikilink, with the same rules (closed on the same line, alias
// after the first '|', neither target nor alias empty), and records where
// each starts and ends in the file. It remembers, for the line being
// parsed, where the next "]]" and '|' are, so that a line holding
// thousands of "[[" without a "]]" is scanned once, not once per "[[".
type wikilinkParser struct{}

var (
	_ parser.InlineParser = (*wikilinkParser)(nil)

	wikiScanKey = parser.NewContextKey()
)

func (p *wikilinkParser) Trigger() []byte { return []byte{'!', '['} }

func (p *wikilinkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	open := 0
	switch {
	case bytes.HasPrefix(line, []byte("[[")):
		open = 2
	case bytes.HasPrefix(line, []byte("![[")):
		open = 3
	default:
		return nil
	}
	if seg.Padding != 0 {
		return nil // cannot happen: the line starts with '[' or '!'
	}
	sc, _ := pc.Get(wikiScanKey).(*lineScan)
	if sc == nil {
		sc = &lineScan{}
		pc.Set(wikiScanKey, sc)
	}
	src := block.Source()
	start := seg.Start + open
	stop := sc.close.find(src, start, seg.Stop, wikiClose)
	if stop < 0 {
		return nil // must close on the same line
	}
	targetEnd, labelStart := stop, start
	if pipe := sc.pipe.find(src, start, seg.Stop, wikiPipe); pipe >= 0 && pipe < stop {
		targetEnd, labelStart = pipe, pipe+1
	}
	if targetEnd == start || labelStart == stop {
		return nil // target and label must not be empty
	}
	n := &wikilink.Node{Target: src[start:targetEnd], Embed: open == 3}
	if i := bytes.LastIndexByte(n.Target, '#'); i >= 0 {
		n.Target, n.Fragment = n.Target[:i], n.Target[i+1:]
	}
	n.AppendChild(n, ast.NewTextSegment(text.NewSegment(labelStart, stop)))
	putSpan(pc, n, span{seg.Start, stop + 2})
	block.Advance(stop + 2 - seg.Start)
	return n
}

// wikiClose and wikiPipe find the "]]" and the '|' of a wikilink.
func wikiClose(b []byte) int { return bytes.Index(b, []byte("]]")) }
func wikiPipe(b []byte) int  { return bytes.IndexByte(b, '|') }

// lineScan holds the last search for "]]" and for '|' of one parse.
type lineScan struct{ close, pipe nextIndex }

// nextIndex remembers where the next stop that index finds is in
// src[from:to]: at, or -1. Asked with growing offsets, a scan of a whole
// text stays linear.
type nextIndex struct {
	ok           bool
	from, to, at int
}

// find returns the offset of the first stop index finds in src[from:to],
// or -1, reusing the previous answer when it still holds.
func (n *nextIndex) find(src []byte, from, to int, index func([]byte) int) int {
	if n.ok && n.to == to && from >= n.from && (n.at < 0 || n.at >= from) {
		return n.at
	}
	at := -1
	if from <= to && to <= len(src) {
		if i := index(src[from:to]); i >= 0 {
			at = from + i
		}
	}
	*n = nextIndex{ok: true, from: from, to: to, at: at}
	return at
}

// linkParser wraps goldmark's own link parser to record where an inline
// markdown link ends; goldmark itself records where it starts (Pos).
type linkParser struct{ inner parser.InlineParser }

var (
	_ parser.InlineParser = (*linkParser)(nil)
	_ parser.CloseBlocker = (*linkParser)(nil)
)

func (p *linkParser) Trigger() []byte { return p.inner.Trigger() }

func (p *linkParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	_, before := block.PeekLine()
	n := p.inner.Parse(parent, block, pc)
	switch n.(type) {
	case *ast.Link, *ast.Image:
		_, after := block.PeekLine()
		// before.Start is the closing ']' of the link text.
		putSpan(pc, n, span{before.Start, after.Start})
	}
	return n
}

func (p *linkParser) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := p.inner.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// parseWikilinkInner splits the text between "[[" and "]]" into target,
// fragment and alias the way Obsidian does: the alias starts at the first
// '|' (written "\|" inside tables), the fragment at the first '#'.
func parseWikilinkInner(inner string) (target, fragment, alias string) {
	ref, alias, piped := strings.Cut(inner, "|")
	if piped {
		ref = strings.TrimSuffix(ref, `\`)
	}
	target, fragment, _ = strings.Cut(ref, "#")
	return target, fragment, alias
}

// markdownDestination finds the destination of an inline markdown link in
// src, given the offset of the ']' that closes the link text. It returns
// the destination's byte range, without angle brackets, and ok=false for a
// reference link, which has no inline destination.
func markdownDestination(src []byte, closeBracket int) (start, end int, ok bool) {
	i := closeBracket + 1
	if i >= len(src) || src[i] != '(' {
		return 0, 0, false
	}
	i++
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if i < len(src) && src[i] == '<' {
		j := bytes.IndexByte(src[i+1:], '>')
		if j < 0 {
			return 0, 0, false
		}
		return i + 1, i + 1 + j, true
	}
	return i, destinationEnd(src, i), true
}

// destinationEnd returns the offset where the markdown link destination
// that is not in angle brackets, read from offset i, ends: at a blank or
// at the ')' that balances its parentheses, backslash escapes aside.
func destinationEnd(src []byte, i int) int {
	for depth := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\' && i+1 < len(src):
			i++
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return i
			}
			depth--
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return i
		}
	}
	return len(src)
}

// isExternal reports whether a markdown link destination is a URL rather
// than a path in the vault: it has a scheme (https:, mailto:, obsidian:)
// or starts with "//".
func isExternal(dest string) bool {
	if strings.HasPrefix(dest, "//") {
		return true
	}
	colon := strings.IndexByte(dest, ':')
	if colon <= 0 {
		return false
	}
	for i, r := range dest[:colon] {
		isAlpha := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !isAlpha && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	// A single letter before ':' is a Windows drive, not a scheme.
	return colon > 1
}

// unescapeDestination resolves the backslash escapes and character
// references of a markdown link destination as CommonMark defines them.
func unescapeDestination(dest string) string {
	if !strings.ContainsAny(dest, "\\&") {
		return dest
	}
	b := util.ResolveNumericReferences(util.ResolveEntityNames([]byte(dest)))
	return string(util.UnescapePunctuations(b))
}

// decodeDestination percent-decodes a markdown link destination, keeping
// it as written when it is not valid percent-encoding.
func decodeDestination(dest string) string {
	if !strings.Contains(dest, "%") {
		return dest
	}
	d, err := url.PathUnescape(dest)
	if err != nil {
		return dest
	}
	return d
}

// plainText returns the text of an inline node's children (a code span's
// too: its children are text).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
