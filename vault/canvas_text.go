package vault

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// CanvasTextEdits turns edits of the decoded text of the canvas string s
// (a text node's markdown) into edits of the canvas's bytes: each edit's
// range is mapped back through the JSON escapes and its new text is
// JSON-escaped, so that every other byte of the canvas, escapes
// included, stays as it is. An edit that would cut an escape in two, or
// a string this decoder reads differently from encoding/json, is an
// error and no edit is returned.
func CanvasTextEdits(data []byte, s CanvasString, edits []Edit) ([]Edit, error) {
	if s.Start < 0 || s.End > len(data) || s.Start >= s.End {
		return nil, fmt.Errorf("canvas text at line %d: %w", s.Line, ErrEditRange)
	}
	text, at, ok := decodeJSONString(data[s.Start:s.End])
	if !ok || text != s.Value {
		return nil, fmt.Errorf("canvas text at line %d: its JSON escapes cannot be mapped", s.Line)
	}
	out := make([]Edit, 0, len(edits))
	for _, ed := range edits {
		start, ok1 := at[ed.Start]
		end, ok2 := at[ed.End]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("canvas text at line %d: an edit [%d,%d) cuts a JSON escape", s.Line, ed.Start, ed.End)
		}
		q := QuoteJSON(ed.Text)
		out = append(out, Edit{Start: s.Start + start, End: s.Start + end, Text: q[1 : len(q)-1]})
	}
	return out, nil
}

// decodeJSONString decodes the JSON string raw (quotes included) and
// maps each offset of the decoded text that starts or ends one unit of
// raw (a character as written, or one escape) to its offset in raw. ok
// is false for a string it cannot read.
func decodeJSONString(raw []byte) (text string, at map[int]int, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", nil, false
	}
	var b strings.Builder
	at = map[int]int{0: 1}
	end := len(raw) - 1
	for i := 1; i < end; {
		n := 1
		c := raw[i]
		switch {
		case c == '\\' && i+1 < end:
			var r rune
			if r, n = decodeEscape(raw[i:end]); n == 0 {
				return "", nil, false
			}
			b.WriteRune(r)
		case c < 0x20 || c == '"' || c == '\\':
			return "", nil, false
		default:
			r, size := utf8.DecodeRune(raw[i:end])
			if r == utf8.RuneError && size == 1 {
				return "", nil, false // encoding/json would write U+FFFD
			}
			n = size
			b.Write(raw[i : i+n])
		}
		i += n
		at[b.Len()] = i
	}
	return b.String(), at, true
}

// decodeEscape decodes the escape at the start of s (which begins with a
// backslash): the rune and the escape's length, 0 when it is not one.
func decodeEscape(s []byte) (rune, int) {
	if i := strings.IndexByte(`"\/bfnrt`, s[1]); i >= 0 {
		return rune("\"\\/\b\f\n\r\t"[i]), 2
	}
	if s[1] == 'u' {
		r1, ok := hex4(s[2:])
		if !ok {
			return 0, 0
		}
		if !utf16.IsSurrogate(r1) {
			return r1, 6
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if r2, ok := hex4(s[8:]); ok {
				if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
					return r, 12
				}
			}
		}
		return utf8.RuneError, 6 // a lone surrogate, as encoding/json reads it
	}
	return 0, 0
}

// hex4 reads four hex digits.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s[:4]), 16, 16)
	return rune(v), err == nil
}
