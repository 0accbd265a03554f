package toon

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Options configures Encode. The zero value selects the spec defaults.
type Options struct {
	// Indent is the number of spaces per indentation level (spec
	// indentSize); 0 means the default, 2.
	Indent int
	// Delimiter is the document delimiter: ',', '\t' or '|'; 0 means ','.
	Delimiter byte
}

// Encode renders v as a TOON document (no trailing newline). v must be
// built from the types listed in the package documentation.
func Encode(v any, opts Options) (string, error) {
	opts.Indent = cmp.Or(opts.Indent, 2)
	if opts.Indent < 0 {
		return "", fmt.Errorf("toon: negative indent %d", opts.Indent)
	}
	opts.Delimiter = cmp.Or(opts.Delimiter, ',')
	switch opts.Delimiter {
	case ',', '\t', '|':
	default:
		return "", fmt.Errorf("toon: unsupported delimiter %q", opts.Delimiter)
	}
	if err := validate(v, 0); err != nil {
		return "", err
	}
	e := &encoder{indent: opts.Indent, delim: opts.Delimiter, first: true}
	e.root(v)
	return e.b.String(), nil
}

// validate checks types, UTF-8, number syntax and key uniqueness up front,
// so the writer below cannot fail half-way.
func validate(v any, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("toon: value nested deeper than %d", MaxDepth)
	}
	switch x := v.(type) {
	case nil, bool:
		return nil
	case string:
		if !utf8.ValidString(x) {
			return fmt.Errorf("toon: string %q is not valid UTF-8", x)
		}
		return nil
	case []any:
		for _, el := range x {
			if err := validate(el, depth+1); err != nil {
				return err
			}
		}
		return nil
	case Object:
		var seen map[string]bool
		if len(x) > 8 {
			seen = make(map[string]bool, len(x))
		}
		for i, f := range x {
			if !utf8.ValidString(f.Key) {
				return fmt.Errorf("toon: key %q is not valid UTF-8", f.Key)
			}
			dup := seen[f.Key]
			if seen != nil {
				seen[f.Key] = true
			} else {
				dup = slices.ContainsFunc(x[:i], func(g Field) bool { return g.Key == f.Key })
			}
			if dup {
				return fmt.Errorf("toon: duplicate object key %q", f.Key)
			}
			if err := validate(f.Value, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if _, ok, err := formatNumber(v); ok {
		return err
	}
	return fmt.Errorf("toon: unsupported type %T", v)
}

type encoder struct {
	b      strings.Builder
	indent int
	delim  byte
	first  bool
}

// line writes one output line at the given depth.
func (e *encoder) line(depth int, s string) {
	if !e.first {
		e.b.WriteByte('\n')
	}
	e.first = false
	for range depth * e.indent {
		e.b.WriteByte(' ')
	}
	e.b.WriteString(s)
}

func (e *encoder) root(v any) {
	e.value(0, func(s string) { e.line(0, s) }, "", v)
}

// object writes the fields of o at depth.
func (e *encoder) object(depth int, o Object) {
	for _, f := range o {
		e.field(depth, false, f.Key, f.Value)
	}
}

// field writes key and value as a field at depth. When item is set the
// field is the first one of a list-item object: its first line goes on the
// hyphen line at depth-1, while its content still sits at depth+1 (§10).
func (e *encoder) field(depth int, item bool, key string, v any) {
	head := func(s string) { e.line(depth, s) }
	if item {
		head = func(s string) { e.line(depth-1, "- "+s) }
	}
	e.value(depth, head, encodeKey(key), v)
}

// value writes v, the value of the encoded key ("" for the root value):
// its first line via head, its content at depth+1 (a root object's fields
// at depth).
func (e *encoder) value(depth int, head func(string), key string, v any) {
	sep := ": "
	if key == "" {
		sep = ""
	}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			head(key + sep + "[]")
			return
		}
		e.array(depth+1, head, key, x, true)
	case Object:
		if fields, ok := keyedFields(x); ok {
			e.keyed(depth+1, head, key, x, fields)
		} else if key == "" {
			e.object(depth, x)
		} else {
			head(key + ":")
			e.object(depth+1, x)
		}
	default:
		head(key + sep + e.prim(v))
	}
}

