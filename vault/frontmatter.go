package vault

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// frontmatter reads the YAML block: title, tags, aliases, the other
// properties, and wikilinks written inside values. Malformed YAML leaves
// the note without properties and adds a warning. Each value is measured
// before it is decoded (yamlBound): one that aliases would blow up, or
// that nests too deeply, is left out with a warning.
func (c *collector) frontmatter(fm *fmBlock) {
	c.note.BodyStart = c.off + fm.end
	rawStart := c.off + fm.rawStart
	raw := c.src[rawStart : c.off+fm.rawEnd]
	if len(bytes.TrimSpace(raw)) == 0 {
		return
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		c.note.Warnings = append(c.note.Warnings, fmt.Sprintf("malformed YAML frontmatter, properties ignored: %v", err))
		return
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		c.note.Warnings = append(c.note.Warnings, "frontmatter is not a map of properties, ignored")
		return
	}
	if key, dup := duplicateKey(root); dup {
		// YAML keys are unique; Obsidian rejects such properties too.
		c.note.Warnings = append(c.note.Warnings, fmt.Sprintf("malformed YAML frontmatter, properties ignored: key %q already defined", key))
		return
	}
	lineStarts := newLineIndex(raw)
	seenLinks := map[int]bool{}
	bound := newYAMLBound()
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		if err := bound.check(v); err != nil {
			c.note.Warnings = append(c.note.Warnings, fmt.Sprintf("frontmatter property %q ignored: %v", key, err))
			continue
		}
		switch strings.ToLower(key) {
		case "tags", "tag":
			for _, t := range scalarStrings(v) {
				for _, part := range strings.FieldsFunc(t, isTagSeparator) {
					c.addTag(part)
				}
			}
			continue
		case "aliases", "alias":
			for _, a := range scalarStrings(v) {
				if a = strings.TrimSpace(a); a != "" {
					c.note.Aliases = append(c.note.Aliases, NFC(a))
				}
			}
			continue
		}
		var val any
		if err := v.Decode(&val); err != nil {
			c.note.Warnings = append(c.note.Warnings, fmt.Sprintf("frontmatter property %q ignored: %v", key, err))
			continue
		}
		val = normalizeValue(val)
		if strings.EqualFold(key, "title") && v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null" {
			// Any scalar is a title: "title: 2024" names the note "2024".
			if t := strings.TrimSpace(strings.ToValidUTF8(v.Value, "\uFFFD")); t != "" {
				c.title = t
			}
		}
		c.note.Properties = append(c.note.Properties, Property{Key: key, Value: val})
		c.frontmatterLinks(v, key, raw, rawStart, lineStarts, seenLinks, 0)
	}
}

// frontmatterLinks records each [[wikilink]] written in a scalar of v. The
// YAML parser gives where a scalar starts (line and column). A quoted
// scalar is decoded again from there, keeping where each byte of its value
// comes from, so that a link holding escapes (a doubled apostrophe, a backslash escape) gets
// the byte ranges of its text as written. In other scalars the links of
// the decoded value are looked up, in order, in the raw text from there.
// Only as many links as the value holds are taken, each with the same
// inner text, so that a "# comment [[x]]" after the value is not a link. depth is how deep v is in the value; past MaxPropertyDepth (which
// the value was checked against) nothing more is looked at.
func (c *collector) frontmatterLinks(v *yaml.Node, key string, raw []byte, rawStart int, lines lineIndex, seen map[int]bool, depth int) {
	switch v.Kind {
	case yaml.SequenceNode, yaml.MappingNode:
		if depth >= MaxPropertyDepth {
			return
		}
		for _, child := range v.Content {
			c.frontmatterLinks(child, key, raw, rawStart, lines, seen, depth+1)
		}
		return
	case yaml.ScalarNode:
	default:
		return // aliases are not followed
	}
	want := wikilinkSpans(v.Value)
	if len(want) == 0 {
		return
	}
	at := scalarOffset(raw, lines, v)
	if at < 0 {
		return
	}
	if v.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
		if val, from, ok := decodeQuoted(raw, at); ok && string(val) == v.Value {
			c.quotedLinks(v.Value, from, key, rawStart, seen)
			return
		}
	}
	eol := -1
	for _, sp := range want {
		inner := v.Value[sp[0]+2 : sp[1]]
		open, closeAt, ok := nextWikilink(raw, at, &eol)
		if !ok || string(raw[open+2:closeAt]) != inner {
			return // the raw text does not spell the value (escapes): stop
		}
		start := open
		if open > 0 && raw[open-1] == '!' {
			start--
		}
		if !seen[start] {
			seen[start] = true
			c.addWikilink(KindFrontmatter, inner, rawStart+start, rawStart+open+2, key)
		}
		at = closeAt + 2
	}
}

