package vault

import (
	"bytes"
	"strconv"
	"strings"
)

// encodeDestination writes the vault path p as a markdown link destination
// in the style of raw (see Retarget).
func encodeDestination(p, raw string, angle bool) string {
	nonASCII, lower := escapeStyle(raw)
	upper, nonASCII := !lower, nonASCII && !angle
	must := func(c byte) bool {
		switch {
		case c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '|' || c == '\\' || c == '`':
			return true
		case angle:
			return false
		case c == ' ' || c == '(' || c == ')':
			return true
		}
		return nonASCII && c >= 0x80
	}
	out := percentEncode(p, must, upper)
	if out != p || decodeDestination(p) != p {
		// Once the text holds escapes it is decoded as a whole: a '%' of
		// the name must be one too.
		out = percentEncode(p, func(c byte) bool { return c == '%' || must(c) }, upper)
	}
	if unescapeDestination(out) != out {
		out = percentEncode(p, func(c byte) bool { return c == '%' || c == '&' || must(c) }, upper)
	}
	return out
}

func percentEncode(s string, must func(byte) bool, upper bool) string {
	hex := "0123456789ABCDEF"
	if !upper {
		hex = "0123456789abcdef"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if must(c) {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeStyle reports whether s has a well-formed %XX escape of a
// non-ASCII byte, and one with lower-case hex digits.
func escapeStyle(s string) (nonASCII, lower bool) {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
			nonASCII = nonASCII || v >= 0x80
			lower = lower || s[i+1] >= 'a' || s[i+2] >= 'a'
			i += 2
		}
	}
	return nonASCII, lower
}

// destinationRest returns the part of a markdown link destination from
// offset at (the end of its target) to its end: "#fragment" or "".
func destinationRest(src []byte, at int, angle bool) string {
	if at >= len(src) || src[at] != '#' {
		return ""
	}
	end := destinationEnd(src, at)
	if angle {
		end = len(src)
		if i := bytes.IndexAny(src[at:], ">\n\r"); i >= 0 {
			end = at + i
		}
	}
	return string(src[at:end])
}

// yamlQuote returns the quote (double or single) of the YAML scalar that holds
// the offset at, found by reading its line from the start, or 0 when the
// line does not show one opening (a plain scalar, or a quoted one that
// began on an earlier line).
func yamlQuote(src []byte, at int) byte {
	start := lineStart(src, at)
	var q byte
	prev := byte(0) // the last non-space byte outside quotes; 0 at line start
	for i := start; i < at; i++ {
		c := src[i]
		switch q {
		case '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				q, prev = 0, c
			}
			continue
		case '\'':
			if c == '\'' {
				if i+1 < at && src[i+1] == '\'' {
					i++
				} else {
					q, prev = 0, c
				}
			}
			continue
		}
		switch {
		case (c == '"' || c == '\'') && strings.IndexByte("\x00:-[,{?", prev) >= 0:
			q = c
		case c != ' ' && c != '\t':
			prev = c
		}
	}
	return q
}

// yamlUnprintable reports whether r must be escaped in a YAML scalar.
func yamlUnprintable(r rune) bool {
	return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF
}

// backtickBefore reports whether a '`' comes before offset at in its
// paragraph (looked for back to the last blank line), where a '`' written
// in a link could close it into a code span.
func backtickBefore(src []byte, at int) bool {
	start := at
	for start > 0 {
		nl := bytes.LastIndexByte(src[:start], '\n')
		if nl < 0 {
			start = 0
			break
		}
		if len(bytes.TrimSpace(src[nl:start])) == 0 && start < at {
			break // the line from nl to start is blank
		}
		start = nl
	}
	return bytes.IndexByte(src[start:at], '`') >= 0
}
