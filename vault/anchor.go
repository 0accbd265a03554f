package vault

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// headingPunct are the characters Obsidian reads as spaces when it
// compares a link's heading with a note's headings (its stripHeading):
// ASCII punctuation except the apostrophe, '-' and '_'.
const headingPunct = "!\"#$%&()*+,.:;<=>?@^`{|}~/[]\\"

// HeadingKey is the form in which a heading and the heading part of a
// link are compared, as Obsidian compares them: each of the characters
// ! " # $ % & ( ) * + , . : ; < = > ? @ ^ ` { | } ~ / [ ] \ becomes a space
// (Obsidian writes "[[N#wifi 2 4]]" for "# wifi 2.4" and finds
// "# Minecraft: The Game" from "[[N#Minecraft The Game]]"), runs of
// white space become one space, the ends are trimmed and letters are
// folded to lower case. Other characters ('-', '_', the apostrophe,
// non-ASCII punctuation) are kept as they are.
func HeadingKey(s string) string {
	return string(appendHeadingKey(make([]byte, 0, len(s)), s))
}

// appendHeadingKey appends HeadingKey(s) to dst and returns it, so that a
// comparison can build keys in a buffer of its own.
func appendHeadingKey(dst []byte, s string) []byte {
	start, space := len(dst), false
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(headingPunct, r) || unicode.IsSpace(r) || r == '\uFEFF' {
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// SplitAnchor splits a link fragment (Link.Fragment, the text after the
// first '#') into its parts: "H1#H2" is a heading H2 under H1, "^id" a
// block. Empty parts ("##", a trailing '#') are dropped, as Obsidian
// ignores them.
func SplitAnchor(fragment string) []string {
	var parts []string
	for _, p := range strings.Split(fragment, "#") {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, p)
		}
	}
	return parts
}

// HasAnchor reports whether fragment names a heading or block of the note
// (AnchorProblem returns "").
func (n *Note) HasAnchor(fragment string) bool {
	return n.AnchorProblem(fragment) == ""
}

// AnchorProblem says why fragment (Link.Fragment) names no heading or
// block of the note, as Obsidian resolves it, or returns "" when it does.
// An empty fragment is the whole note. A fragment that is one "^id" is a
// block, matched without regard to case. Otherwise every part is a
// heading (HeadingKey): the first part matches the first heading with its
// key, and each next part the first heading after the one matched before
// whose level is deeper than it ("[[N#H1#H2]]"), wherever that is.
func (n *Note) AnchorProblem(fragment string) string {
	parts := SplitAnchor(fragment)
	if isBlockAnchor(parts) {
		id := strings.TrimPrefix(strings.TrimSpace(parts[0]), "^")
		if n.hasBlockID(id) {
			return ""
		}
		return "no block ^" + id
	}
	for i, at := range walkHeadings(n.Headings, parts, n.findHeading) {
		if at >= 0 {
			continue
		}
		if i == 0 {
			return fmt.Sprintf("no heading %q", strings.TrimSpace(parts[i]))
		}
		return fmt.Sprintf("no heading %q below %q", strings.TrimSpace(parts[i]), strings.TrimSpace(parts[i-1]))
	}
	return ""
}

// walkHeadings finds the heading parts of a fragment as Obsidian does:
// the first part is the first heading with its key, each next part the
// first heading after the one matched before and deeper than it. find
// returns the first heading at or after from, deeper than level, whose
// key is key, or -1. The answer holds, for each part, the index of its
// heading in headings, or -1 from the first part that names none.
func walkHeadings(headings []Heading, parts []string, find func(key string, from, level int) int) []int {
	out := make([]int, len(parts))
	from, level, found := 0, 0, true
	for i, p := range parts {
		out[i] = -1
		if !found {
			continue
		}
		at := find(HeadingKey(p), from, level)
		if found = at >= 0; found {
			out[i], from, level = at, at+1, headings[at].Level
		}
	}
	return out
}

// isBlockAnchor reports whether the parts of a fragment are one "^id".
func isBlockAnchor(parts []string) bool {
	return len(parts) == 1 && strings.HasPrefix(strings.TrimSpace(parts[0]), "^")
}

// findHeading returns the index in n.Headings of the first heading at or
// after from, deeper than level, whose key is key (HeadingKey), or -1.
func (n *Note) findHeading(key string, from, level int) int {
	var buf [256]byte
	for i := from; i < len(n.Headings); i++ {
		if n.Headings[i].Level > level && string(appendHeadingKey(buf[:0], n.Headings[i].Text)) == key {
			return i
		}
	}
	return -1
}

func (n *Note) hasBlockID(id string) bool {
	return slices.ContainsFunc(n.BlockIDs, func(b string) bool { return strings.EqualFold(b, id) })
}
