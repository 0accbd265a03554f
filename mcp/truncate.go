package mcp

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Content limits, in characters, from SPEC.md.
const (
	PrimaryContentChars  = 10000 // the note asked for
	ListContentChars     = 500   // each item of a list
	NeighborContentChars = 200   // neighbours shown with a note
)

// TruncationMark ends content that was cut.
const TruncationMark = "... [truncated]"

// Truncate returns s cut to at most max characters at a word boundary,
// followed by TruncationMark, or s itself when it fits. It never splits a
// multi-byte character, and bold that the cut leaves open ("**" of a
// search snippet) is closed.
func Truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n := 0, 0
	for i := range s {
		if n == max {
			cut = i
			break
		}
		n++
	}
	// Back up to the last space so no word is split, unless the cut is
	// already at the end of a word or backing up would throw away most of
	// the text (one very long word).
	next, _ := utf8.DecodeRuneInString(s[cut:])
	if sp := strings.LastIndexFunc(s[:cut], unicode.IsSpace); !unicode.IsSpace(next) && sp > cut/2 {
		cut = sp
	}
	kept := strings.TrimRightFunc(s[:cut], unicode.IsSpace)
	if strings.Count(kept, bold)%2 == 1 && strings.Count(s, bold)%2 == 0 {
		kept += bold
	}
	return kept + TruncationMark
}

// bold opens and closes bold text in Markdown (and search snippets).
const bold = "**"
