package vault

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Errors of SetFrontmatter.
var (
	// ErrBadFrontmatter is a note whose frontmatter cannot be edited
	// safely: malformed YAML, not a map of properties, a key given twice,
	// or a form that cannot be changed in place without touching other
	// properties (a flow map "{a: 1}", complex keys, several YAML
	// documents, an anchor used by another property).
	ErrBadFrontmatter = errors.New("frontmatter cannot be edited")
	// ErrBadProperty is a property or tag given to SetFrontmatter that
	// cannot be written: an empty key, invalid UTF-8, a value YAML cannot
	// hold, or text that is not a tag.
	ErrBadProperty = errors.New("invalid property")
)

// editParser finds frontmatter for the editing functions exactly as Parse
// does.
var editParser = sync.OnceValue(NewParser)

// locateFrontmatter finds the frontmatter of src the way Parse does; ok is
// false when src has none. Only the lines up to the closing "---" are
// parsed.
func locateFrontmatter(src []byte) (blk fmBlock, ok bool) {
	off := bomLen(src)
	body := src[off:]
	limit := len(body)
	if len(src) > MaxParseBytes {
		limit = MaxParseBytes
	}
	_, _, cut := findFrontmatter(body, limit)
	if cut == 0 {
		return blk, false
	}
	_, fm, _ := editParser().parseMarkdown(body[:cut], 0)
	if fm == nil {
		return blk, false
	}
	return fmBlock{rawStart: off + fm.rawStart, rawEnd: off + fm.rawEnd, end: off + fm.end}, true
}

// fileEOL returns the line ending of src's first line: "\r\n", "\n", or ""
// when src has no line ending.
func fileEOL(src []byte) string {
	i := bytes.IndexByte(src, '\n')
	switch {
	case i < 0:
		return ""
	case i > 0 && src[i-1] == '\r':
		return "\r\n"
	}
	return "\n"
}

// ReplaceBody returns src with everything after its frontmatter replaced
// by body. The frontmatter block (and a leading byte-order mark) is kept
// byte for byte. body is written as given, except that its line endings
// become the file's: CRLF when the file's first line ends in CRLF, LF
// when it ends in LF (a file with no line ending leaves body as it is).
// So the result ends in a newline exactly when body does. When the
// closing "---" is the file's last line without a line ending, one is
// added before a non-empty body.
func ReplaceBody(src []byte, body string) []byte {
	keep := bomLen(src)
	blk, hasFM := locateFrontmatter(src)
	if hasFM {
		keep = blk.end
	}
	eol := fileEOL(src)
	body = convertEOL(body, eol)
	out := make([]byte, 0, keep+len(body)+2)
	out = append(out, src[:keep]...)
	if hasFM && body != "" && src[keep-1] != '\n' {
		out = append(out, eol...) // the closing "---" ended the file
	}
	return append(out, body...)
}

