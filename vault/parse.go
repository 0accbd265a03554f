package vault

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"go.abhg.dev/goldmark/frontmatter"
	"go.abhg.dev/goldmark/hashtag"
)

// MaxParseBytes is the largest note whose body is parsed for links and
// tags. A bigger note is indexed by its name and frontmatter only, with a
// warning, so that one pasted log file cannot stall indexing.
const MaxParseBytes = 8 << 20

// binarySniffBytes is how much of a file is checked for NUL bytes.
const binarySniffBytes = 8000

// ErrBinary is returned by Parse for a file that holds binary data.
var ErrBinary = errors.New("binary file, not markdown")

// Parser turns the bytes of a note into a Note. It is safe for concurrent
// use; build one with NewParser and share it.
type Parser struct {
	withFM parser.Parser // frontmatter + body
	bodyMD parser.Parser // body only, for notes whose frontmatter is unclosed
}

// NewParser returns a Parser for Obsidian-flavoured markdown: CommonMark,
// YAML frontmatter, wikilinks, embeds and Obsidian hashtags.
func NewParser() *Parser {
	return &Parser{withFM: newGoldmark(true), bodyMD: newGoldmark(false)}
}

// yamlCapture receives the raw frontmatter bytes from the frontmatter
// extension without decoding them: decoding happens in the collector,
// which needs the yaml.Node tree for positions.
type yamlCapture struct{ raw []byte }

var captureFormat = frontmatter.Format{
	Name:  "YAML",
	Delim: '-',
	Unmarshal: func(b []byte, v any) error {
		v.(*yamlCapture).raw = b // the only target it is decoded into
		return nil
	},
}

