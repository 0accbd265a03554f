package vault

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// frontmatter reads the YAML block: title, tags, aliases, the other
// properties, and wikilinks written inside values. Malformed YAML leaves
// the note without properties and adds a warning.
func (c *collector) frontmatter(fm *rawFrontmatter) {
	c.note.BodyStart = c.off + fm.end
	if len(bytes.TrimSpace(fm.raw)) == 0 {
		return
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm.raw, &doc); err != nil {
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
	rawStart := c.off + fm.start
	lineStarts := newLineIndex(fm.raw)
	seenLinks := map[int]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		switch strings.ToLower(key) {
		case "tags", "tag":
			for _, t := range scalarStrings(v) {
				for _, part := range splitTagString(t) {
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
		if strings.EqualFold(key, "title") {
			if s, ok := val.(string); ok && strings.TrimSpace(s) != "" {
				c.title = strings.TrimSpace(s)
			}
		}
		c.note.Properties = append(c.note.Properties, Property{Key: key, Value: val})
		c.frontmatterLinks(v, key, fm.raw, rawStart, lineStarts, seenLinks)
	}
}

// frontmatterLinks records each [[wikilink]] written in a scalar of v. The
// YAML parser gives a scalar's line and column; the link is found in the
// raw text from there to the end of that line.
func (c *collector) frontmatterLinks(v *yaml.Node, key string, raw []byte, rawStart int, lines lineIndex, seen map[int]bool) {
	switch v.Kind {
	case yaml.SequenceNode, yaml.MappingNode:
		for _, child := range v.Content {
			c.frontmatterLinks(child, key, raw, rawStart, lines, seen)
		}
		return
	case yaml.ScalarNode:
	default:
		return // aliases are not followed
	}
	if !strings.Contains(v.Value, "[[") || v.Line < 1 || v.Line > len(lines) {
		return
	}
	lineStart := lines[v.Line-1]
	lineEnd := len(raw)
	if i := bytes.IndexByte(raw[lineStart:], '\n'); i >= 0 {
		lineEnd = lineStart + i
	}
	at := lineStart
	for col := 1; col < v.Column && at < lineEnd; col++ { // columns count characters
		_, size := utf8.DecodeRune(raw[at:lineEnd])
		at += size
	}
	for at < lineEnd {
		open := bytes.Index(raw[at:lineEnd], []byte("[["))
		if open < 0 {
			return
		}
		open += at
		closeAt := bytes.Index(raw[open+2:lineEnd], []byte("]]"))
		if closeAt < 0 {
			return
		}
		inner := string(raw[open+2 : open+2+closeAt])
		start := open
		kind := KindFrontmatter
		if open > 0 && raw[open-1] == '!' {
			start--
		}
		if !seen[start] && strings.TrimSpace(inner) != "" {
			seen[start] = true
			c.addWikilink(kind, inner, rawStart+start, rawStart+open+2, key)
		}
		at = open + 2 + closeAt + 2
	}
}

// scalarStrings returns the string values of a scalar or a sequence of
// scalars (how tags and aliases are written).
func scalarStrings(v *yaml.Node) []string {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return nil
		}
		return []string{v.Value}
	case yaml.SequenceNode:
		var out []string
		for _, item := range v.Content {
			if item.Kind == yaml.ScalarNode && item.Tag != "!!null" {
				out = append(out, item.Value)
			}
		}
		return out
	}
	return nil
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
