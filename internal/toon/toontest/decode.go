package toontest

import (
	"cmp"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// ErrSyntax is wrapped by every error Decode returns for malformed input;
// the message names the offending line.
var ErrSyntax = errors.New("toon: syntax error")

// DecodeOptions configures Decode. The zero value selects the spec
// defaults: 2 spaces per level and strict mode.
type DecodeOptions struct {
	// Indent is the number of spaces per indentation level (spec
	// indentSize); 0 means the default, 2.
	Indent int
	// Lenient turns strict mode off (spec strict=false): repeated keys
	// resolve last-write-wins, declared counts and blank lines inside
	// arrays go unchecked, depth is floor(spaces/Indent), trailing lines
	// after a root array are ignored, and a malformed array header is read
	// as a plain key (spec §6).
	Lenient bool
}

// Decode parses a TOON document (spec v4.0) into the types FromJSON
// returns: nil, bool, string, json.Number, []any and Object, with object
// keys in document order (table rows and keyed entries in header order).
//
// Numbers are lossless: a json.Number holds the canonical form of the
// token (spec §2), so 1.5000 decodes as "1.5", -1E+03 as "-1000" and 1e999
// as "1e+999"; tokens outside the §4 number grammar, such as 05 or +1,
// decode as strings. Tabs in indentation, ill-formed UTF-8 and values
// nested deeper than 1000 levels are errors in both modes; a leading
// byte-order mark is skipped.
func Decode(text string, opts DecodeOptions) (any, error) {
	indent := cmp.Or(opts.Indent, 2)
	if indent < 0 {
		return nil, fmt.Errorf("toon: negative indent %d", indent)
	}
	d := &decoder{strict: !opts.Lenient}
	if err := d.split(text, indent); err != nil {
		return nil, err
	}
	v, err := d.root()
	if err != nil {
		return nil, err
	}
	if deeper(v, toon.MaxDepth) {
		return nil, fmt.Errorf("toon: value nested deeper than %d", toon.MaxDepth)
	}
	return v, nil
}

// line is one non-blank, non-comment line of the document.
type line struct {
	num     int // 1-based line number in the input
	depth   int
	content string // without indentation and trailing spaces
}

type decoder struct {
	lines  []line
	blanks []int // numbers of blank lines, ascending
	pos    int   // next unread line
	strict bool
}

func (d *decoder) fail(num int, err error) error {
	return fmt.Errorf("%w: line %d: %w", ErrSyntax, num, err)
}

func (d *decoder) failf(num int, format string, args ...any) error {
	return d.fail(num, fmt.Errorf(format, args...))
}

// split classifies the lines (spec §5.1, §12): comments are dropped,
// blank lines remembered, indentation checked.
func (d *decoder) split(text string, indent int) error {
	for i, raw := range strings.Split(strings.TrimPrefix(text, "\ufeff"), "\n") {
		num := i + 1
		raw = strings.TrimSuffix(raw, "\r")
		if !utf8.ValidString(raw) {
			return d.failf(num, "ill-formed UTF-8")
		}
		ws := len(raw) - len(strings.TrimLeft(raw, " \t"))
		content := strings.TrimRight(raw[ws:], " ")
		tab := strings.IndexByte(raw[:ws], '\t') >= 0
		switch {
		case !tab && strings.HasPrefix(content, "#"):
			continue
		case tab:
			return d.failf(num, "tab in indentation")
		case content == "":
			d.blanks = append(d.blanks, num)
			continue
		case d.strict && ws%indent != 0:
			return d.failf(num, "indentation of %d spaces is not a multiple of %d", ws, indent)
		}
		d.lines = append(d.lines, line{num: num, depth: ws / indent, content: content})
	}
	return nil
}

// root decodes the whole document per the root-form rules of spec §5.
func (d *decoder) root() (any, error) {
	if len(d.lines) == 0 {
		return toon.Object{}, nil
	}
	first := d.lines[0]
	if first.depth != 0 {
		return nil, d.failf(first.num, "first line is indented")
	}
	if first.content == "[]" {
		d.pos = 1
		return d.end([]any{}, nil)
	}
	h, err := d.header(first.num, first.content)
	if err != nil {
		return nil, err
	}
	if h != nil && !h.hasKey {
		d.pos = 1
		return d.end(d.array(h, first, 0))
	}
	if len(d.lines) == 1 && indexUnquoted(first.content, ':') < 0 {
		d.pos = 1
		return d.primitive(first.num, first.content)
	}
	return d.object(0)
}

// end checks that nothing follows v, a complete root array read with err.
func (d *decoder) end(v any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if d.strict && d.pos < len(d.lines) {
		return nil, d.failf(d.lines[d.pos].num, "content after the root array")
	}
	return v, nil
}

// object reads the fields at depth, up to the next shallower line.
func (d *decoder) object(depth int) (toon.Object, error) {
	var o object
	if err := d.fields(depth, &o); err != nil {
		return nil, err
	}
	return o.value(), nil
}

func (d *decoder) fields(depth int, o *object) error {
	for {
		ln, ok, err := d.next(depth-1, depth)
		if !ok || err != nil {
			return err
		}
		d.pos++
		if err := d.field(ln, ln.content, depth, o); err != nil {
			return err
		}
	}
}

// field reads one key-value or keyed array-header line into o; content is
// the line's text (after the "- " of a list item) and depth the field's
// depth.
func (d *decoder) field(ln line, content string, depth int, o *object) error {
	h, err := d.header(ln.num, content)
	if err != nil {
		return err
	}
	if h != nil && !h.hasKey {
		if d.strict {
			return d.failf(ln.num, "array header without a key inside an object")
		}
		h = nil
	}
	var key string
	var v any
	if h != nil {
		key = h.key
		v, err = d.array(h, ln, depth)
	} else {
		key, v, err = d.keyValue(ln, content, depth)
	}
	if err != nil {
		return err
	}
	return d.set(o, ln.num, key, v)
}

func (d *decoder) set(o *object, num int, key string, v any) error {
	if o.set(key, v) && d.strict {
		return d.failf(num, "duplicate key %.40q", key)
	}
	return nil
}

// keyValue reads "key: value", "key: []" or "key:" with its nested object.
func (d *decoder) keyValue(ln line, content string, depth int) (string, any, error) {
	key, rest, err := splitKey(content)
	if err != nil {
		return "", nil, d.fail(ln.num, err)
	}
	switch rest {
	case "":
		if d.pos == len(d.lines) || d.lines[d.pos].depth <= depth {
			return key, toon.Object{}, nil
		}
		inner, err := d.contentDepth(depth)
		if err != nil {
			return "", nil, err
		}
		o, err := d.object(inner)
		return key, o, err
	case "[]":
		return key, []any{}, nil
	}
	v, err := d.primitive(ln.num, rest)
	return key, v, err
}

// primitive decodes the value token s of line num.
func (d *decoder) primitive(num int, s string) (any, error) {
	v, err := primitive(s)
	if err != nil {
		return nil, d.fail(num, err)
	}
	return v, nil
}

// array reads the value of header h, which stands on line ln at depth base.
func (d *decoder) array(h *header, ln line, base int) (any, error) {
	switch {
	case h.keyed:
		return d.keyed(h, ln, base)
	case h.inline != "":
		vals, err := cells(h.inline, h.delim)
		if err != nil {
			return nil, d.fail(ln.num, err)
		}
		if d.strict && len(vals) != h.n {
			return nil, d.failf(ln.num, "%d values, header declares %d", len(vals), h.n)
		}
		return vals, nil
	case h.fields != nil: // a tabular array (spec §9.3)
		rowLine := func(s string) bool { return isRow(s, h.delim) }
		return d.collect(h, ln, base, "rows", rowLine, func(ln line) (any, error) { return d.row(ln, ln.content, h) })
	}
	return d.collect(h, ln, base, "list items", isItem, d.item) // spec §9.2, §9.4
}

// contentDepth is the depth of the rows or items under a header at base.
func (d *decoder) contentDepth(base int) (int, error) {
	if d.pos < len(d.lines) && d.lines[d.pos].depth > base+1 {
		next := d.lines[d.pos]
		if d.strict {
			return 0, d.failf(next.num, "indentation jumps from depth %d to %d", base, next.depth)
		}
		return next.depth, nil
	}
	return base + 1, nil
}

// next returns the next line inside the scope of a header at base, whose
// content sits at depth; ok is false at the end of the scope. A line at any
// other depth is an error.
func (d *decoder) next(base, depth int) (line, bool, error) {
	if d.pos == len(d.lines) || d.lines[d.pos].depth <= base {
		return line{}, false, nil
	}
	ln := d.lines[d.pos]
	if ln.depth != depth {
		return line{}, false, d.failf(ln.num, "over-indented line (depth %d, want %d)", ln.depth, depth)
	}
	return ln, true, nil
}

// scope reads the rows, entries or items under header h, which stands on
// line hl at depth base: read consumes each line at the content depth that
// is accepts, with any deeper lines it owns. In strict mode the count must
// be h.n and no blank line may split the scope.
func (d *decoder) scope(h *header, hl line, base int, what string, is func(string) bool, read func(line) error) error {
	depth, err := d.contentDepth(base)
	if err != nil {
		return err
	}
	n, first, last := 0, 0, hl.num
	for {
		ln, ok, err := d.next(base, depth)
		if err != nil {
			return err
		}
		if !ok || !is(ln.content) {
			break
		}
		if d.strict && n == h.n {
			return d.failf(ln.num, "more %s than the %d declared", what, h.n)
		}
		d.pos++
		if err := read(ln); err != nil {
			return err
		}
		if n++; first == 0 {
			first = ln.num
		}
		last = d.lines[d.pos-1].num
	}
	if !d.strict {
		return nil
	}
	if n != h.n {
		return d.failf(last, "%d %s, header declares %d", n, what, h.n)
	}
	return d.noBlank(first, last)
}

// collect reads the rows or items under header h (see scope), each as
// read makes it.
func (d *decoder) collect(h *header, hl line, base int, what string, is func(string) bool, read func(line) (any, error)) ([]any, error) {
	out := []any{}
	err := d.scope(h, hl, base, what, is, func(ln line) error {
		v, err := read(ln)
		out = append(out, v)
		return err
	})
	return out, err
}

// keyed reads the entry rows of a keyed tabular object (spec §9.5).
func (d *decoder) keyed(h *header, hl line, base int) (toon.Object, error) {
	var o object
	all := func(string) bool { return true }
	err := d.scope(h, hl, base, "entries", all, func(ln line) error {
		key, rest, err := splitKey(ln.content)
		if err != nil {
			return d.failf(ln.num, "entry row: %w", err)
		}
		v, err := d.row(ln, rest, h)
		if err != nil {
			return err
		}
		return d.set(&o, ln.num, key, v)
	})
	return o.value(), err
}

// row decodes the delimited cells of text into an object shaped by h.
func (d *decoder) row(ln line, text string, h *header) (toon.Object, error) {
	var vals []any
	if text != "" {
		var err error
		if vals, err = cells(text, h.delim); err != nil {
			return nil, d.fail(ln.num, err)
		}
	}
	if n := leafCount(h.fields); len(vals) != n {
		return nil, d.failf(ln.num, "%d cells, header declares %d fields", len(vals), n)
	}
	return build(h.fields, vals, new(int)), nil
}

func isItem(s string) bool { return s == "-" || strings.HasPrefix(s, "- ") }

// item reads the list item on line ln (spec §10).
func (d *decoder) item(ln line) (any, error) {
	depth := ln.depth
	if ln.content == "-" {
		return toon.Object{}, nil
	}
	rest := strings.TrimLeft(ln.content[2:], " ")
	if rest == "[]" {
		return []any{}, nil
	}
	if indexUnquoted(rest, ':') < 0 {
		return d.primitive(ln.num, rest)
	}
	h, err := d.header(ln.num, rest)
	if err != nil {
		return nil, err
	}
	if h != nil && !h.hasKey {
		if !h.keyed && h.fields == nil {
			return d.array(h, ln, depth)
		}
		if d.strict {
			return nil, d.failf(ln.num, "table header without a key in a list item")
		}
	}
	// An object: its first field on the hyphen line, the others below.
	var o object
	if err := d.field(ln, rest, depth+1, &o); err != nil {
		return nil, err
	}
	if err := d.fields(depth+1, &o); err != nil {
		return nil, err
	}
	return o.value(), nil
}

// noBlank rejects a blank line between lines first and last of an array.
func (d *decoder) noBlank(first, last int) error {
	i := sort.SearchInts(d.blanks, first+1)
	if first > 0 && i < len(d.blanks) && d.blanks[i] < last {
		return d.failf(d.blanks[i], "blank line inside an array")
	}
	return nil
}

// deeper reports whether v nests more than max levels below itself.
func deeper(v any, max int) bool {
	if max < 0 {
		return true
	}
	switch x := v.(type) {
	case []any:
		for _, el := range x {
			if deeper(el, max-1) {
				return true
			}
		}
	case toon.Object:
		for _, f := range x {
			if deeper(f.Value, max-1) {
				return true
			}
		}
	}
	return false
}
