package vaultgen

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Token kinds of inline text.
const (
	tWord = iota
	tLink
	tTag
	tOther // external links, inline code: no punctuation after
)

// tok is one inline token.
type tok struct {
	kind int
	s    string // text; for words the lower-case form
	c    string // capitalised form of a word
}

// insertion is a token to splice into a run of words before word pos.
type insertion struct {
	pos int
	t   tok
}

// Link contexts: where a link is written, which limits its spelling.
const (
	ctxInline = iota // paragraph or quote: embeds go on their own line
	ctxList          // list item or callout: embeds stay inline
	ctxTable         // table cell: alias pipe escaped
	ctxFM            // frontmatter value: quoted plain wikilink
	ctxIndex         // link list of a hub note
)

// word returns a random prose word and its capitalised form.
func (rd *renderer) word() (string, string) {
	r := rd.r
	if r.Float64() < 0.015 {
		i := r.IntN(len(nonASCIIWords))
		return nonASCIIWords[i], nonASCIIWordsCap[i]
	}
	u := r.Float64()
	i := int(u * u * float64(len(proseWords)))
	return proseWords[i], proseWordsCap[i]
}

// inline writes the tokens of nWords words and links (tokens), with
// capitals and punctuation when sentences.
func (rd *renderer) inline(nWords int, links []link, sentences bool, ctx int) {
	rd.write(rd.tokens(nWords, links, ctx), sentences)
}

// tokens draws nWords words and places links, tags and the odd external
// link or code span among them (embeds in ctxInline go to rd.embs).
func (rd *renderer) tokens(nWords int, links []link, ctx int) []tok {
	r := rd.r
	ins := rd.ins[:0]
	pos := func() int { return r.IntN(nWords + 1) }
	for _, l := range links {
		s, embed := rd.linkText(l, ctx)
		if embed && ctx == ctxInline {
			rd.embs = append(rd.embs, s)
			continue
		}
		ins = append(ins, insertion{pos(), tok{kind: tLink, s: s}})
	}
	for range int(float64(nWords)/50 + r.Float64()*0.8) {
		u := r.Float64()
		ins = append(ins, insertion{pos(), tok{kind: tTag, s: hashTags[int(u*u*float64(len(hashTags)))]}})
	}
	if nWords >= 20 {
		switch u := r.Float64(); {
		case u < 0.02:
			ins = append(ins, insertion{pos(), tok{kind: tOther, s: "[the docs](https://example.com/docs/page-" + strconv.Itoa(r.IntN(100)) + ")"}})
		case u < 0.03:
			ins = append(ins, insertion{pos(), tok{kind: tOther, s: "https://example.com/notes#section-" + strconv.Itoa(r.IntN(10))}})
		case u < 0.04:
			ins = append(ins, insertion{pos(), tok{kind: tOther, s: "`[[inline not a link]]`"}})
		case u < 0.05:
			ins = append(ins, insertion{pos(), tok{kind: tOther, s: "issue #" + strconv.Itoa(1+r.IntN(999))}})
		}
	}
	slices.SortStableFunc(ins, func(a, c insertion) int { return cmp.Compare(a.pos, c.pos) })

	toks := rd.toks[:0]
	k := 0
	for w := 0; w <= nWords; w++ {
		for k < len(ins) && ins[k].pos == w {
			toks = append(toks, ins[k].t)
			k++
		}
		if w < nWords {
			s, c := rd.word()
			toks = append(toks, tok{kind: tWord, s: s, c: c})
		}
	}
	rd.ins, rd.toks = ins, toks
	return toks
}

// write writes toks, with capitals and punctuation when sentences.
func (rd *renderer) write(toks []tok, sentences bool) {
	b, r := rd.b, rd.r
	left := 0 // tokens left in the current sentence
	for j, t := range toks {
		if j > 0 {
			b.WriteByte(' ')
		}
		start := left == 0
		if start {
			left = 6 + r.IntN(11)
			if rest := len(toks) - j; rest-left < 4 {
				left = rest // no one-word sentence at the end
			}
		}
		left--
		if t.kind != tWord {
			b.WriteString(t.s)
		} else {
			s := t.s
			if start && (sentences || j == 0) {
				s = t.c
			}
			switch u := r.Float64(); {
			case u < 0.006:
				b.WriteString("**" + s + "**")
			case u < 0.011:
				b.WriteString("*" + s + "*")
			case u < 0.013:
				b.WriteString("==" + s + "==")
			case u < 0.016:
				b.WriteString("`" + s + "`")
			default:
				b.WriteString(s)
			}
		}
		if !sentences {
			continue
		}
		if left == 0 || j == len(toks)-1 {
			if t.kind == tWord || t.kind == tLink {
				switch u := r.Float64(); {
				case u < 0.05:
					b.WriteByte('?')
				case u < 0.07:
					b.WriteByte('!')
				default:
					b.WriteByte('.')
				}
			}
			left = 0
		} else if t.kind == tWord && r.Float64() < 0.06 {
			b.WriteByte(',')
		}
	}
}

