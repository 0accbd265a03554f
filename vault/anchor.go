package vault

import (
	"strings"
	"unicode"
)

// HeadingKey is the form in which a heading and the heading part of a
// link are compared, as Obsidian compares them: every punctuation or
// symbol character becomes a space (Obsidian writes "[[N#wifi 2 4]]" for
// "# wifi 2.4" and finds "# Minecraft: The Game" from "[[N#Minecraft The
// Game]]"), runs of spaces become one, the ends are trimmed and letters
// are folded to lower case.
func HeadingKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r) || unicode.IsControl(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
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

// HasAnchor reports whether fragment names a heading or block of the note.
// An empty fragment is the whole note. A block part ("^id", compared
// without regard to case) must be a block id of the note; heading parts
// must match headings (by HeadingKey) that follow one another in the
// note, each after the one before it, as Obsidian resolves "[[N#H1#H2]]".
func (n *Note) HasAnchor(fragment string) bool {
	parts := SplitAnchor(fragment)
	from := 0
	for _, p := range parts {
		if id, ok := strings.CutPrefix(strings.TrimSpace(p), "^"); ok {
			if !n.hasBlockID(id) {
				return false
			}
			continue
		}
		i := n.findHeading(HeadingKey(p), from)
		if i < 0 {
			return false
		}
		from = i + 1
	}
	return true
}

// FindHeading returns the index in n.Headings of the first heading at or
// after from whose key is key (HeadingKey), or -1.
func (n *Note) findHeading(key string, from int) int {
	for i := from; i < len(n.Headings); i++ {
		if HeadingKey(n.Headings[i].Text) == key {
			return i
		}
	}
	return -1
}

func (n *Note) hasBlockID(id string) bool {
	for _, b := range n.BlockIDs {
		if strings.EqualFold(b, id) {
			return true
		}
	}
	return false
}
