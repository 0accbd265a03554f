package vault

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// checkPropertyKey refuses keys Obsidian cannot show: empty, invalid
// UTF-8, or holding line breaks or control characters.
func checkPropertyKey(key string) error {
	switch {
	case strings.TrimSpace(key) == "":
		return fmt.Errorf("%w: empty key", ErrBadProperty)
	case !utf8.ValidString(key):
		return fmt.Errorf("%w: key %q is not valid UTF-8", ErrBadProperty, key)
	case strings.ContainsFunc(key, isBreakOrControl):
		return fmt.Errorf("%w: key %q holds a line break or control character", ErrBadProperty, key)
	}
	return nil
}

// propertyNode turns a Go value into the YAML node SetFrontmatter writes,
// the way Obsidian writes properties: strings plain, or double-quoted
// where quotes are needed; a time.Time with no time of day as YYYY-MM-DD;
// slices as block lists; maps with their keys sorted. The node is built
// here rather than by yaml.Node.Encode, which loses some strings ("\n").
func propertyNode(v any) (*yaml.Node, error) {
	scalar := func(tag, value string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
	}
	switch x := v.(type) {
	case nil:
		return scalar("!!null", "null"), nil
	case string:
		if !utf8.ValidString(x) {
			return nil, errors.New("text is not valid UTF-8")
		}
		n := scalar("!!str", x)
		if needsDoubleQuotes(x) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, nil
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			return scalar("!!timestamp", x.Format(time.DateOnly)), nil
		}
		return scalar("!!timestamp", x.Format(time.RFC3339Nano)), nil
	case fmt.Stringer:
		return propertyNode(x.String())
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return scalar("!!bool", strconv.FormatBool(rv.Bool())), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return scalar("!!int", strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return scalar("!!int", strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return scalar("!!float", formatFloat(rv.Float())), nil
	case reflect.String:
		return propertyNode(rv.String())
	case reflect.Slice, reflect.Array:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := range rv.Len() {
			c, err := propertyNode(rv.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		if len(n.Content) == 0 {
			n.Style = yaml.FlowStyle // []
		}
		return n, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("a map with %s keys", rv.Type().Key())
		}
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			kn, err := propertyNode(k.String())
			if err != nil {
				return nil, err
			}
			vn, err := propertyNode(rv.MapIndex(k).Interface())
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, kn, vn)
		}
		if len(n.Content) == 0 {
			n.Style = yaml.FlowStyle // {}
		}
		return n, nil
	}
	return nil, fmt.Errorf("values of type %T cannot be written", v)
}

// formatFloat writes a float so that it reads back as a float.
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// isBreakOrControl reports whether r is a control character, a line
// break YAML knows (U+0085, U+2028, U+2029) or a byte-order mark.
func isBreakOrControl(r rune) bool {
	return unicode.IsControl(r) || r == '\u0085' || r == '\u2028' || r == '\u2029' || r == '\uFEFF'
}

// needsDoubleQuotes reports whether a string is written double-quoted:
// when YAML would quote it anyway (Obsidian uses double quotes), and when
// it holds line breaks, control characters or edge spaces, which only the
// double-quoted style writes exactly (the encoder's block styles lose
// some of them).
func needsDoubleQuotes(s string) bool {
	if s != strings.TrimSpace(s) || strings.ContainsFunc(s, isBreakOrControl) {
		return true
	}
	out, err := encodeYAML(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
	if err != nil || bytes.HasPrefix(out, []byte("'")) {
		return true
	}
	var back string
	return yaml.Unmarshal(out, &back) != nil || back != s
}

// renderEntry writes "key: value" as YAML, each line indented by indent
// and ended by eol, with comment at the end of the key line.
func renderEntry(key, val *yaml.Node, indent, comment, eol string) (string, error) {
	b, err := encodeYAML(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{key, val}})
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrBadProperty, key.Value, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var out strings.Builder
	for i, l := range lines {
		if l != "" {
			out.WriteString(indent)
		}
		out.WriteString(l)
		if i == 0 && comment != "" {
			out.WriteString(" " + comment)
		}
		out.WriteString(eol)
	}
	return out.String(), nil
}