func newGoldmark(withFrontmatter bool) parser.Parser {
	inline := []util.PrioritizedValue{
		util.Prioritized(parser.NewCodeSpanParser(), 100),
		util.Prioritized(&wikilinkParser{}, 199),
		util.Prioritized(&linkParser{inner: parser.NewLinkParser()}, 200),
		util.Prioritized(parser.NewAutoLinkParser(), 300),
		util.Prioritized(parser.NewRawHTMLParser(), 400),
		util.Prioritized(parser.NewEmphasisParser(), 500),
		util.Prioritized(&tagParser{inner: &hashtag.Parser{Variant: hashtag.ObsidianVariant}}, 999),
	}
	blocks := parser.DefaultBlockParsers()
	if withFrontmatter {
		blocks = append(blocks, util.Prioritized(&frontmatter.Parser{
			Formats: []frontmatter.Format{captureFormat},
		}, 0))
	}
	return parser.NewParser(
		parser.WithBlockParsers(blocks...),
		parser.WithInlineParsers(inline...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)
}

// Parse reads one note. id is its vault-relative path; src is the whole
// file. Parse never panics on any input: problems become warnings on the
// note. It returns ErrBinary (and a nil note) for binary data.
func (p *Parser) Parse(id string, src []byte) (note *Note, err error) {
	return p.parse(id, src, false)
}

// parse is Parse; with refRanges a reference-style link gets the range of
// its definition's destination (ParseForRewrite).
func (p *Parser) parse(id string, src []byte, refRanges bool) (note *Note, err error) {
	if isBinary(src) {
		return nil, fmt.Errorf("%s: %w", id, ErrBinary)
	}
	defer func() {
		// goldmark and its extensions are well tested, but a single odd
		// file must not take the whole index down with it.
		if r := recover(); r != nil {
			note = &Note{ID: id, Title: BaseName(id), Hash: Hash(src), Size: int64(len(src))}
			note.Warnings = append(note.Warnings, fmt.Sprintf("parser failed on this note (%v); indexed by name only", r))
			err = nil
		}
	}()

	n := &Note{ID: id, Hash: Hash(src), Size: int64(len(src))}
	if !utf8.Valid(src) {
		n.Warnings = append(n.Warnings, "file is not valid UTF-8; invalid bytes are shown as U+FFFD")
	}

	off := bomLen(src) // a byte-order mark hides the frontmatter from the block parser
	body := src[off:]
	tooBig := len(src) > MaxParseBytes
	if tooBig {
		// Keep the frontmatter (if it is of sane size) and skip the body.
		_, _, end := findFrontmatter(body, MaxParseBytes)
		body = body[:end]
		n.Warnings = append(n.Warnings, fmt.Sprintf("note is %d bytes, over the %d byte limit: only its frontmatter was parsed", len(src), MaxParseBytes))
	}

	// Room for about as many links as the text has openings, in the
	// list and in the table of their spans: append doubling its way up
	// allocated the links about twice over.
	k := bytes.Count(body, []byte("[[")) + bytes.Count(body, []byte("]("))
	doc, fm, spans := p.parseMarkdown(body, k)
	lines := getLineIndex(src)
	defer putLineIndex(lines)
	c := &collector{src: src, off: off, lines: *lines, note: n, spans: spans}
	if k > 0 {
		n.Links = make([]Link, 0, k)
	}
	if fm != nil {
		c.frontmatter(fm)
	}
	if !tooBig {
		if refRanges {
			c.defs = definitions(doc, src[off:])
		}
		c.walk(doc)
	}
	c.finish()
	return n, nil
}

// parseMarkdown parses body and returns its AST with the raw frontmatter
// (nil when there is none or it is never closed) and the spans of its
// links (spanTable), made with room for links of them.
func (p *Parser) parseMarkdown(body []byte, links int) (ast.Node, *fmBlock, spanTable) {
	_, _, fmEnd := findFrontmatter(body, len(body))
	body = defuseLongDestinations(body, fmEnd)
	pc := newContext(links)
	doc := p.withFM.Parse(text.NewReader(body), parser.WithContext(pc))
	d := frontmatter.Get(pc)
	if d == nil {
		return doc, nil, spansOf(pc)
	}
	var capture yamlCapture
	if err := d.Decode(&capture); err != nil {
		return doc, nil, spansOf(pc)
	}
	start := cap(body) - cap(capture.raw) // raw is a sub-slice of body
	end := start + len(capture.raw)
	closeEnd, closed := closingDelimiter(body, end)
	if !closed || !opensFrontmatter(body, start) {
		// "---" with no closing line is not frontmatter in Obsidian, nor
		// is a block that does not start on the very first line.
		pc = newContext(links)
		return p.bodyMD.Parse(text.NewReader(body), parser.WithContext(pc)), nil, spansOf(pc)
	}
	return doc, &fmBlock{rawStart: start, rawEnd: end, end: closeEnd}, spansOf(pc)
}

// fmBlock is where a note's frontmatter is, as byte offsets.
type fmBlock struct {
	rawStart, rawEnd int // the YAML text between the delimiter lines
	end              int // just after the closing delimiter line
}

// opensFrontmatter reports whether the first line of body is exactly "---"
// and the frontmatter text starts right after it at offset start. The
// goldmark extension also accepts a delimiter after blank lines.
func opensFrontmatter(body []byte, start int) bool {
	first := bytes.IndexByte(body, '\n')
	return first >= 0 && first+1 == start && isDelimiter(body[:first])
}

// isDelimiter reports whether line, without its "\n", is a frontmatter
// delimiter line: exactly "---", or "---\r". The goldmark extension closes
// a block only on a line of as many dashes as the one that opened it, and
// Obsidian's frontmatter opens with exactly "---", so a line of four
// dashes closes nothing.
func isDelimiter(line []byte) bool {
	return string(bytes.TrimSuffix(line, []byte("\r"))) == "---"
}

// closingDelimiter checks that a "---" line starts at offset at and returns
// the offset just after it.
func closingDelimiter(body []byte, at int) (int, bool) {
	if at < 0 || at > len(body) {
		return 0, false
	}
	line, next := body[at:], len(body)
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line, next = line[:i], at+i+1
	}
	return next, isDelimiter(line)
}

