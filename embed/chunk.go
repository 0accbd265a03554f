package embed

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// DefaultChunkChars is the default size limit of a chunk's Text.
const DefaultChunkChars = 1500

// minChunkChars is the smallest limit Chunks accepts.
const minChunkChars = 16

// Chunk is a piece of a note embedded as one vector.
type Chunk struct {
	// Heading is the innermost heading above the chunk ("" before the
	// first heading), as in a [[Note#Heading]] link.
	Heading string
	// Text is what gets embedded: the title and heading path
	// ("Title > Heading > Subheading"), a blank line, then the content.
	Text string
	// Start and End are the byte range of the content in body, for
	// snippets.
	Start, End int
}

// Chunks splits a note's markdown body into chunks of at most maxChars
// bytes of Text (DefaultChunkChars when maxChars <= 0, at least 16): at
// ATX headings (# to ######, not inside fenced code), then long sections
// at paragraph breaks, line breaks, sentence ends, spaces, and as a last
// resort between characters, never inside a UTF-8 sequence. Each chunk's
// Text starts with the title and heading path, cut to a third of maxChars
// if longer. Sections with no content (a heading right above another)
// give no chunk of their own; a note without content gives one chunk with
// the title and whatever headings it has.
func Chunks(title, body string, maxChars int) []Chunk {
	parts := chunkParts(nil, title, body, maxChars)
	out := make([]Chunk, len(parts))
	for i := range parts {
		p := &parts[i]
		text := p.text
		if !p.whole {
			text = p.prefix + p.sep + body[p.start:p.end]
		}
		out[i] = Chunk{Heading: p.heading, Text: text, Start: p.start, End: p.end}
	}
	return out
}

// EachChunkText calls f with the Text of each chunk Chunks(title, body,
// maxChars) gives, in order, joined in one buffer it reuses: the string f
// gets is valid only until f returns (an embedder that reads it and keeps
// nothing of it, Builtin.VectorTo), rather than a string of its own for
// each. It returns how many chunks there were.
func EachChunkText(title, body string, maxChars int, f func(text string)) int {
	sc := chunkScratches.Get().(*chunkScratch)
	defer chunkScratches.Put(sc)
	parts := chunkParts(sc.parts[:0], title, body, maxChars)
	buf := sc.buf
	defer func() {
		clear(parts) // they hold parts of title and body
		if cap(parts) <= maxPooledParts {
			sc.parts = parts[:0]
		}
		sc.buf = buf[:0]
	}()
	for i := range parts {
		p := &parts[i]
		if p.whole {
			f(p.text)
			continue
		}
		buf = append(append(append(buf[:0], p.prefix...), p.sep...), body[p.start:p.end]...)
		f(unsafe.String(unsafe.SliceData(buf), len(buf)))
	}
	return len(parts)
}

// chunkScratch is what EachChunkText reuses from one note to the next:
// the buffer it joins texts in and its list of parts.
type chunkScratch struct {
	buf   []byte
	parts []chunkPart
}

// chunkScratches holds EachChunkText's scratch space (*chunkScratch).
var chunkScratches = sync.Pool{New: func() any { return new(chunkScratch) }}

// maxPooledParts is the most parts a pooled chunkScratch keeps room for.
const maxPooledParts = 256

// chunkPart is a chunk before its text is joined: the text is text when
// whole, else prefix, sep, then body[start:end].
type chunkPart struct {
	heading, prefix, sep, text string
	start, end                 int
	whole                      bool
}

// chunkParts is Chunks without the texts joined, appended to out.
func chunkParts(out []chunkPart, title, body string, maxChars int) []chunkPart {
	if maxChars <= 0 {
		maxChars = DefaultChunkChars
	}
	maxChars = max(maxChars, minChunkChars)
	title = strings.TrimSpace(title)
	from := len(out)
	for _, sec := range sections(body) {
		prefix := strings.Join(append([]string{title}, sec.path...), " > ")
		prefix = strings.TrimPrefix(prefix, " > ")
		prefix = cutBytes(prefix, maxChars/3)
		sep := "\n\n"
		if prefix == "" {
			sep = ""
		}
		budget := maxChars - len(prefix) - len(sep)
		heading := ""
		if n := len(sec.path); n > 0 {
			heading = sec.path[n-1]
		}
		for _, sp := range splitSpan(body, sec.start, sec.end, budget, 0) {
			out = append(out, chunkPart{heading: heading, prefix: prefix, sep: sep, start: sp.start, end: sp.end})
		}
	}
	if len(out) == from {
		s, e := trimSpan(body, 0, len(body))
		text := title
		if s < e {
			text = strings.TrimSpace(title + "\n\n" + body[s:e])
		}
		text = cutBytes(text, maxChars)
		return append(out, chunkPart{text: text, start: s, end: e, whole: true})
	}
	return out
}

// section is the content under one heading.
type section struct {
	path       []string // heading texts from the outermost down
	start, end int      // content, without the heading line
}

