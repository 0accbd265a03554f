package vault

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// fmEntry is one top-level property of the frontmatter.
type fmEntry struct {
	key, val   *yaml.Node // as parsed; key is nil for a new entry
	name       string     // the key's text
	start, end int        // its bytes in raw: key line to last value line, with its line break
	comment    string     // a comment ending the key line, kept on rewrite
	newVal     *yaml.Node // the value to write, or nil when unchanged
	removed    bool
}

// fmEdit is a frontmatter being edited.
type fmEdit struct {
	raw     []byte
	indent  string // the spaces before each top-level key
	entries []*fmEntry
}

// parseFMEntries splits the YAML text of a frontmatter into its top-level
// entries.
func parseFMEntries(raw []byte) (*fmEdit, error) {
	fm := &fmEdit{raw: raw}
	root, err := readableFrontmatter(raw)
	if err != nil {
		return nil, err
	}
	lines := yamlLines(raw)
	for i, ls := range lines {
		if line := raw[ls:lineEnd(raw, lines, i)]; isDocumentMarker(line) {
			return nil, fmt.Errorf("%w: line %d starts another YAML document", ErrBadFrontmatter, i+1)
		}
	}
	switch {
	case root == nil:
		return fm, nil // empty or comments only
	case root.Style&yaml.FlowStyle != 0:
		return nil, fmt.Errorf("%w: a flow map ({...}) cannot be edited in place", ErrBadFrontmatter)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Line < 1 || k.Line > len(lines) {
			return nil, fmt.Errorf("%w: a key that is not plain text (line %d)", ErrBadFrontmatter, k.Line)
		}
		start := lines[k.Line-1]
		pre := k.Column - 1
		if pre < 0 || start+pre > len(raw) || strings.Trim(string(raw[start:start+pre]), " ") != "" {
			return nil, fmt.Errorf("%w: key %q is not at the start of its line", ErrBadFrontmatter, k.Value)
		}
		if i == 0 {
			fm.indent = string(raw[start : start+pre])
		} else if prev := fm.entries[len(fm.entries)-1]; k.Line <= prev.key.Line || string(raw[start:start+pre]) != fm.indent {
			return nil, fmt.Errorf("%w: key %q is not on a line of its own", ErrBadFrontmatter, k.Value)
		}
		fm.entries = append(fm.entries, &fmEntry{key: k, val: v, name: k.Value, start: start})
	}
	// Each entry runs to its last value line: comment lines at the keys'
	// indentation and blank lines before the next key are not its own.
	for i, e := range fm.entries {
		last := len(lines) - 1
		if i+1 < len(fm.entries) {
			last = fm.entries[i+1].key.Line - 2
		}
		first := e.key.Line - 1
		for last > first && !isValueLine(raw[lines[last]:lineEnd(raw, lines, last)], len(fm.indent)) {
			last--
		}
		if last+1 < len(lines) {
			e.end = lines[last+1]
		} else {
			e.end = len(raw)
		}
		keyLine := bytes.TrimRight(raw[lines[first]:lineEnd(raw, lines, first)], " \t")
		for _, c := range []string{e.key.LineComment, e.val.LineComment} {
			if c != "" && bytes.HasSuffix(keyLine, []byte(c)) {
				e.comment = c
				break
			}
		}
	}
	return fm, nil
}

// yamlLines returns the offsets where the lines of raw start, breaking
// lines where YAML does: LF, CRLF, CR, NEL, LS and PS.
func yamlLines(raw []byte) []int {
	starts := []int{0}
	for i := 0; i < len(raw); {
		n := yamlBreak(raw, i)
		if n == 0 {
			i++
			continue
		}
		i += n
		if i < len(raw) {
			starts = append(starts, i)
		}
	}
	return starts
}

// lineEnd returns the end of line i of raw without its line break.
func lineEnd(raw []byte, lines []int, i int) int {
	at := lines[i]
	for at < len(raw) && yamlBreak(raw, at) == 0 {
		at++
	}
	return at
}

// isDocumentMarker reports whether a line starts or ends a YAML document.
func isDocumentMarker(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) && !bytes.HasPrefix(line, []byte("...")) {
		return false
	}
	return len(line) == 3 || line[3] == ' ' || line[3] == '\t'
}

// isValueLine reports whether a line can belong to a value: not blank, and
// not a comment at or left of the keys' indentation.
func isValueLine(line []byte, indent int) bool {
	trimmed := bytes.TrimLeft(line, " \t")
	if len(trimmed) == 0 {
		return false
	}
	return trimmed[0] != '#' || len(line)-len(trimmed) > indent
}