// array writes a non-empty array: header via head (prefixed by the encoded
// key, if any), content at depth. Tabular form needs tabular to be set.
func (e *encoder) array(depth int, head func(string), key string, arr []any, tabular bool) {
	bracket := "[" + strconv.Itoa(len(arr)) + e.delimSym() + "]"
	if !slices.ContainsFunc(arr, isComposite) {
		head(key + bracket + ": " + e.primList(arr))
		return
	}
	if rows, ok := asObjects(arr); ok && tabular {
		if fields, ok := tabularFields(rows); ok {
			head(key + bracket + e.fieldList(fields) + ":")
			for _, r := range rows {
				e.line(depth, e.row(nil, r, fields))
			}
			return
		}
	}
	head(key + bracket + ":")
	for _, el := range arr {
		e.listItem(depth, el)
	}
}

// keyed writes an object in keyed tabular form (§9.5).
func (e *encoder) keyed(depth int, head func(string), key string, o Object, fields []tfield) {
	head(key + "[" + strconv.Itoa(len(o)) + ":" + e.delimSym() + "]" + e.fieldList(fields) + ":")
	for _, f := range o {
		e.line(depth, e.row([]byte(encodeKey(f.Key)+": "), f.Value.(Object), fields))
	}
}

// listItem writes one element of an expanded list with its hyphen at depth.
func (e *encoder) listItem(depth int, v any) {
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			e.line(depth, "- [0"+e.delimSym()+"]:")
			return
		}
		// Keyless tabular headers are root-only, so no tabular form here.
		e.array(depth+1, func(s string) { e.line(depth, "- "+s) }, "", x, false)
	case Object:
		if len(x) == 0 {
			e.line(depth, "-")
			return
		}
		for i, f := range x {
			e.field(depth+1, i == 0, f.Key, f.Value)
		}
	default:
		e.line(depth, "- "+e.prim(v))
	}
}

func (e *encoder) delimSym() string {
	if e.delim == ',' {
		return ""
	}
	return string(e.delim)
}

// prim encodes a primitive (validated beforehand) with delimiter-aware
// quoting.
func (e *encoder) prim(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		if needsQuote(x, e.delim) {
			return quote(x)
		}
		return x
	}
	s, _, _ := formatNumber(v)
	return s
}

func (e *encoder) primList(arr []any) string {
	var b strings.Builder
	for i, v := range arr {
		if i > 0 {
			b.WriteByte(e.delim)
		}
		b.WriteString(e.prim(v))
	}
	return b.String()
}

// isComposite reports whether v is an array or an object.
func isComposite(v any) bool {
	switch v.(type) {
	case []any, Object:
		return true
	}
	return false
}

// needsQuote reports whether a string value must be quoted (§7.2).
func needsQuote(s string, delim byte) bool {
	if s == "" || s == "true" || s == "false" || s == "null" || numericLike(s) {
		return true
	}
	if c := s[0]; c == ' ' || c == '\t' || c == '-' || c == '#' {
		return true
	}
	if c := s[len(s)-1]; c == ' ' || c == '\t' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ':', '"', '\\', '[', ']', '{', '}':
			return true
		default:
			if c < 0x20 || c == delim {
				return true
			}
		}
	}
	return false
}

// numericLike matches /^[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/i.
func numericLike(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	_, _, _, ok := scanNumber(s)
	return ok
}

// encodeKey renders an object key, field name or entry key (§7.3).
func encodeKey(k string) string {
	if k == "" {
		return `""`
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		alpha := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
		if !alpha && (i == 0 || !isDigit(c) && c != '.') {
			return quote(k)
		}
	}
	return k
}

// quoter writes the escapes of §7.1: backslash, quote, \n, \r, \t and
// the other control characters as \u00XX.
var quoter = func() *strings.Replacer {
	pairs := []string{`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`}
	for c := range 0x20 {
		if c != '\n' && c != '\r' && c != '\t' {
			pairs = append(pairs, string(rune(c)), fmt.Sprintf(`\u%04x`, c))
		}
	}
	return strings.NewReplacer(pairs...)
}()

// quote renders s as a quoted string.
func quote(s string) string { return `"` + quoter.Replace(s) + `"` }
