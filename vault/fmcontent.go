package vault

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// bom is the UTF-8 byte-order mark a note may start with.
const bom = "\uFEFF"

// bomLen is the length of the byte-order mark src starts with, or 0.
func bomLen(src []byte) int {
	if bytes.HasPrefix(src, []byte(bom)) {
		return len(bom)
	}
	return 0
}

// ReplaceContent returns the note src with content written into it, and
// whether content was its whole text.
//
// Content that begins with a frontmatter block (a "---" line, after an
// optional byte-order mark, up to the closing "---" line, found exactly
// as Parse finds one) is the note's whole text: its frontmatter replaces
// the note's, so the result has one block. Its line endings become the
// file's, as ReplaceBody converts a body, and a byte-order mark of src or
// content is kept once. That frontmatter must be one the indexer reads:
// malformed YAML, a block that is not a map of properties, or a key given
// twice is an error wrapping ErrBadFrontmatter, unless the block is byte
// for byte the one src already has (a note sent back as it was read).
//
// Other content is the new body under src's frontmatter (ReplaceBody).
func ReplaceContent(src []byte, content string) (out []byte, whole bool, err error) {
	if _, ok := locateFrontmatter([]byte(content)); !ok {
		return ReplaceBody(src, content), false, nil
	}
	text := convertEOL(strings.TrimPrefix(content, bom), fileEOL(src))
	out = make([]byte, 0, len(bom)+len(text))
	if bytes.HasPrefix(src, []byte(bom)) || strings.HasPrefix(content, bom) {
		out = append(out, bom...)
	}
	out = append(out, text...)
	blk, ok := locateFrontmatter(out)
	if !ok {
		return nil, true, fmt.Errorf("%w: the content's frontmatter block is not one after its line endings are converted", ErrBadFrontmatter)
	}
	raw := out[blk.rawStart:blk.rawEnd]
	if old, has := locateFrontmatter(src); has && bytes.Equal(src[old.rawStart:old.rawEnd], raw) {
		return out, true, nil
	}
	if _, err := readableFrontmatter(raw); err != nil {
		return nil, true, err
	}
	return out, true, nil
}

// readableFrontmatter parses the YAML text of a frontmatter block and
// returns its map of properties, nil when it holds none (empty, comments
// only). An error wrapping ErrBadFrontmatter says why the indexer would
// read none of its properties: malformed YAML, not a map, a key given
// twice.
func readableFrontmatter(raw []byte) (*yaml.Node, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%w: malformed YAML: %v", ErrBadFrontmatter, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: not a map of properties", ErrBadFrontmatter)
	}
	if key, dup := duplicateKey(root); dup {
		return nil, fmt.Errorf("%w: key %q is given twice", ErrBadFrontmatter, key)
	}
	return root, nil
}

// Replaced is a frontmatter value that EditFrontmatter replaced or
// removed. Old and New are the values in YAML flow style on one line,
// shortened to MaxReplacedChars.
type Replaced struct {
	// Key is the property's key as the frontmatter spelled it.
	Key string
	// Old is the value that was there.
	Old string
	// New is the value written instead; "" when the key was removed.
	New string
}

// MaxReplacedChars is how many characters of a value a Replaced holds.
const MaxReplacedChars = 80

// EditFrontmatter is SetFrontmatter that also reports, in file order,
// each property of src's frontmatter whose value it replaced or removed
// (tags included; a value equal to the one there is not replaced).
func EditFrontmatter(src []byte, tags []string, setTags bool, props []Property) ([]byte, []Replaced, error) {
	out, fm, err := setFrontmatter(src, tags, setTags, props)
	if err != nil || fm == nil {
		return out, nil, err
	}
	var rep []Replaced
	bound := newYAMLBound()
	for _, e := range fm.entries {
		switch {
		case e.key == nil:
		case e.removed:
			r, same := Replaced{Key: e.name, Old: shortYAML(e.val)}, false
			// A key removed and then set again is a new entry.
			for _, a := range fm.entries {
				if a.key == nil && !a.removed && a.newVal != nil && equalFold(a.name, e.name) {
					r.New, same = shortYAML(a.newVal), sameValue(bound, e.val, a.newVal)
					break
				}
			}
			if !same {
				rep = append(rep, r)
			}
		case e.newVal != nil && !sameValue(bound, e.val, e.newVal):
			rep = append(rep, Replaced{Key: e.name, Old: shortYAML(e.val), New: shortYAML(e.newVal)})
		}
	}
	return out, rep, nil
}

// shortYAML writes a value in YAML flow style on one line, shortened to
// MaxReplacedChars.
func shortYAML(n *yaml.Node) string {
	c := *n
	if c.Kind == yaml.SequenceNode || c.Kind == yaml.MappingNode {
		c.Style |= yaml.FlowStyle
	}
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	s := c.Value
	if b, err := yaml.Marshal(&c); err == nil {
		s = string(b)
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > MaxReplacedChars {
		s = string([]rune(s)[:MaxReplacedChars-1]) + "…"
	}
	return s
}
