package vault

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// decodeQuoted decodes the YAML quoted scalar (single or double quotes)
// whose opening quote is raw[at], the way the YAML parser does: a doubled
// apostrophe in single quotes, backslash escapes in double quotes, line folding in
// both. It returns the value and, for each byte of it, the offset in raw
// where the text that byte comes from starts (an escape, a folded line
// break), with one more entry: the offset of the closing quote. ok is
// false when raw[at] is not a quote or the scalar does not close, or
// holds an escape the YAML parser would refuse.
func decodeQuoted(raw []byte, at int) (val []byte, from []int, ok bool) {
	if at < 0 || at >= len(raw) || raw[at] != '\'' && raw[at] != '"' {
		return nil, nil, false
	}
	quote := raw[at]
	emit := func(src int, b ...byte) {
		for _, c := range b {
			val = append(val, c)
			from = append(from, src)
		}
	}
	i := at + 1
	for {
		// Non-blank characters.
		leadingBlanks := false
		for i < len(raw) && !isYAMLBlank(raw[i]) && yamlBreak(raw, i) == 0 {
			c := raw[i]
			switch {
			case quote == '\'' && c == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
				emit(i, '\'')
				i += 2
				continue
			case c == quote:
				return val, append(from, i), true
			case quote == '"' && c == '\\' && yamlBreak(raw, i+1) > 0:
				i += 1 + yamlBreak(raw, i+1) // an escaped line break: joined with nothing
				leadingBlanks = true
			case quote == '"' && c == '\\':
				b, n, good := yamlEscape(raw[i+1:])
				if !good {
					return nil, nil, false
				}
				emit(i, b...)
				i += 1 + n
				continue
			default:
				emit(i, c)
				i++
				continue
			}
			break
		}
		if i >= len(raw) {
			return nil, nil, false
		}
		i = foldQuotedSpace(raw, i, leadingBlanks, emit)
	}
}

// foldQuotedSpace reads the blanks and line breaks at raw[i:] inside a
// quoted scalar and emits them folded as YAML does; leadingBlanks says
// the text before ended in an escaped line break (blanks after it are
// dropped). It returns the offset of the next non-blank character.
func foldQuotedSpace(raw []byte, i int, leadingBlanks bool, emit func(src int, b ...byte)) int {
	wsStart := i
	var spaces []int // offsets of the blanks kept
	var leadingBreak, trailingBreaks []byte
	for i < len(raw) {
		if isYAMLBlank(raw[i]) {
			if !leadingBlanks {
				spaces = append(spaces, i)
			}
			i++
			continue
		}
		n := yamlBreak(raw, i)
		if n == 0 {
			break
		}
		// CR, LF and NEL read as LF; the line and paragraph
		// separators as themselves.
		br := []byte{'\n'}
		if n == 3 {
			br = raw[i : i+3]
		}
		if !leadingBlanks {
			spaces = nil
			leadingBreak, leadingBlanks = br, true
		} else {
			trailingBreaks = append(trailingBreaks, br...)
		}
		i += n
	}
	switch {
	case !leadingBlanks:
		for _, s := range spaces {
			emit(s, raw[s])
		}
	case len(leadingBreak) == 1 && len(trailingBreaks) == 0:
		emit(wsStart, ' ')
	case len(leadingBreak) == 1:
		emit(wsStart, trailingBreaks...)
	default:
		emit(wsStart, leadingBreak...)
		emit(wsStart, trailingBreaks...)
	}
	return i
}

func isYAMLBlank(c byte) bool { return c == ' ' || c == '\t' }

// yamlBreak returns the length of the line break at raw[i] (CR LF, CR,
// LF, NEL, or the line or paragraph separator), or 0.
func yamlBreak(raw []byte, i int) int {
	switch {
	case i >= len(raw):
		return 0
	case raw[i] == '\r' && i+1 < len(raw) && raw[i+1] == '\n':
		return 2
	case raw[i] == '\r' || raw[i] == '\n':
		return 1
	case raw[i] == 0xC2 && i+1 < len(raw) && raw[i+1] == 0x85:
		return 2
	case raw[i] == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9):
		return 3
	}
	return 0
}