// linkText spells link l for context ctx. embed reports a note embed
// (![[...]]), which ctxInline callers place on a line of its own.
func (rd *renderer) linkText(l link, ctx int) (s string, embed bool) {
	p, r := rd.p, rd.r
	var name, path string
	var heading string
	forced := false
	if l.broken() {
		name = p.broken[-l-1]
		path = name
		if len(p.folders) > 0 {
			path = p.folders[r.IntN(len(p.folders))].path + "/" + name
		}
		heading = headingWords[r.IntN(len(headingWords))]
	} else {
		t := &p.notes[l]
		name, path, forced = t.title, t.path, t.dup
		if len(t.headings) > 0 {
			heading = headingWords[t.headings[r.IntN(len(t.headings))]]
		}
	}
	target := func(qualify bool) string {
		if qualify || forced {
			return path
		}
		return name
	}

	switch ctx {
	case ctxFM:
		return `"[[` + target(false) + `]]"`, false
	case ctxTable, ctxIndex:
		pipe, aliased := `\|`, 0.6 // a table cell escapes the alias's pipe
		if ctx == ctxIndex {
			pipe, aliased = "|", 0.2
		}
		if r.Float64() < aliased {
			return "[[" + target(false) + pipe + rd.alias(name) + "]]", false
		}
		return "[[" + target(false) + "]]", false
	}

	switch u := r.Float64(); {
	case u < 0.50:
		return "[[" + target(false) + "]]", false
	case u < 0.64:
		return "[[" + target(false) + "|" + rd.alias(name) + "]]", false
	case u < 0.72 && heading != "":
		return "[[" + target(false) + "#" + heading + "]]", false
	case u < 0.75 && heading != "":
		return "[[" + target(false) + "#" + heading + "|" + rd.alias(name) + "]]", false
	case u < 0.82:
		return "[[" + target(true) + "]]", false
	case u < 0.86:
		if heading != "" && r.Float64() < 0.2 {
			return "![[" + target(false) + "#" + heading + "]]", true
		}
		return "![[" + target(false) + "]]", true
	default:
		dest := rd.encode(target(r.Float64() < 0.3)) + ".md"
		if u >= 0.97 && heading != "" {
			dest += "#" + rd.encode(heading)
		}
		text := name
		if r.Float64() < 0.5 {
			text = rd.alias(name)
		}
		return "[" + text + "](" + dest + ")", false
	}
}

// alias returns display text for a link to a note called name.
func (rd *renderer) alias(name string) string {
	r := rd.r
	if r.Float64() < 0.2 {
		return strings.ToLower(name)
	}
	words := make([]string, 1+r.IntN(3))
	for j := range words {
		words[j] = proseWords[r.IntN(len(proseWords))]
	}
	return strings.Join(words, " ")
}

// encode percent-encodes a markdown link destination as Obsidian does:
// spaces always, non-ASCII bytes in half of the links.
func (rd *renderer) encode(s string) string {
	full := rd.r.Float64() < 0.5
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			sb.WriteString("%20")
		case c >= 0x80 && full:
			fmt.Fprintf(&sb, "%%%02X", c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// frontmatter writes a YAML frontmatter block with links as `related:`.
func (rd *renderer) frontmatter(n *note, links []link) {
	b, r := rd.b, rd.r
	b.WriteString("---\n")
	if len(n.aliases) > 0 {
		quoted := make([]string, len(n.aliases))
		for j, a := range n.aliases {
			quoted[j] = strconv.Quote(a)
		}
		rd.yamlList("aliases", quoted, r.Float64() < 0.7)
	}
	if r.Float64() < 0.75 {
		k := 1 + r.IntN(3)
		tags := make([]string, 0, k)
		for range k {
			u := r.Float64()
			if t := tagWords[int(u*u*float64(len(tagWords)))]; !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
		if u := r.Float64(); u < 0.7 {
			rd.yamlList("tags", tags, u < 0.5)
		} else {
			b.WriteString("tags: " + strings.Join(tags, ", ") + "\n")
		}
	}
	if r.Float64() < 0.85 {
		b.WriteString("created: " + date(r) + "\n")
	}
	if r.Float64() < 0.25 {
		b.WriteString("updated: " + date(r) + "\n")
	}
	switch u := r.Float64(); {
	case u < 0.15:
		b.WriteString("rating: " + strconv.Itoa(1+r.IntN(5)) + "\n")
	case u < 0.30:
		b.WriteString("priority: " + strconv.Itoa(1+r.IntN(3)) + "\n")
	case u < 0.40:
		b.WriteString("progress: " + strconv.FormatFloat(float64(r.IntN(101))/100, 'f', -1, 64) + "\n")
	}
	switch u := r.Float64(); {
	case u < 0.2:
		b.WriteString("draft: " + strconv.FormatBool(r.IntN(2) == 0) + "\n")
	case u < 0.35:
		b.WriteString("publish: " + strconv.FormatBool(r.IntN(2) == 0) + "\n")
	}
	if r.Float64() < 0.2 {
		b.WriteString("status: " + statuses[r.IntN(len(statuses))] + "\n")
	}
	if len(links) == 1 && r.Float64() < 0.7 {
		s, _ := rd.linkText(links[0], ctxFM)
		b.WriteString("related: " + s + "\n")
	} else if len(links) > 0 {
		b.WriteString("related:\n")
		for _, l := range links {
			s, _ := rd.linkText(l, ctxFM)
			b.WriteString("  - " + s + "\n")
		}
	}
	b.WriteString("---\n")
}

// yamlList writes key's items as a block list, else as a flow list.
func (rd *renderer) yamlList(key string, items []string, block bool) {
	if !block {
		rd.b.WriteString(key + ": [" + strings.Join(items, ", ") + "]\n")
		return
	}
	rd.b.WriteString(key + ":\n")
	for _, it := range items {
		rd.b.WriteString("  - " + it + "\n")
	}
}

// epoch is the earliest frontmatter date.
var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// date returns a random YYYY-MM-DD between 2020 and 2025.
func date(r *rand.Rand) string {
	return epoch.AddDate(0, 0, r.IntN(6*365)).Format(time.DateOnly)
}