// findFrontmatter finds the frontmatter block at the start of body by the
// rule Parse follows: an opening "---" line and the next "---" line, which
// starts before limit. The YAML text is body[rawStart:rawEnd] and the
// block ends at end, just after its closing line; end is 0 when body has
// no such block. This is the one place the delimiter lines are looked
// for: Parse, the frontmatter editor and the link rewriter all ask here.
func findFrontmatter(body []byte, limit int) (rawStart, rawEnd, end int) {
	first := bytes.IndexByte(body, '\n')
	if first < 0 || !isDelimiter(body[:first]) {
		return 0, 0, 0
	}
	for at := first + 1; at < len(body) && at < limit; {
		if end, ok := closingDelimiter(body, at); ok {
			return first + 1, at, end
		}
		next := bytes.IndexByte(body[at:], '\n')
		if next < 0 {
			break
		}
		at += next + 1
	}
	return 0, 0, 0
}

// maxDestinationBytes is the longest inline link destination that is
// looked for. goldmark scans a destination to its end for every "](" of a
// line, so a line of thousands of unclosed "](" takes quadratic time; a
// destination this long is a URL or data, never a note.
const maxDestinationBytes = 4096

// defuseLongDestinations returns body, or a copy of it in which each "]("
// after offset from that opens a destination longer than
// maxDestinationBytes has its '(' turned into a space, so that goldmark
// does not scan it. Offsets are unchanged.
func defuseLongDestinations(body []byte, from int) []byte {
	out := body
	var plain, angle nextIndex
	for i := from; i < len(body); {
		k := bytes.Index(body[i:], []byte("]("))
		if k < 0 {
			break
		}
		p := i + k + 2
		for p < len(body) && isSpaceByte(body[p]) {
			p++
		}
		var end int
		if p < len(body) && body[p] == '<' {
			end = angle.find(body, p+1, len(body), angleEnd)
		} else {
			end = plain.find(body, p, len(body), plainEnd)
		}
		if end < 0 {
			end = len(body)
		}
		if end-p > maxDestinationBytes {
			if len(out) > 0 && &out[0] == &body[0] {
				out = bytes.Clone(body)
			}
			out[i+k+1] = ' '
		}
		i = i + k + 2
	}
	return out
}

// angleEnd and plainEnd find where a markdown link destination ends, in
// angle brackets or not.
func angleEnd(b []byte) int { return bytes.IndexAny(b, ">\n\r") }
func plainEnd(b []byte) int { return bytes.IndexAny(b, ") \t\n\r\v\f") }

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isBinary reports whether src looks like binary data: a NUL byte in its
// first few kilobytes, as git and grep decide.
func isBinary(src []byte) bool {
	return bytes.IndexByte(src[:min(len(src), binarySniffBytes)], 0) >= 0
}

// Hash returns the content hash vaultgraph records for a file (Note.Hash).
func Hash(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:8])
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int

func newLineIndex(src []byte) lineIndex { return appendLineStarts(nil, src) }

// appendLineStarts returns li, emptied, holding the offset of each line
// of src.
func appendLineStarts(li lineIndex, src []byte) lineIndex {
	li = append(li[:0], 0)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return li
		}
		i += j + 1
		li = append(li, i)
	}
}

// lineIndexes holds the line indexes of parses that ended (*lineIndex):
// a new one for every note was 1% of the bytes a cold index allocated.
var lineIndexes = sync.Pool{New: func() any { return new(lineIndex) }}

// maxPooledLines is the most lines a pooled line index keeps room for.
const maxPooledLines = 1 << 14

// getLineIndex returns the line index of src from lineIndexes; give it
// back with putLineIndex once nothing reads it.
func getLineIndex(src []byte) *lineIndex {
	li := lineIndexes.Get().(*lineIndex)
	*li = appendLineStarts(*li, src)
	return li
}

// putLineIndex pools li, unless it has grown past maxPooledLines.
func putLineIndex(li *lineIndex) {
	if cap(*li) <= maxPooledLines {
		lineIndexes.Put(li)
	}
}

func (li lineIndex) line(offset int) int {
	return sort.Search(len(li), func(i int) bool { return li[i] > offset })
}
