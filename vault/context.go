package vault

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultContextChars bounds the text LinkContext returns, marks and
// ellipses aside.
const DefaultContextChars = 240

// ContextOpen and ContextClose mark the link (or mention) in the text
// LinkContext returns, as a search snippet marks its matches.
const ContextOpen, ContextClose = "**", "**"

// contextEllipsis marks where LinkContext cut the sentence.
const contextEllipsis = "…"

// LinkContext returns the sentence, list item or table row of src (a
// whole note file) that holds the bytes [start, end) (a link's or a mention's
// range), on one line, with those bytes between ContextOpen and
// ContextClose, cut to about maxChars characters around them (ellipses
// where it was cut; maxChars <= 0 is DefaultContextChars). A range
// outside src gives "". Nothing is parsed: the sentence is found from the
// bytes around the range (blank lines and list items end it, as do ". ",
// "! " and "? ").
func LinkContext(src []byte, start, end, maxChars int) string {
	return textContext(src, start, end, maxChars, false)
}

// LineContext is LinkContext for a range whose line stands alone (a
// frontmatter property): the line without a list marker, without the
// sentence rules.
func LineContext(src []byte, start, end, maxChars int) string {
	return textContext(src, start, end, maxChars, true)
}

func textContext(src []byte, start, end, maxChars int, oneLine bool) string {
	if start < 0 || end > len(src) || start >= end {
		return ""
	}
	if maxChars <= 0 {
		maxChars = DefaultContextChars
	}
	from, to := lineStart(src, start), lineStop(src, end)
	if oneLine {
		from += min(markerLen(ctxLine(src, from)), start-from)
	} else if !bytes.HasPrefix(bytes.TrimLeft(ctxLine(src, from), " \t"), []byte("|")) {
		from, to = blockAround(src, start, end)
		from, to = sentenceAround(src, from, to, start, end)
	}
	from, to = min(from, start), max(to, end) // a range over a marker or line break
	before := foldSpace(string(src[from:start]))
	link := foldSpace(string(src[start:end]))
	after := foldSpace(string(src[end:to]))
	before, after = strings.TrimLeft(before, " "), strings.TrimRight(after, " ")
	before, after = clip(before, after, maxChars-utf8.RuneCountInString(link))
	return strings.ToValidUTF8(before+ContextOpen+link+ContextClose+after, "\uFFFD")
}

// blockAround returns the lines around [start, end) up to a blank line, a
// list item's start or a heading, without the list marker, quote marker
// or heading marks of its first line.
func blockAround(src []byte, start, end int) (int, int) {
	from := lineStart(src, start)
	if isHeadingLine(ctxLine(src, from)) {
		return from + markerLen(ctxLine(src, from)), lineStop(src, end)
	}
	for from > 0 {
		if opensItem(ctxLine(src, from)) {
			break
		}
		prev := lineStart(src, from-1)
		if blankLine(ctxLine(src, prev)) || isHeadingLine(ctxLine(src, from)) {
			break
		}
		from = prev
	}
	to := lineStop(src, end)
	for to < len(src) {
		next := to + 1
		line := ctxLine(src, next)
		if blankLine(line) || opensItem(line) || isHeadingLine(line) {
			break
		}
		to = lineStop(src, next)
	}
	return from + markerLen(ctxLine(src, from)), to
}

// sentenceAround narrows [from, to) to the sentence holding [start, end).
func sentenceAround(src []byte, from, to, start, end int) (int, int) {
	for i := start - 1; i > from; i-- {
		if isSpaceByte(src[i]) && strings.ContainsRune(".!?", rune(src[i-1])) {
			from = i + 1
			break
		}
	}
	for i := end; i < to-1; i++ {
		if strings.ContainsRune(".!?", rune(src[i])) && isSpaceByte(src[i+1]) {
			return from, i + 1
		}
	}
	return from, to
}

// clip shortens before (from its start) and after (from its end) so that
// both together have at most room characters, keeping as much of each
// as the other leaves, and cutting at a space where one is near.
func clip(before, after string, room int) (string, string) {
	room = max(room, 40)
	nb, na := utf8.RuneCountInString(before), utf8.RuneCountInString(after)
	if nb+na <= room {
		return before, after
	}
	keepB := min(nb, max(room/2, room-na))
	keepA := min(na, room-keepB)
	if keepB < nb {
		r := []rune(before)
		s := string(r[nb-keepB:])
		if i := strings.IndexByte(s, ' '); i >= 0 && i < len(s)/3 {
			s = s[i+1:]
		}
		before = contextEllipsis + s
	}
	if keepA < na {
		r := []rune(after)
		s := string(r[:keepA])
		if i := strings.LastIndexByte(s, ' '); i > len(s)*2/3 {
			s = s[:i]
		}
		after = s + contextEllipsis
	}
	return before, after
}

// foldSpace writes each run of spaces, line breaks, tabs and other
// control characters as one space.
func foldSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// lineStop is the offset of the end of the line holding offset at,
// without its line break.
func lineStop(src []byte, at int) int {
	if i := bytes.IndexByte(src[at:], '\n'); i >= 0 {
		return at + i
	}
	return len(src)
}

func ctxLine(src []byte, at int) []byte { return src[at:lineStop(src, at)] }

func blankLine(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

func isHeadingLine(line []byte) bool {
	t := bytes.TrimLeft(line, " ")
	rest := bytes.TrimLeft(t, "#")
	return len(rest) < len(t) && (len(rest) == 0 || rest[0] == ' ')
}

// opensItem reports whether line starts a list item or a quote.
func opensItem(line []byte) bool { return markerLen(line) > 0 && !isHeadingLine(line) }

// markerLen is the length of line's leading list marker ("- ", "* ",
// "+ ", "1. ", "1) ", a task box "[ ] " after one), quote marker ("> ")
// or heading marks, with the spaces around it; 0 when it has none.
func markerLen(line []byte) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	switch {
	case j < len(line) && strings.IndexByte("-*+>", line[j]) >= 0:
		j++
	case j < len(line) && line[j] == '#':
		for j < len(line) && line[j] == '#' {
			j++
		}
	default:
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j == i || j >= len(line) || (line[j] != '.' && line[j] != ')') {
			return 0
		}
		j++
	}
	if j < len(line) && line[j] != ' ' && line[j] != '\t' {
		return 0
	}
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	if k := j + 3; k < len(line) && line[j] == '[' && line[j+2] == ']' && line[k] == ' ' {
		j = k + 1
	}
	return j
}
