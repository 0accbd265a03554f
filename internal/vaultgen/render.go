package vaultgen

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Block kinds of a note body.
const (
	bH1 = iota
	bHeading
	bPara
	bBullets
	bTasks
	bNumbered
	bCallout
	bQuote
	bCode
	bTilde
	bTable
	bAttach
	bIndex
)

// block is one planned piece of a note body.
type block struct {
	kind  int
	words int    // prose words (text blocks)
	items int    // list items, table rows, callout lines
	text  string // heading text, code snippet
	level int    // heading level
	links []link // links written in this block
}

// textual reports whether links can be scattered into b's prose.
func (b *block) textual() bool {
	switch b.kind {
	case bPara, bBullets, bTasks, bNumbered, bCallout, bQuote:
		return true
	}
	return false
}

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

// renderer renders notes of a plan into a buffer. One renderer per
// goroutine; the plan is shared read-only.
type renderer struct {
	p    *plan
	b    *bytes.Buffer
	r    *rand.Rand
	toks []tok
	ins  []insertion
	embs []string
}

// render writes note i into rd.b.
func (rd *renderer) render(i int) {
	rd.r = rd.p.noteRand(i)
	r := rd.r
	n := &rd.p.notes[i]
	links := n.links

	mean := float64(rd.p.cfg.BodyWords)
	const sigma = 0.6
	words := max(1, int(math.Exp(math.Log(mean)-sigma*sigma/2+sigma*r.NormFloat64())))

	if r.Float64() < 0.85 {
		nfm := 0
		if len(links) > 0 && r.Float64() < 0.15 {
			nfm = min(len(links), 1+r.IntN(2))
		}
		rd.frontmatter(n, links[:nfm])
		links = links[nfm:]
		if r.Float64() < 0.5 {
			rd.b.WriteByte('\n')
		}
	}

	// Optional blocks besides paragraphs.
	var extras []block
	extraWords := 0
	addList := func(kind int, p float64) {
		if r.Float64() < p {
			bl := block{kind: kind, items: 2 + r.IntN(5)}
			bl.words = bl.items * (3 + r.IntN(7))
			extraWords += bl.words
			extras = append(extras, bl)
		}
	}
	addList(bBullets, 0.35)
	addList(bTasks, 0.12)
	addList(bNumbered, 0.10)
	addList(bCallout, 0.08)
	if r.Float64() < 0.05 {
		bl := block{kind: bQuote, words: 8 + r.IntN(18)}
		extraWords += bl.words
		extras = append(extras, bl)
	}
	if r.Float64() < 0.10 {
		extras = append(extras, block{kind: bCode, text: codeSnippets[r.IntN(len(codeSnippets))]})
	}
	if r.Float64() < 0.03 {
		extras = append(extras, block{kind: bTilde, text: tildeFences[r.IntN(len(tildeFences))]})
	}
	if r.Float64() < 0.05 {
		bl := block{kind: bTable, items: 2 + r.IntN(4)}
		for j := 0; j < bl.items && len(links) > 0; j++ {
			if r.Float64() < 0.8 {
				bl.links = append(bl.links, links[0])
				links = links[1:]
			}
		}
		extras = append(extras, bl)
	}
	for k := 0; k < 2 && r.Float64() < 0.12; k++ {
		extras = append(extras, block{kind: bAttach, items: 1 + r.IntN(rd.p.attachments)})
	}

	// Hub notes with more links than their prose can carry list the
	// excess under a heading of their own.
	var index []link
	if limit := max(10, words/5); len(links) > limit {
		index, links = links[limit:], links[:limit]
	}

	// Paragraphs, spread over the intro and one section per heading.
	sections := len(n.headings) + 1
	paraWords := max(words-extraWords, sections)
	nPara := max(sections, int(math.Round(float64(paraWords)/70)))
	perSection := make([]int, sections)
	for s := range perSection {
		perSection[s] = 1
	}
	for range nPara - sections {
		perSection[r.IntN(sections)]++
	}
	paraLen := splitInt(r, paraWords, nPara)
	extraAt := make([]int, len(extras))
	for j := range extras {
		extraAt[j] = r.IntN(sections)
	}

	blocks := make([]block, 0, nPara+sections+len(extras)+2)
	if r.Float64() < 0.5 {
		blocks = append(blocks, block{kind: bH1})
	}
	pi := 0
	for s := range sections {
		if s > 0 {
			level := 2
			if s > 1 && r.Float64() < 0.3 {
				level = 3
			}
			blocks = append(blocks, block{kind: bHeading, level: level, text: headingWords[n.headings[s-1]]})
		}
		for range perSection[s] {
			blocks = append(blocks, block{kind: bPara, words: paraLen[pi]})
			pi++
		}
		for j := range extras {
			if extraAt[j] == s {
				blocks = append(blocks, extras[j])
			}
		}
	}
	if len(index) > 0 {
		blocks = append(blocks, block{kind: bIndex, links: index})
	}

	// Scatter the remaining links over text blocks, weighted by words.
	if len(links) > 0 {
		var cum []int
		var at []int
		acc := 0
		for j := range blocks {
			if blocks[j].textual() {
				acc += max(1, blocks[j].words)
				cum = append(cum, acc)
				at = append(at, j)
			}
		}
		for _, l := range links {
			k, _ := slices.BinarySearch(cum, r.IntN(acc)+1)
			blocks[at[k]].links = append(blocks[at[k]].links, l)
		}
	}

	for j := range blocks {
		rd.block(n, &blocks[j])
	}
	// End the file with exactly one newline.
	buf := rd.b.Bytes()
	end := len(buf)
	for end > 0 && buf[end-1] == '\n' {
		end--
	}
	rd.b.Truncate(end)
	rd.b.WriteByte('\n')
}

