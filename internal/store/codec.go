package store

import (
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Properties are stored as JSON that keeps each value's type, which plain
// JSON would lose (a date would come back as text, an integer as float):
// [{"k":"created","v":{"d":"2024-03-01T00:00:00Z"}}, ...].
type typedProp struct {
	K string     `json:"k"`
	V typedValue `json:"v"`
}

// typedValue holds exactly one of its fields.
type typedValue struct {
	S *string               `json:"s,omitempty"`
	I *int64                `json:"i,omitempty"`
	F *float64              `json:"f,omitempty"`
	B *bool                 `json:"b,omitempty"`
	D *time.Time            `json:"d,omitempty"`
	L []typedValue          `json:"l,omitempty"`
	M map[string]typedValue `json:"m,omitempty"`
	// N marks an empty list (L), an empty map (M) or null (neither).
	N string `json:"n,omitempty"`
}

func toTyped(v any) (typedValue, error) {
	switch x := v.(type) {
	case nil:
		return typedValue{N: "null"}, nil
	case string:
		return typedValue{S: &x}, nil
	case int64:
		return typedValue{I: &x}, nil
	case float64:
		return typedValue{F: &x}, nil
	case bool:
		return typedValue{B: &x}, nil
	case time.Time:
		return typedValue{D: &x}, nil
	case []any:
		out := typedValue{L: make([]typedValue, len(x)), N: emptyMark(len(x), "list")}
		err := typedEach(slices.All(x), func(i int, t typedValue) { out.L[i] = t })
		return out, err
	case map[string]any:
		out := typedValue{M: make(map[string]typedValue, len(x)), N: emptyMark(len(x), "map")}
		err := typedEach(maps.All(x), func(k string, t typedValue) { out.M[k] = t })
		return out, err
	}
	return typedValue{}, fmt.Errorf("property value of type %T cannot be stored", v)
}

// typedEach gives set each value of seq as toTyped converts it.
func typedEach[K any](seq iter.Seq2[K, any], set func(K, typedValue)) error {
	for k, v := range seq {
		t, err := toTyped(v)
		if err != nil {
			return err
		}
		set(k, t)
	}
	return nil
}

// emptyMark is typedValue.N of a list or map of n items.
func emptyMark(n int, mark string) string {
	if n > 0 {
		return ""
	}
	return mark
}

func fromTyped(t typedValue) any {
	switch {
	case t.S != nil:
		return *t.S
	case t.I != nil:
		return *t.I
	case t.F != nil:
		return *t.F
	case t.B != nil:
		return *t.B
	case t.D != nil:
		return *t.D
	case t.L != nil || t.N == "list":
		out := make([]any, 0, len(t.L))
		for _, e := range t.L {
			out = append(out, fromTyped(e))
		}
		return out
	case t.M != nil || t.N == "map":
		out := make(map[string]any, len(t.M))
		for k, v := range t.M {
			out[k] = fromTyped(v)
		}
		return out
	}
	return nil
}

func encodeProperties(props []vault.Property) (string, error) {
	out := make([]typedProp, 0, len(props))
	for _, p := range props {
		t, err := toTyped(p.Value)
		if err != nil {
			return "", fmt.Errorf("property %s: %w", p.Key, err)
		}
		out = append(out, typedProp{K: p.Key, V: t})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("encode properties: %w", err)
	}
	return string(b), nil
}

func decodeProperties(s string) ([]vault.Property, error) {
	if s == "[]" {
		return nil, nil // as below, without the decoder
	}
	var in []typedProp
	if err := decodeJSON(s, &in); err != nil {
		return nil, err
	}
	if len(in) == 0 {
		return nil, nil
	}
	out := make([]vault.Property, 0, len(in))
	for _, p := range in {
		out = append(out, vault.Property{Key: p.K, Value: fromTyped(p.V)})
	}
	return out, nil
}

func decodeJSON(s string, v any) error {
	if s == "" || s == "null" {
		return nil
	}
	if p, ok := v.(*[]string); ok {
		if l, ok := plainStrings(s); ok {
			*p = l // most lists need no decoder
			return nil
		}
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("index value %q: %w", s, err)
	}
	return nil
}

// plainStrings decodes a JSON list of strings without escapes (as
// json.Marshal writes most tag and alias lists): ["a","b c"]. ok is false
// for anything else, which the JSON decoder then reads.
func plainStrings(s string) (l []string, ok bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || strings.IndexByte(s, '\\') >= 0 {
		return nil, false
	}
	rest := s[1 : len(s)-1]
	l = make([]string, 0, strings.Count(rest, ",")+1)
	for rest != "" {
		if len(rest) < 2 || rest[0] != '"' {
			return nil, false
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return nil, false
		}
		item := rest[1 : 1+end]
		if !utf8.ValidString(item) {
			return nil, false
		}
		l = append(l, item)
		rest = rest[2+end:]
		if rest == "" {
			break
		}
		if rest[0] != ',' || len(rest) == 1 {
			return nil, false
		}
		rest = rest[1:]
	}
	return l, true
}
