package vault

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// headingLinkStrip replaces what Obsidian's stripHeadingForLink replaces
// with a space: ':', '#', '|', '^', backslash, line breaks, "%%", "[["
// and "]]".
var headingLinkStrip = strings.NewReplacer(
	":", " ", "#", " ", "|", " ", "^", " ", `\`, " ", "\r", " ", "\n", " ",
	"%%", " ", "[[", " ", "]]", " ")

// HeadingLinkText is what Obsidian writes after the '#' of a link to a
// heading whose text is s (its stripHeadingForLink, which "Copy link to
// heading", link completion and heading renames use): ':', '#', '|',
// '^', backslash, line breaks, "%%", "[[" and "]]" become spaces, runs of
// white space one space, and the ends are trimmed. "Q3: Goals #1" gives
// "Q3 Goals 1", which finds the heading again (HeadingKey).
func HeadingLinkText(s string) string {
	return strings.Join(strings.Fields(headingLinkStrip.Replace(s)), " ")
}

// Anchors finds link fragments among the headings of one note the way
// AnchorProblem does, with each heading's key (HeadingKey) worked out
// once: for the many links a heading rename looks at.
type Anchors struct {
	note  *Note
	byKey map[string][]int // heading indexes by key, in file order
}

// NewAnchors indexes the headings of n, which must not change meanwhile.
func NewAnchors(n *Note) *Anchors {
	a := &Anchors{note: n, byKey: make(map[string][]int, len(n.Headings))}
	for i, h := range n.Headings {
		k := HeadingKey(h.Text)
		a.byKey[k] = append(a.byKey[k], i)
	}
	return a
}

// find is findHeading over the index: the first heading at or after from,
// deeper than level, whose key is key, or -1.
func (a *Anchors) find(key string, from, level int) int {
	for _, i := range a.byKey[key] {
		if i >= from && a.note.Headings[i].Level > level {
			return i
		}
	}
	return -1
}

// Headings returns, for each part of fragment (SplitAnchor), the index in
// the note's Headings of the heading it names, found as AnchorProblem
// finds it (each part the first heading after the one before and deeper
// than it), or -1 for a part that names no heading (and every part after
// it) and for a fragment that is one "^id" block part.
func (a *Anchors) Headings(fragment string) []int {
	parts := SplitAnchor(fragment)
	if isBlockAnchor(parts) {
		return []int{-1} // one part
	}
	return walkHeadings(a.note.Headings, parts, a.find)
}

// Has reports whether fragment names a heading or block of the note, as
// Note.HasAnchor does.
func (a *Anchors) Has(fragment string) bool {
	if parts := SplitAnchor(fragment); len(parts) == 0 || isBlockAnchor(parts) {
		return a.note.HasAnchor(fragment)
	}
	return !slices.Contains(a.Headings(fragment), -1)
}

// Rename returns fragment (a Link.Fragment of a link to the note) with
// each heading part that names the heading h (Headings) replaced by
// text, the white space around the part and every other byte kept, and
// whether any part was replaced.
func (a *Anchors) Rename(fragment string, h int, text string) (string, bool) {
	parts := SplitAnchor(fragment)
	idx := a.Headings(fragment)
	var b strings.Builder
	at, changed := 0, false
	for i, p := range parts {
		j := strings.Index(fragment[at:], p)
		if j < 0 {
			return fragment, false // not a piece of fragment: leave it
		}
		j += at
		b.WriteString(fragment[at:j])
		at = j + len(p)
		if idx[i] != h {
			b.WriteString(p)
			continue
		}
		core := strings.TrimSpace(p)
		lead := p[:strings.Index(p, core)]
		b.WriteString(lead + text + p[len(lead)+len(core):])
		changed = true
	}
	b.WriteString(fragment[at:])
	return b.String(), changed
}

// FragmentEdit returns the Edit that makes link l of src (a note's bytes;
// l from Parse or ParseForRewrite) name fragment (decoded, as
// Link.Fragment holds it) after its '#', written the way the link is:
//   - in a wikilink or embed, as is;
//   - in a markdown link, percent-encoded in the style of the destination
//     as written (see retarget: inside <...> only what the brackets cannot
//     hold, else spaces as %20 and so on; non-ASCII encoded if the
//     destination encodes it, hex digits in its case);
//   - in a frontmatter link, escaped for the quotes around it.
//
// Only a link that has a fragment can be given one; the fragment as
// written must read as l.Fragment. Text that would end the link or break
// what holds it (a line break; in a wikilink '|', "[[", "]]" or a final
// ']' or backslash; in a plain frontmatter scalar a quote, backslash, ':
// ', ' #', ',', '{' or '}' the fragment did not have) is refused. Every
// error wraps ErrCannotRetarget. The caller should parse the result again
// to check it: a '`' or '<' could still change what the paragraph means.
func FragmentEdit(src []byte, l Link, fragment string) (Edit, error) {
	fail := func(format string, args ...any) (Edit, error) {
		return Edit{}, fmt.Errorf("rewrite the heading part of the link at line %d to %q: %s: %w",
			l.Line, fragment, fmt.Sprintf(format, args...), ErrCannotRetarget)
	}
	start, end, ok := fragmentRange(src, l)
	if !ok {
		return fail("no '#' part found after the link's target")
	}
	if strings.ContainsAny(fragment, "\r\n\x00") {
		return fail("a line break or NUL cannot be written in a link")
	}
	raw := string(src[start:end])
	var text string
	switch l.Kind {
	case KindMarkdown, KindImage:
		angle := l.TargetStart > 0 && src[l.TargetStart-1] == '<'
		target := string(src[l.TargetStart:l.TargetEnd])
		if markdownFragment(target, raw) != l.Fragment {
			return fail("the destination %q does not read as its fragment %q", target+"#"+raw, l.Fragment)
		}
		text = encodeDestination(fragment, target+"#"+raw, angle) // in the style of the whole destination
		if markdownFragment(target, text) != fragment {
			return fail("%q would not read back as the heading", text)
		}
	case KindFrontmatter:
		var err error
		if text, err = frontmatterFragment(src, l, raw, fragment); err != nil {
			return fail("%v", err)
		}
	default:
		if raw != l.Fragment {
			return fail("the fragment as written, %q, is not %q", raw, l.Fragment)
		}
		if reason := wikiFragmentUnwritable(fragment); reason != "" {
			return fail("%s", reason)
		}
		text = fragment
	}
	return Edit{Start: start, End: end, Text: text}, nil
}

// fragmentRange returns the byte range in src of the fragment of link l as
// written: after the '#' that follows the target, up to the alias ('|',
// or "\|" in a table) or the closing "]]" of a wikilink, up to the end of
// a markdown destination.
func fragmentRange(src []byte, l Link) (start, end int, ok bool) {
	at := l.TargetEnd
	if l.TargetStart < 0 || at < l.TargetStart || at >= len(src) || src[at] != '#' {
		return 0, 0, false
	}
	switch l.Kind {
	case KindMarkdown, KindImage:
		angle := l.TargetStart > 0 && src[l.TargetStart-1] == '<'
		rest := destinationRest(src, at, angle)
		return at + 1, at + len(rest), true
	}
	stop := l.End - 2
	if stop < at+1 || stop > len(src) || string(src[stop:l.End]) != "]]" {
		return 0, 0, false
	}
	end = stop
	if i := bytes.IndexByte(src[at+1:stop], '|'); i >= 0 {
		end = at + 1 + i
		if end > at+1 && src[end-1] == '\\' {
			end-- // "\|" in a table
		}
	}
	return at + 1, end, true
}

// markdownFragment is the fragment the parser reads from a markdown
// destination written as target, '#', frag.
func markdownFragment(target, frag string) string {
	_, fragment := splitDestination(target + "#" + frag)
	return fragment
}

// frontmatterFragment writes fragment for the frontmatter link l, whose
// fragment is written raw, escaped for the YAML scalar around it.
func frontmatterFragment(src []byte, l Link, raw, fragment string) (string, error) {
	if strings.IndexFunc(fragment, yamlUnprintable) >= 0 {
		return "", fmt.Errorf("a control character cannot be written in a frontmatter value")
	}
	if reason := wikiFragmentUnwritable(fragment); reason != "" {
		return "", fmt.Errorf("%s", reason)
	}
	if q, ok := frontmatterQuoteAt(src, l.Start, l.End); ok && (q == '"' || q == '\'') {
		dec, ok := unquoteFragment(raw, q)
		if !ok || dec != l.Fragment {
			return "", fmt.Errorf("the quoted value %q does not read as %q", raw, l.Fragment)
		}
		return quoteYAML(fragment, q), nil
	} else if ok && q == quoteBlock {
		return fragment, nil
	}
	if raw != l.Fragment {
		return "", fmt.Errorf("the value %q does not read as %q", raw, l.Fragment)
	}
	for _, bad := range []string{`"`, `'`, `\`, ": ", " #", ",", "{", "}"} {
		if strings.Contains(fragment, bad) && !strings.Contains(raw, bad) {
			return "", fmt.Errorf("%q cannot be written in a frontmatter value without quotes", bad)
		}
	}
	return fragment, nil
}

// wikiFragmentUnwritable says why fragment cannot follow the '#' of a
// wikilink, or "".
func wikiFragmentUnwritable(fragment string) string {
	switch {
	case strings.Contains(fragment, "|"):
		return "'|' would start the alias"
	case strings.Contains(fragment, "[[") || strings.Contains(fragment, "]]"):
		return "\"[[\" or \"]]\" would open or close a link"
	case strings.HasSuffix(fragment, "]") || strings.HasSuffix(fragment, `\`):
		return "a final ']' or backslash would join the closing \"]]\""
	}
	return ""
}