// yamlEscape decodes the escape after a backslash of a double-quoted
// scalar, at the start of s: its bytes, and how many bytes of s it takes.
func yamlEscape(s []byte) (out []byte, n int, ok bool) {
	if len(s) == 0 {
		return nil, 0, false
	}
	simple := map[byte]string{
		'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v", 'f': "\f",
		'r': "\r", 'e': "\x1b", ' ': " ", '"': `"`, '/': "/", '\\': `\`,
		'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
	}
	if r, ok := simple[s[0]]; ok {
		return []byte(r), 1, true
	}
	digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[0]]
	if digits == 0 || len(s) < 1+digits {
		return nil, 0, false
	}
	v, err := strconv.ParseUint(string(s[1:1+digits]), 16, 32)
	if err != nil || (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF {
		return nil, 0, false
	}
	return utf8.AppendRune(nil, rune(v)), 1 + digits, true
}

// unquoteFragment decodes text that stands inside a YAML scalar quoted
// with quote, from the start of one of its characters (or escapes) to the
// end of another: the link target written in a quoted frontmatter value.
func unquoteFragment(text string, quote byte) (string, bool) {
	wrapped := slices.Concat([]byte{quote}, []byte(text), []byte{quote})
	val, from, ok := decodeQuoted(wrapped, 0)
	if !ok || from[len(from)-1] != len(wrapped)-1 {
		return "", false // a quote of text closed the scalar early
	}
	return string(val), true
}

// quoteYAML writes s for a YAML scalar quoted with quote: in single quotes
// an apostrophe is doubled; in double quotes '"' and backslash are
// escaped. Other characters are written as they are (the rewriter never
// writes control characters into frontmatter).
func quoteYAML(s string, quote byte) string {
	switch quote {
	case '\'':
		return strings.ReplaceAll(s, "'", "''")
	case '"':
		return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	}
	return s
}

// scalarOffset returns the offset in raw (a YAML text whose line starts
// are lines) where the scalar v starts, or -1. YAML columns count
// characters.
func scalarOffset(raw []byte, lines lineIndex, v *yaml.Node) int {
	if v.Line < 1 || v.Line > len(lines) {
		return -1
	}
	at := lines[v.Line-1]
	for col := 1; col < v.Column && at < len(raw) && raw[at] != '\n'; col++ {
		_, size := utf8.DecodeRune(raw[at:])
		at += size
	}
	return at
}

// Scalar styles of a frontmatter link, as linkContext.quote holds them
// besides the quote characters themselves.
const (
	quotePlain byte = 0   // a plain scalar, or not known
	quoteBlock byte = '|' // a literal or folded block scalar
)

// frontmatterQuoteAt returns how the frontmatter scalar of src that holds
// the bytes [start, end) is written: a double or single quote (quoted), quoteBlock, or
// quotePlain; ok is false when src has no frontmatter that parses or no
// scalar there.
func frontmatterQuoteAt(src []byte, start, end int) (quote byte, ok bool) {
	off := bomLen(src)
	rawStart, rawEnd, blockEnd := findFrontmatter(src[off:], len(src))
	if blockEnd == 0 {
		return 0, false
	}
	rawStart += off
	rawEnd += off
	if start < rawStart || end > rawEnd {
		return 0, false
	}
	raw := src[rawStart:rawEnd]
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return 0, false
	}
	lines := newLineIndex(raw)
	at := start - rawStart
	var best *yaml.Node
	bestAt := -1
	walkScalars(&doc, MaxPropertyDepth+2, func(n *yaml.Node) {
		if o := scalarOffset(raw, lines, n); o >= 0 && o <= at && o >= bestAt {
			best, bestAt = n, o
		}
	})
	if best == nil {
		return 0, false
	}
	switch {
	case best.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0:
		_, from, ok := decodeQuoted(raw, bestAt)
		if !ok || end-rawStart > from[len(from)-1] {
			return 0, false // the link is not inside the quotes
		}
		return raw[bestAt], true
	case best.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return quoteBlock, true
	}
	return quotePlain, true
}