// sections cuts body at ATX headings outside fenced code.
func sections(body string) []section {
	type level struct {
		n    int
		text string
	}
	var stack []level
	var out []section
	cur := section{start: 0}
	var fence string // the open fence's marker, "" outside code
	for pos := 0; pos < len(body); {
		end := strings.IndexByte(body[pos:], '\n')
		next := len(body)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(body)
		}
		line := body[pos:end]
		if f := fenceMarker(line); f != "" {
			switch {
			case fence == "":
				fence = f
			case f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), f[:1])) == "":
				fence = ""
			}
		} else if n, text, ok := atxHeading(line); ok && fence == "" {
			cur.end = pos
			out = append(out, cur)
			for len(stack) > 0 && stack[len(stack)-1].n >= n {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, level{n, text})
			path := make([]string, len(stack))
			for i, l := range stack {
				path[i] = l.text
			}
			cur = section{path: path, start: next}
		}
		pos = next
	}
	cur.end = len(body)
	cur.start = min(cur.start, cur.end)
	return append(out, cur)
}

// fenceMarker returns the run of ``` or ~~~ (three or more) opening a
// line indented by at most three spaces, or "".
func fenceMarker(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// atxHeading parses "## Text ##" (indented at most three spaces).
func atxHeading(line string) (level int, text string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return 0, "", false
	}
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 {
		return 0, "", false
	}
	rest := t[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '\r' {
		return 0, "", false
	}
	rest = strings.TrimSpace(rest)
	if closed := strings.TrimRight(rest, "#"); closed == "" || strings.HasSuffix(closed, " ") || strings.HasSuffix(closed, "\t") {
		rest = strings.TrimSpace(closed)
	}
	return level, rest, true
}

type span struct{ start, end int }

// Split levels, coarsest first.
const (
	splitParagraph = iota
	splitLine
	splitSentence
	splitWord
	splitRune
)

// splitSpan cuts body[start:end] into trimmed, non-empty spans of at most
// budget bytes, cutting at the coarsest boundaries that suffice and
// packing neighbouring pieces back together while they fit.
func splitSpan(body string, start, end, budget, lvl int) []span {
	start, end = trimSpan(body, start, end)
	if start >= end {
		return nil
	}
	if end-start <= budget {
		return []span{{start, end}}
	}
	if lvl == splitRune {
		var out []span
		for start < end {
			cut := min(start+budget, end)
			for cut > start && cut < end && !utf8.RuneStart(body[cut]) {
				cut--
			}
			if cut == start { // budget below one character: take it whole
				_, n := utf8.DecodeRuneInString(body[start:end])
				cut = start + n
			}
			out = append(out, span{start, cut})
			start = cut
		}
		return out
	}
	cuts := boundaries(body, start, end, lvl)
	var out []span
	cur := span{-1, -1}
	flush := func() {
		if cur.start >= 0 {
			out = append(out, splitSpan(body, cur.start, cur.end, budget, lvl+1)...)
			cur = span{-1, -1}
		}
	}
	prev := start
	for _, c := range append(cuts, end) {
		part := span{prev, c}
		prev = c
		switch {
		case part.end-part.start > budget:
			flush()
			out = append(out, splitSpan(body, part.start, part.end, budget, lvl+1)...)
		case cur.start < 0:
			cur = part
		case part.end-cur.start <= budget:
			cur.end = part.end
		default:
			flush()
			cur = part
		}
	}
	flush()
	return out
}

// boundaries lists the cut points strictly inside (start, end) at a level.
func boundaries(body string, start, end, lvl int) []int {
	var cuts []int
	s := body[start:end]
	switch lvl {
	case splitParagraph, splitLine:
		for i := 0; i < len(s); {
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				break
			}
			next := i + j + 1
			if next < len(s) && (lvl == splitLine || strings.TrimSpace(s[i:i+j]) == "") {
				cuts = append(cuts, start+next)
			}
			i = next
		}
	case splitSentence, splitWord:
		// Cut before the first character after a sentence's end (and the
		// spaces after it), or after spaces.
		after := false
		for i, r := range s {
			if after && unicode.IsSpace(r) {
				continue
			}
			if after && i > 0 {
				cuts = append(cuts, start+i)
			}
			after = lvl == splitWord && unicode.IsSpace(r)
			switch {
			case lvl == splitWord:
			case r == '.' || r == '!' || r == '?' || r == ';':
				after = i+1 < len(s) && unicode.IsSpace(rune(s[i+1]))
			case r == '。' || r == '！' || r == '？' || r == '；':
				after = true
			}
		}
	}
	return cuts
}

// trimSpan narrows [start, end) to exclude surrounding white space.
func trimSpan(body string, start, end int) (int, int) {
	s := strings.TrimLeftFunc(body[start:end], unicode.IsSpace)
	start = end - len(s)
	return start, start + len(strings.TrimRightFunc(s, unicode.IsSpace))
}

// cutBytes shortens s to at most n bytes at a character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimSpace(s[:n])
}
