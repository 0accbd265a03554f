package store

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The match expressions Keyword writes (Term.expr, matchExpr), read back
// as a tree, so that a search can be ranked in Go from the index's own
// postings (search_topk.go) when every phrase of it is one plain token.

// ftsColumnBits is the set of every full-text column (ftsColumns).
const ftsColumnBits = 1<<len(ftsColumns) - 1

// titleColumnBits are the columns of the title expression ({title
// cjktitle}, see rank).
const titleColumnBits = 1<<0 | 1<<2

// matchPhrase is a phrase of a match expression: one token, matched as
// itself or, with prefix, as the start of a token, in the columns of cols
// (bits in ftsColumns order).
type matchPhrase struct {
	token  string
	prefix bool
	cols   uint8
}

// matchNode is a match expression: a phrase (the index of it in the
// expression's phrases, in the order FTS5 numbers them), or the AND or
// OR of its kids.
type matchNode struct {
	phrase int
	and    bool
	kids   []*matchNode
}

// match reports whether a row matches the node: flags are the row's,
// per phrase (tableHits), and flag the one a phrase must have.
func (n *matchNode) match(flags []uint8, flag uint8) bool {
	if n.kids == nil {
		return flags[n.phrase]&flag != 0
	}
	for _, k := range n.kids {
		if k.match(flags, flag) != n.and {
			return !n.and
		}
	}
	return n.and
}

// matchParser reads a match expression of the forms Term.expr writes:
// "quoted" phrases, a * after one, {col ...} : before a phrase or a
// bracketed group, AND, OR and brackets. ok is cleared by anything else,
// and by a phrase that is not one plain token (ASCII letters and
// digits, which unicode61 keeps as they are but for letter case).
type matchParser struct {
	s       string
	phrases []matchPhrase
	ok      bool
}

// parseMatch adds the phrases of expr to p and returns its tree.
func (p *matchParser) parse(expr string) *matchNode {
	p.s, p.ok = expr, true
	n := p.or(ftsColumnBits)
	if p.skipSpace(); p.s != "" {
		p.ok = false
	}
	return n
}

func (p *matchParser) skipSpace() { p.s = strings.TrimLeft(p.s, " ") }

// word consumes the bare word w (AND, OR) if it comes next.
func (p *matchParser) word(w string) bool {
	p.skipSpace()
	rest, found := strings.CutPrefix(p.s, w)
	if !found || rest == "" || rest[0] != ' ' {
		return false
	}
	p.s = rest
	return true
}

func (p *matchParser) or(cols uint8) *matchNode {
	n := p.and(cols)
	for p.ok && p.word("OR") {
		n = join(n, p.and(cols), false)
	}
	return n
}

func (p *matchParser) and(cols uint8) *matchNode {
	n := p.primary(cols)
	for p.ok && p.word("AND") {
		n = join(n, p.primary(cols), true)
	}
	return n
}

// join is a AND b (or OR), flattened.
func join(a, b *matchNode, and bool) *matchNode {
	if a.kids != nil && a.and == and {
		a.kids = append(a.kids, b)
		return a
	}
	return &matchNode{and: and, kids: []*matchNode{a, b}}
}

func (p *matchParser) primary(cols uint8) *matchNode {
	p.skipSpace()
	switch {
	case !p.ok || p.s == "":
	case p.s[0] == '(':
		p.s = p.s[1:]
		n := p.or(cols)
		if p.skipSpace(); !strings.HasPrefix(p.s, ")") {
			break
		}
		p.s = p.s[1:]
		return n
	case p.s[0] == '{':
		set, rest, found := strings.Cut(p.s[1:], "}")
		rest = strings.TrimLeft(rest, " ")
		if !found || !strings.HasPrefix(rest, ":") {
			break
		}
		var in uint8
		for _, c := range strings.Fields(set) {
			i := slices.Index(ftsColumns[:], c)
			if i < 0 {
				p.ok = false
				return &matchNode{}
			}
			in |= 1 << i
		}
		p.s = rest[1:]
		return p.primary(cols & in)
	case p.s[0] == '"':
		return p.phrase(cols)
	}
	p.ok = false
	return &matchNode{}
}

// phrase reads a quoted phrase and its star.
func (p *matchParser) phrase(cols uint8) *matchNode {
	end := strings.IndexByte(p.s[1:], '"')
	if end < 1 || strings.HasPrefix(p.s[end+2:], `"`) { // empty, or a "" escape
		p.ok = false
		return &matchNode{}
	}
	text := p.s[1 : end+1]
	p.s = p.s[end+2:]
	ph := matchPhrase{token: strings.ToLower(text), cols: cols}
	if strings.HasPrefix(p.s, "*") {
		ph.prefix, p.s = true, p.s[1:]
	}
	if strings.ContainsFunc(text, func(r rune) bool { return r >= utf8.RuneSelf || !isASCIIAlnum(byte(r)) }) {
		p.ok = false
	}
	p.phrases = append(p.phrases, ph)
	return &matchNode{phrase: len(p.phrases) - 1}
}
