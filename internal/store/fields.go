package store

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/vault"
)

// The full-text fields of a note besides its title (with its aliases)
// and body: its headings, its tags, its frontmatter properties (keys and
// values, links as their target's name) and the English stems of all of
// these, each a column of fts with its own bm25 weight (FieldWeights). The
// anchor text of the links to a note is a row of fts_anchor (anchor_text.go).

// FieldWeights are the bm25 weights of the full-text fields. A note's
// bm25 in fts_anchor (the display text of the links to it, AnchorText,
// and the words around them, AnchorContext) is added to its bm25 in fts.
type FieldWeights struct {
	Title, Body, Headings, Tags, Props, Stems float64
	AnchorText, AnchorContext                 float64
}

// DefaultFieldWeights are the weights chosen on the tuning halves of the
// evaluation sets (search_eval_test.go, -eval-tune): see README, Search.
var DefaultFieldWeights = FieldWeights{Title: 3, Body: 1, Headings: 2, Tags: 2, Props: 4, Stems: 0.25, AnchorText: 2, AnchorContext: 1}

// bm25Args are the weights of bm25(fts, ...) in column order.
func (w FieldWeights) bm25Args() []any {
	return []any{w.Title, w.Body, w.Title, w.Body, w.Headings, w.Tags, w.Props, w.Stems}
}

// anchorBM25Args are the weights of bm25(fts_anchor, ...) in column
// order (the stems of both fields weigh as Stems).
func (w FieldWeights) anchorBM25Args() []any {
	return []any{w.AnchorText, w.AnchorContext, w.AnchorText, w.AnchorContext, 0.0, 0.0, 0.0, w.Stems}
}

// bm25Call is the bm25 call of table with one ? per column weight.
func bm25Call(table string) string {
	return "bm25(" + table + ", ?, ?, ?, ?, ?, ?, ?, ?)"
}

