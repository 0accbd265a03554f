package vaultgen

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
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

// renderer renders notes into a buffer, one per goroutine (the plan is shared).
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

	extras, extraWords, links := rd.extras(links)

	// Hub notes with more links than their prose can carry list the
	// excess under a heading of their own.
	var index []link
	if limit := max(10, words/5); len(links) > limit {
		index, links = links[limit:], links[:limit]
	}

	blocks := rd.layout(n, max(words-extraWords, len(n.headings)+1), extras)
	if len(index) > 0 {
		blocks = append(blocks, block{kind: bIndex, links: index})
	}
	rd.scatter(blocks, links)

	for j := range blocks {
		rd.block(n, &blocks[j])
	}
	// End the file with exactly one newline.
	rd.b.Truncate(len(bytes.TrimRight(rd.b.Bytes(), "\n")))
	rd.b.WriteByte('\n')
}

// extras draws the optional blocks besides paragraphs, their prose words,
// and the links a table among them took from links.
func (rd *renderer) extras(links []link) (extras []block, extraWords int, rest []link) {
	r := rd.r
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
	return extras, extraWords, links
}

// layout spreads paragraphs of paraWords words in all over the intro and
// one section per heading of n, and places the extras among them.
func (rd *renderer) layout(n *note, paraWords int, extras []block) []block {
	r := rd.r
	sections := len(n.headings) + 1
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
	return blocks
}

// scatter deals links out over the text blocks, weighted by words.
func (rd *renderer) scatter(blocks []block, links []link) {
	if len(links) == 0 {
		return
	}
	var cum []int
	var at []int
	acc := 0
	for j := range blocks {
		switch blocks[j].kind {
		case bPara, bBullets, bTasks, bNumbered, bCallout, bQuote: // prose
			acc += max(1, blocks[j].words)
			cum = append(cum, acc)
			at = append(at, j)
		}
	}
	for _, l := range links {
		k, _ := slices.BinarySearch(cum, rd.r.IntN(acc)+1)
		blocks[at[k]].links = append(blocks[at[k]].links, l)
	}
}

// splitInt splits total into k random positive parts (when total >= k).
func splitInt(r *rand.Rand, total, k int) []int {
	w := make([]float64, k)
	sum := 0.0
	for i := range w {
		w[i] = 0.5 + r.Float64()
		sum += w[i]
	}
	rest := max(total-k, 0) // every part gets 1, the rest is shared
	out := roundSteps(k, rest, func(i int) float64 { return w[i] / sum * float64(rest) })
	for i := range out {
		out[i]++
	}
	return out
}

// roundSteps rounds the running sums of share(0..n-1) to whole numbers, the
// last to total, and returns the steps between them (systematic rounding).
func roundSteps(n, total int, share func(i int) float64) []int {
	out := make([]int, n)
	acc, prev := 0.0, 0
	for i := range out {
		acc += share(i)
		cur := int(math.Round(acc))
		if i == n-1 {
			cur = total
		}
		out[i] = cur - prev
		prev = cur
	}
	return out
}

// block writes one body block.
func (rd *renderer) block(n *note, bl *block) {
	b, r := rd.b, rd.r
	switch bl.kind {
	case bH1:
		b.WriteString("# " + n.title + "\n\n")
	case bHeading:
		b.WriteString(strings.Repeat("#", bl.level) + " " + bl.text + "\n\n")
	case bPara:
		rd.embs = rd.embs[:0]
		rd.inline(bl.words, bl.links, true, ctxInline)
		if r.Float64() < 0.03 {
			b.WriteString(" ^" + strconv.FormatUint(r.Uint64()%(36*36*36*36*36*36), 36))
		}
		b.WriteString("\n\n")
		for _, e := range rd.embs {
			b.WriteString(e + "\n\n")
		}
	case bQuote:
		b.WriteString("> ")
		rd.inline(bl.words, bl.links, true, ctxList)
		b.WriteString("\n\n")
	case bBullets, bTasks, bNumbered, bCallout:
		rd.list(bl)
	case bCode, bTilde:
		b.WriteString(bl.text + "\n")
	case bTable:
		rd.table(bl)
	case bAttach:
		rd.attachment(bl)
	case bIndex:
		rd.index(bl)
	}
}

// list writes a bulleted, task or numbered list, or a callout.
func (rd *renderer) list(bl *block) {
	b, r := rd.b, rd.r
	if bl.kind == bCallout {
		kind := calloutKinds[r.IntN(len(calloutKinds))]
		b.WriteString("> [!" + kind + "] " + capitalize(kind) + "\n")
	}
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
			b.WriteString(strconv.Itoa(j+1) + ". ")
		case bCallout:
			if j == 0 {
				b.WriteString("> ")
			} else {
				b.WriteString("> - ")
			}
		}
		rd.inline(words[j], links[j], bl.kind == bCallout && j == 0, ctxList)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
}

// table writes a table whose first column holds some of bl's links.
func (rd *renderer) table(bl *block) {
	b, r := rd.b, rd.r
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
		b.WriteString(" | " + statuses[r.IntN(len(statuses))] + " | " + strconv.Itoa(r.IntN(10)) + " |\n")
	}
	b.WriteByte('\n')
}

// attachment writes an embed of or a link to an attachment.
func (rd *renderer) attachment(bl *block) {
	b, r := rd.b, rd.r
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
}

// index writes the list of links of a hub note under a heading of its own.
func (rd *renderer) index(bl *block) {
	b, r := rd.b, rd.r
	b.WriteString("## Related notes\n\n")
	for _, l := range bl.links {
		s, _ := rd.linkText(l, ctxIndex)
		b.WriteString("- " + s)
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

// splitLinks deals links out to k items at random, preserving order.
func splitLinks(r *rand.Rand, links []link, k int) [][]link {
	out := make([][]link, k)
	for _, l := range links {
		j := r.IntN(k)
		out[j] = append(out[j], l)
	}
	return out
}