// quotedLinks records the wikilinks of a quoted scalar whose decoded
// value is val, from[i] being the offset in the frontmatter text where the
// source of val[i] starts (decodeQuoted): each link's ranges are those of
// the text as written, escapes and all.
func (c *collector) quotedLinks(val string, from []int, key string, rawStart int, seen map[int]bool) {
	for _, sp := range wikilinkSpans(val) {
		open, closeAt := sp[0], sp[1]
		start := open
		if open > 0 && val[open-1] == '!' {
			start--
		}
		if seen[from[start]] {
			continue
		}
		seen[from[start]] = true
		inner := val[open+2 : closeAt]
		c.addMappedWikilink(KindFrontmatter, inner, rawStart+from[start], func(i int) int { return rawStart + from[open+2+i] }, key)
	}
}

// wikilinkSpans returns the offsets of the "[[" and the "]]" of each
// non-blank [[...]] of s that holds no line break.
func wikilinkSpans(s string) [][2]int {
	var out [][2]int
	at := 0
	for {
		i := strings.Index(s[at:], "[[")
		if i < 0 {
			return out
		}
		open := at + i
		j := strings.Index(s[open+2:], "]]")
		if j < 0 {
			return out
		}
		closeAt := open + 2 + j
		if inner := s[open+2 : closeAt]; strings.TrimSpace(inner) != "" && !strings.ContainsAny(inner, "\r\n") {
			out = append(out, [2]int{open, closeAt})
		}
		at = closeAt + 2
	}
}

// nextWikilink finds the next non-blank "[[...]]" in raw from offset at,
// closed on the line it opens, and returns the offsets of its "[[" and "]]".
// eol caches the end of the line last looked at (-1 at first).
func nextWikilink(raw []byte, at int, eol *int) (open, closeAt int, ok bool) {
	for at < len(raw) {
		i := bytes.Index(raw[at:], []byte("[["))
		if i < 0 {
			return 0, 0, false
		}
		open = at + i
		if *eol < open {
			*eol = len(raw)
			if n := bytes.IndexAny(raw[open:], "\r\n"); n >= 0 {
				*eol = open + n
			}
		}
		j := bytes.Index(raw[open+2:*eol], []byte("]]"))
		if j < 0 {
			at = open + 2
			continue
		}
		closeAt = open + 2 + j
		if len(bytes.TrimSpace(raw[open+2:closeAt])) > 0 {
			return open, closeAt, true
		}
		at = closeAt + 2
	}
	return 0, 0, false
}

// duplicateKey returns a key that the mapping m holds twice.
func duplicateKey(m *yaml.Node) (string, bool) {
	seen := make(map[string]bool, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if seen[k.Value] {
			return k.Value, true
		}
		seen[k.Value] = true
	}
	return "", false
}

// scalarStrings returns the string values of a scalar or a sequence of
// scalars (how tags and aliases are written). Aliases are not followed,
// so that its output is never bigger than the YAML text.
func scalarStrings(v *yaml.Node) []string {
	items := v.Content
	switch v.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{v}
	case yaml.SequenceNode:
	default:
		return nil
	}
	var out []string
	for _, item := range items {
		if item.Kind == yaml.ScalarNode && item.Tag != "!!null" {
			out = append(out, item.Value)
		}
	}
	return out
}

// normalizeValue turns decoded YAML into the value types Property
// documents: int64 for every integer, maps with string keys.
func normalizeValue(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case uint64:
		return float64(x)
	case string:
		return strings.ToValidUTF8(x, "\uFFFD")
	case []any:
		for i := range x {
			x[i] = normalizeValue(x[i])
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeValue(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = normalizeValue(e)
		}
		return m
	case time.Time, bool, float64, int64, nil:
		return x
	}
	return fmt.Sprint(v)
}