// headingText is a note's headings, one per line.
func headingText(n *vault.Note) string {
	var b strings.Builder
	for _, h := range n.Headings {
		b.WriteString(h.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// tagText is a note's tags, one per line (the tokenizer splits nested
// tags at '/').
func tagText(n *vault.Note) string { return strings.Join(n.Tags, "\n") }

// propText is a note's frontmatter properties, one per line: the key and
// its values, a link as its target's name and alias ("director: [[Ridley
// Scott]]" is "director Ridley Scott"), lists and maps flattened.
func propText(n *vault.Note) string {
	var b strings.Builder
	for _, p := range n.Properties {
		b.WriteString(p.Key)
		writeValue(&b, p.Value)
		b.WriteByte('\n')
	}
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
	case string:
		b.WriteByte(' ')
		b.WriteString(linkText(v))
	case []any:
		for _, x := range v {
			writeValue(b, x)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			b.WriteByte(' ')
			b.WriteString(k)
			writeValue(b, v[k])
		}
	default:
		fmt.Fprintf(b, " %v", v)
	}
}

// linkText replaces each "[[target#part|alias]]" in s by "target alias".
func linkText(s string) string {
	var b strings.Builder
	for {
		before, rest, _ := strings.Cut(s, "[[")
		inner, after, closed := strings.Cut(rest, "]]")
		if !closed {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(before)
		target, alias, _ := strings.Cut(inner, "|")
		target, _, _ = strings.Cut(target, "#")
		b.WriteString(target)
		if alias != "" {
			b.WriteString(" " + alias)
		}
		s = after
	}
}

// MinStemLen is the shortest word that is stemmed.
const MinStemLen = 3

// Stem is the English Snowball stem of word, lower case, or "" when the
// word is not stemmed: shorter than MinStemLen, or not all ASCII letters
// (words of other languages keep today's folding only).
func Stem(word string) string {
	if !stemmable(word) {
		return ""
	}
	if s, ok := stemCache.Load(word); ok {
		return s.(string)
	}
	s := english.Stem(word, false)
	if stemCacheSize.Add(1) <= maxStemCache {
		stemCache.Store(word, s)
	}
	return s
}

// stemmable reports whether Stem stems word: at least MinStemLen bytes,
// all ASCII letters.
func stemmable(word string) bool {
	if len(word) < MinStemLen {
		return false
	}
	for i := 0; i < len(word); i++ {
		c := word[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// stemCache keeps the stems of up to maxStemCache words: a vault's words
// repeat (Zipf), and stemming is most of the cost of the stems column.
var (
	stemCache     sync.Map
	stemCacheSize atomic.Int64
)

const maxStemCache = 200_000

// stemMarker starts every token of the stems columns, so that only a
// stem expression (stemExpr, which filters on the stems column) matches
// them, never a word or a prefix of the query: the folded words' marker
// (a query word near it is kept to the title and body, see nearMarker;
// the folded words' marked tokens are matched in cjktitle and cjk only).
const stemMarker = foldMarker

// stemText is the stems column of texts: each distinct English stem of
// their words that differs from the word itself (the word matches as
// written in its own column), marked (stemMarker), space-separated, in
// first-seen order.
func stemText(texts ...string) string {
	st := stemPool.Get().(*stemScratch)
	defer st.put()
	b := st.out[:0] // the column, built where it was last time (one copy at the end)
	// A new call; on wrapping, no word or stem may look met in it
	// already. Stems are forgotten between calls only, so that a call
	// writes each once.
	if st.text++; st.text == 0 || len(st.stems) >= maxStemLocal {
		st.forget()
		st.text = max(st.text, 1)
	}
	for _, t := range texts {
		for w, i := nextStemWord(t, 0); w != ""; w, i = nextStemWord(t, i) {
			if !stemmable(w) { // Stem would give "": no look-up
				continue
			}
			sw, again := st.stem(w)
			if again || sw.stem < 0 { // a note repeats most words
				continue
			}
			if ss := &st.stems[sw.stem]; ss.text != st.text { // the stem of another word, met before
				ss.text = st.text
				if len(b) > 0 {
					b = append(b, ' ')
				}
				b = append(append(b, stemMarker...), ss.stem...)
			}
		}
	}
	st.out = b
	return string(b)
}

// nextStemWord returns the first word of t[i:] and the offset just past
// it, or "" when there is none: the words are those of
// strings.FieldsFuncSeq(t, notStemRune), found without a call per
// character for ASCII text.
func nextStemWord(t string, i int) (string, int) {
	for i < len(t) { // separators
		if c := t[i]; c < utf8.RuneSelf {
			if textfold.IsASCIIWordByte(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if !notStemRune(r) {
			break
		}
		i += size
	}
	start := i
	for i < len(t) {
		if c := t[i]; c < utf8.RuneSelf {
			if !textfold.IsASCIIWordByte(c) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if notStemRune(r) {
			break
		}
		i += size
	}
	return t[start:i], i
}

// notStemRune reports whether r separates the words stemText stems:
// anything but a letter or a digit.
func notStemRune(r rune) bool {
	if r < utf8.RuneSelf {
		return !textfold.IsASCIIWordByte(byte(r))
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// stemScratch is the scratch space of one stemText call, pooled, not a
// set of each note's stems. It keeps, of each word it met (up to
// maxStemLocal), its stem and the last call that met it, and of each
// distinct stem the last call that wrote it, so that one look-up a word
// tells whether this note had it already, its stem and whether the note
// had the stem, and most words skip the shared cache (stemCache).
type stemScratch struct {
	index   map[string]int32 // a word's place in words
	words   []stemWord
	stemIDs map[string]int32 // a stem's place in stems
	stems   []stemSeen
	text    uint32 // numbers the stemText calls
	out     []byte // the column being built (stemText)
}

// stemWord is a word a stemScratch met: its stem's place in
// stemScratch.stems (-1 when Stem gives the word itself or ""), and the
// stemText call (stemScratch.text) that last met it.
type stemWord struct {
	stem int32
	text uint32
}

// stemSeen is a stem a stemScratch met and the stemText call that last
// wrote it.
type stemSeen struct {
	stem string
	text uint32
}

// Bounds of a pooled stemScratch: the words met are forgotten when there
// are maxStemLocal of them, the stems at the next call that finds as
// many.
const (
	maxStemLocal = 20_000
	maxStemOut   = 64 << 10 // bytes of column kept for the next call
)

var stemPool = sync.Pool{New: func() any {
	return &stemScratch{index: map[string]int32{}, stemIDs: map[string]int32{}}
}}

// stem returns what st knows of w (its stem as Stem gives it, -1 when
// that is w itself in another case, since the word matches as written in
// its own column, or ""), and whether this stemText call met w before.
func (st *stemScratch) stem(w string) (sw stemWord, again bool) {
	if j, ok := st.index[w]; ok {
		p := &st.words[j]
		again, p.text = p.text == st.text, st.text
		return *p, again
	}
	s := Stem(w)
	// Stem gives "" for a word that is not all ASCII letters, so the
	// case-insensitive comparison is an ASCII one.
	if strings.EqualFold(s, w) {
		s = ""
	}
	if len(st.words) >= maxStemLocal {
		clear(st.index)
		st.words = st.words[:0]
	}
	sw = stemWord{stem: -1, text: st.text}
	if s != "" {
		id, ok := st.stemIDs[s]
		if !ok {
			id = int32(len(st.stems))
			st.stemIDs[s] = id
			st.stems = append(st.stems, stemSeen{stem: s})
		}
		sw.stem = id
	}
	st.index[strings.Clone(w)] = int32(len(st.words)) // w is part of a note's text
	st.words = append(st.words, sw)
	return sw, false
}

// forget empties the words and stems st met.
func (st *stemScratch) forget() {
	clear(st.index)
	st.words = st.words[:0]
	clear(st.stemIDs)
	st.stems = st.stems[:0]
}

// put pools st, without a column grown past maxStemOut.
func (st *stemScratch) put() {
	if cap(st.out) > maxStemOut {
		st.out = nil
	}
	stemPool.Put(st)
}

// stemAsk asks, of each term's stem token (stemMarker and the stem),
// whether it is in either full-text table, to set noStem, and whether the
// stem is a word of either, to set noStemWord: an expression without them
// reads fewer posting lists (a word's stem is often no word, "invoic").
// Each token is looked up as a match of one row: the tables' vocabularies
// (fts_vocab) would count every note with it. Stems are ASCII letters,
// so the quoted token is the token.
func stemAsk(terms []Term) flagAsk {
	const exists = `(EXISTS (SELECT 1 FROM fts WHERE fts MATCH '"' || ? || '"') OR EXISTS (SELECT 1 FROM fts_anchor WHERE fts_anchor MATCH '"' || ? || '"'))`
	var which []int
	var cols []string
	var args []any
	var checks []flagCheck
	for i, t := range terms {
		st := Stem(t.Text)
		if t.Phrase || st == "" {
			continue
		}
		which = append(which, i)
		cols = append(cols, exists, exists)
		args = append(args, stemMarker+st, stemMarker+st, st, st)
		for _, tok := range []string{stemMarker + st, st} {
			var either []tokenCheck
			for _, table := range []string{"fts", "fts_anchor"} {
				if c, ok := plainCheck(table, `"`+tok+`"`); ok {
					either = append(either, c)
				}
			}
			if len(either) < 2 {
				either = nil // asked of SQL
			}
			checks = append(checks, flagCheck{either})
		}
	}
	return flagAsk{cols: cols, args: args, checks: checks, set: func(found []bool) {
		for j, i := range which {
			terms[i].noStem, terms[i].noStemWord = !found[2*j], !found[2*j+1]
		}
	}}
}
