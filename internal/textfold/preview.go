package textfold

import (
	"strings"
	"unicode"
)

// Ellipsis marks where a snippet or preview leaves text out.
const Ellipsis = "…"

// DropTitleHeading removes a first line "# Title" (any level, any case)
// that repeats the note's title, with the blank space around it; s is
// returned as it is when it has no such heading.
func DropTitleHeading(s, title string) string {
	line, rest, _ := strings.Cut(strings.TrimLeft(s, " \t\r\n"), "\n")
	if !IsTitleHeading(line, title) {
		return s
	}
	return strings.TrimLeft(rest, " \t\r\n")
}

// IsTitleHeading reports whether line is a heading ("#" to "######"…
// then a space) whose text is title, in any letter case.
func IsTitleHeading(line, title string) bool {
	h := strings.TrimLeft(line, "#")
	if len(h) == len(line) || !strings.HasPrefix(h, " ") {
		return false // "#Title" is a tag, not a heading
	}
	return strings.EqualFold(NFC(strings.TrimSpace(h)), NFC(strings.TrimSpace(title)))
}

// Flatten puts s on one line: runs of white space become one space, and
// none is left at either end.
func Flatten(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// Preview is the start of a note's text for a list: a first heading that
// repeats the title left out (DropTitleHeading), white space folded into
// single spaces, cut at a word boundary to at most n characters, Ellipsis
// where it was cut.
func Preview(text, title string, n int) string {
	words := strings.FieldsFunc(DropTitleHeading(text, title), unicode.IsSpace)
	var b strings.Builder
	used := 0
	for i, w := range words {
		wn := len([]rune(w))
		if i > 0 {
			wn++
		}
		if used+wn > n {
			if b.Len() == 0 { // one long word: cut it
				b.WriteString(string([]rune(w)[:n]))
			}
			b.WriteString(Ellipsis)
			return b.String()
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		used += wn
	}
	return b.String()
}