// splitInt splits total into k positive parts (when total >= k) of
// randomly varying size that sum to total.
func splitInt(r *rand.Rand, total, k int) []int {
	w := make([]float64, k)
	sum := 0.0
	for i := range w {
		w[i] = 0.5 + r.Float64()
		sum += w[i]
	}
	out := make([]int, k)
	acc, prev := 0.0, 0
	rest := total - k // every part gets 1, the rest is shared
	if rest < 0 {
		rest = 0
	}
	for i := range out {
		acc += w[i] / sum * float64(rest)
		cur := int(math.Round(acc))
		if i == k-1 {
			cur = rest
		}
		out[i] = 1 + cur - prev
		prev = cur
	}
	return out
}

// block writes one body block.
func (rd *renderer) block(n *note, bl *block) {
	b, r := rd.b, rd.r
	switch bl.kind {
	case bH1:
		b.WriteString("# ")
		b.WriteString(n.title)
		b.WriteString("\n\n")
	case bHeading:
		b.WriteString(strings.Repeat("#", bl.level))
		b.WriteByte(' ')
		b.WriteString(bl.text)
		b.WriteString("\n\n")
	case bPara:
		rd.embs = rd.embs[:0]
		rd.inline(bl.words, bl.links, true, ctxInline)
		if r.Float64() < 0.03 {
			b.WriteString(" ^")
			b.WriteString(strconv.FormatUint(r.Uint64()%(36*36*36*36*36*36), 36))
		}
		b.WriteString("\n\n")
		for _, e := range rd.embs {
			b.WriteString(e)
			b.WriteString("\n\n")
		}
	case bQuote:
		b.WriteString("> ")
		rd.inline(bl.words, bl.links, true, ctxList)
		b.WriteString("\n\n")
	case bBullets, bTasks, bNumbered:
		words := splitInt(r, bl.words, bl.items)
		links := splitLinks(r, bl.links, bl.items)
		for j := range bl.items {
			switch bl.kind {
			case bBullets:
				if j > 0 && r.Float64() < 0.15 {
					b.WriteString("  ")
				}
				b.WriteString("- ")
			case bTasks:
				if r.Float64() < 0.4 {
					b.WriteString("- [x] ")
				} else {
					b.WriteString("- [ ] ")
				}
			case bNumbered:
				b.WriteString(strconv.Itoa(j + 1))
				b.WriteString(". ")
			}
			rd.inline(words[j], links[j], false, ctxList)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	case bCallout:
		kind := calloutKinds[r.IntN(len(calloutKinds))]
		b.WriteString("> [!")
		b.WriteString(kind)
		b.WriteString("] ")
		b.WriteString(capitalize(kind))
		b.WriteByte('\n')
		words := splitInt(r, bl.words, bl.items)
		links := splitLinks(r, bl.links, bl.items)
		for j := range bl.items {
			if j == 0 {
				b.WriteString("> ")
			} else {
				b.WriteString("> - ")
			}
			rd.inline(words[j], links[j], j == 0, ctxList)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	case bCode, bTilde:
		b.WriteString(bl.text)
		b.WriteByte('\n')
	case bTable:
		b.WriteString("| Note | Status | Score |\n| --- | --- | ---: |\n")
		li := 0
		for j := range bl.items {
			b.WriteString("| ")
			if li < len(bl.links) && (r.Float64() < 0.8 || bl.items-j <= len(bl.links)-li) {
				s, _ := rd.linkText(bl.links[li], ctxTable)
				b.WriteString(s)
				li++
			} else {
				b.WriteString(titleWordsCap[r.IntN(len(titleWordsCap))])
			}
			b.WriteString(" | ")
			b.WriteString(statuses[r.IntN(len(statuses))])
			b.WriteString(" | ")
			b.WriteString(strconv.Itoa(r.IntN(10)))
			b.WriteString(" |\n")
		}
		b.WriteByte('\n')
	case bAttach:
		name := attachmentName(bl.items)
		switch u := r.Float64(); {
		case u < 0.6:
			b.WriteString("![[" + name + "]]")
		case u < 0.85:
			b.WriteString("![[" + name + "|" + strconv.Itoa(200+100*r.IntN(5)) + "]]")
		default:
			b.WriteString("![diagram](" + name + ")")
		}
		b.WriteString("\n\n")
	case bIndex:
		b.WriteString("## Related notes\n\n")
		for _, l := range bl.links {
			s, _ := rd.linkText(l, ctxIndex)
			b.WriteString("- ")
			b.WriteString(s)
			if r.Float64() < 0.3 {
				b.WriteString(" — ")
				for k := range 2 + r.IntN(5) {
					if k > 0 {
						b.WriteByte(' ')
					}
					w, _ := rd.word()
					b.WriteString(w)
				}
			}
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
}

// splitLinks deals links out to k items at random, preserving order.
func splitLinks(r *rand.Rand, links []link, k int) [][]link {
	out := make([][]link, k)
	for _, l := range links {
		j := r.IntN(k)
		out[j] = append(out[j], l)
	}
	return out
}

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

// inline writes nWords words with links, tags and the odd external link or
// code span mixed in. With sentences it adds capitals and punctuation. In
// ctxInline, embeds are collected in rd.embs for the caller to place on
// lines of their own.
func (rd *renderer) inline(nWords int, links []link, sentences bool, ctx int) {
	b, r := rd.b, rd.r
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
		name = p.broken[l.brokenIndex()]
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
	case ctxTable:
		if r.Float64() < 0.6 {
			return "[[" + target(false) + `\|` + rd.alias(name) + "]]", false
		}
		return "[[" + target(false) + "]]", false
	case ctxIndex:
		if r.Float64() < 0.2 {
			return "[[" + target(false) + "|" + rd.alias(name) + "]]", false
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
	k := 1 + r.IntN(3)
	var sb strings.Builder
	for j := range k {
		if j > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(proseWords[r.IntN(len(proseWords))])
	}
	return sb.String()
}

// encode percent-encodes a markdown link destination the way Obsidian
// writes it: spaces always become %20; non-ASCII bytes are encoded in half
// of the links and kept raw in the other half.
func (rd *renderer) encode(s string) string {
	full := rd.r.Float64() < 0.5
	const hex = "0123456789ABCDEF"
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			sb.WriteString("%20")
		case c >= 0x80 && full:
			sb.WriteByte('%')
			sb.WriteByte(hex[c>>4])
			sb.WriteByte(hex[c&15])
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// frontmatter writes a YAML frontmatter block holding the given links as
// `related:`.
func (rd *renderer) frontmatter(n *note, links []link) {
	b, r := rd.b, rd.r
	b.WriteString("---\n")
	if len(n.aliases) > 0 {
		if r.Float64() < 0.7 {
			b.WriteString("aliases:\n")
			for _, a := range n.aliases {
				b.WriteString("  - " + strconv.Quote(a) + "\n")
			}
		} else {
			b.WriteString("aliases: [")
			for j, a := range n.aliases {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.Quote(a))
			}
			b.WriteString("]\n")
		}
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
		switch u := r.Float64(); {
		case u < 0.5:
			b.WriteString("tags:\n")
			for _, t := range tags {
				b.WriteString("  - " + t + "\n")
			}
		case u < 0.7:
			b.WriteString("tags: [" + strings.Join(tags, ", ") + "]\n")
		default:
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

// epoch is the earliest frontmatter date.
var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// date returns a random YYYY-MM-DD between 2020 and 2025.
func date(r *rand.Rand) string {
	return epoch.AddDate(0, 0, r.IntN(6*365)).Format(time.DateOnly)
}