// convertEOL rewrites the line endings of s (LF or CRLF) as eol; "" keeps
// them.
func convertEOL(s, eol string) string {
	switch eol {
	case "\n":
		return strings.ReplaceAll(s, "\r\n", "\n")
	case "\r\n":
		s = strings.ReplaceAll(s, "\r\n", "\n")
		return strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// SetFrontmatter returns src with its frontmatter properties changed and
// every other byte kept:
//
//   - each of props sets its key (an existing key matched exactly, else
//     case-insensitively, keeps its spelling and place) or, when its Value
//     is nil, removes it; later props win over earlier ones;
//   - when setTags, tags replace the "tags" property (also "tag" or any
//     letter case); an empty list removes it. Tags are normalised as
//     NormalizeTag does and de-duplicated; setTags is applied after props.
//
// Keys not mentioned keep their bytes and order. A changed key's whole
// entry (key line and value lines, also a multi-line list) is rewritten in
// place, keeping a comment at the end of its key line; comment and blank
// lines after it stay. New keys are appended at the end of the
// frontmatter; a note without frontmatter gets one. Values are written as
// YAML the way Obsidian writes properties: lists as block lists indented
// two spaces, strings double-quoted when they need quotes ("[[Note]]"), a
// time.Time with no time of day as YYYY-MM-DD. A value equal to the one
// already there is left as written. The file's line ending (from its first
// line) is used for every line written, and a missing final newline stays
// missing.
//
// Frontmatter that is malformed, not a map, or cannot be edited in place
// is an error wrapping ErrBadFrontmatter; a bad key, value or tag wraps
// ErrBadProperty; binary data wraps ErrBinary. On error src is not
// changed. The result is a new slice.
func SetFrontmatter(src []byte, tags []string, setTags bool, props []Property) ([]byte, error) {
	out, _, err := setFrontmatter(src, tags, setTags, props)
	return out, err
}

// setFrontmatter is SetFrontmatter; it also returns the edit made, nil
// when nothing changed.
func setFrontmatter(src []byte, tags []string, setTags bool, props []Property) ([]byte, *fmEdit, error) {
	if isBinary(src) {
		return nil, nil, fmt.Errorf("set frontmatter: %w", ErrBinary)
	}
	eol := cmp.Or(fileEOL(src), "\n")
	blk, has := locateFrontmatter(src)
	var raw []byte
	if has {
		raw = src[blk.rawStart:blk.rawEnd]
	}
	fm, err := parseFMEntries(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("set frontmatter: %w", err)
	}
	for _, p := range props {
		if err := fm.set(p.Key, p.Value); err != nil {
			return nil, nil, fmt.Errorf("set frontmatter: %w", err)
		}
	}
	if setTags {
		if err := fm.setTags(tags); err != nil {
			return nil, nil, fmt.Errorf("set frontmatter: %w", err)
		}
	}
	newRaw, changed, err := fm.render(eol)
	if err != nil {
		return nil, nil, fmt.Errorf("set frontmatter: %w", err)
	}
	if !changed {
		return bytes.Clone(src), nil, nil
	}
	var out []byte
	if has {
		out = slices.Concat(src[:blk.rawStart], newRaw, src[blk.rawEnd:])
	} else {
		off, delim := bomLen(src), []byte("---"+eol)
		out = slices.Concat(src[:off], delim, newRaw, delim, src[off:])
	}
	if err := fm.verify(out); err != nil {
		return nil, nil, fmt.Errorf("set frontmatter: %w", err)
	}
	return out, fm, nil
}

// find returns the live entry for key: an exact match, else one that
// matches case-insensitively.
func (fm *fmEdit) find(key string) *fmEntry {
	var fold *fmEntry
	for _, e := range fm.entries {
		if e.removed {
			continue
		}
		if e.name == key {
			return e
		}
		if fold == nil && equalFold(e.name, key) {
			fold = e
		}
	}
	return fold
}

func (fm *fmEdit) set(key string, value any) error {
	if err := checkPropertyKey(key); err != nil {
		return err
	}
	e := fm.find(key)
	if value == nil {
		if e != nil {
			e.removed = true
		}
		return nil
	}
	return fm.put(e, key, value, fmt.Sprintf("property %q", key))
}

// put sets the new value of e, or of a new entry named key when e is nil;
// what names the value in an error.
func (fm *fmEdit) put(e *fmEntry, key string, value any, what string) error {
	n, err := propertyNode(value)
	if err == nil {
		// What the indexer would leave out is refused here.
		err = newYAMLBound().check(n)
	}
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrBadProperty, what, err)
	}
	if e == nil {
		e = &fmEntry{name: key}
		fm.entries = append(fm.entries, e)
	}
	e.newVal = n
	return nil
}

func (fm *fmEdit) setTags(tags []string) error {
	var clean []any
	seen := map[string]bool{}
	for _, t := range tags {
		n := NormalizeTag(t)
		if n == "" {
			return fmt.Errorf("%w: %q is not a tag", ErrBadProperty, t)
		}
		if k := strings.ToLower(n); !seen[k] {
			seen[k] = true
			clean = append(clean, n)
		}
	}
	// The first live tag key is kept ("tags" spelled exactly first);
	// the others go, so that the tags are only these.
	var keep *fmEntry
	var tagKeys []*fmEntry
	for _, e := range fm.entries {
		if !e.removed && (strings.EqualFold(e.name, "tags") || strings.EqualFold(e.name, "tag")) {
			tagKeys = append(tagKeys, e)
			if keep == nil && e.name == "tags" {
				keep = e
			}
		}
	}
	if keep == nil && len(tagKeys) > 0 {
		keep = tagKeys[0]
	}
	for _, e := range tagKeys {
		if e != keep || len(clean) == 0 {
			e.removed = true
		}
	}
	if len(clean) == 0 {
		return nil
	}
	return fm.put(keep, "tags", clean, "tags")
}

// render returns the new YAML text and whether anything changed.
func (fm *fmEdit) render(eol string) ([]byte, bool, error) {
	var out bytes.Buffer
	changed := false
	at := 0
	var appended []*fmEntry
	bound := newYAMLBound()
	for _, e := range fm.entries {
		if e.key == nil {
			appended = append(appended, e)
			continue
		}
		switch {
		case e.removed:
		case e.newVal != nil && !sameValue(bound, e.val, e.newVal):
		default:
			continue
		}
		out.Write(fm.raw[at:e.start])
		at = e.end
		changed = true
		if e.removed {
			continue
		}
		text, err := renderEntry(&yaml.Node{Kind: yaml.ScalarNode, Tag: e.key.Tag, Value: e.key.Value, Style: e.key.Style}, e.newVal, fm.indent, e.comment, eol)
		if err != nil {
			return nil, false, err
		}
		out.WriteString(text)
		if e.end == len(fm.raw) && !endsWithBreak(fm.raw) {
			// The old entry was the last line, without a line break.
			out.Truncate(out.Len() - len(eol))
		}
	}
	out.Write(fm.raw[at:])
	if len(appended) > 0 && out.Len() > 0 && !endsWithBreak(out.Bytes()) {
		out.WriteString(eol)
	}
	for _, e := range appended {
		if e.removed {
			continue
		}
		text, err := renderEntry(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.name}, e.newVal, fm.indent, "", eol)
		if err != nil {
			return nil, false, err
		}
		out.WriteString(text)
		changed = true
	}
	return out.Bytes(), changed, nil
}

func endsWithBreak(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}
