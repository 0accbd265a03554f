package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Object is a JSON object with its keys in order.
type Object []Field

// Field is one key/value entry of an Object.
type Field struct {
	Key   string
	Value any
}

// Get returns the value of o's field key, and whether o has one.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// MaxDepth bounds the nesting FromJSON and Encode accept (and the toontest
// decoder).
const MaxDepth = 1000 // output grows with the square of the depth

// FromJSON decodes one JSON value into the types Encode accepts: nil, bool,
// string, json.Number, []any and Object (keys in document order). Trailing
// data after the value and duplicate keys within an object are errors.
func FromJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after top-level value")
		}
		return nil, fmt.Errorf("toon: %w", err)
	}
	return v, nil
}

func readValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("toon: %w", err)
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil // nil, bool, string or json.Number
	}
	if depth >= MaxDepth {
		return nil, fmt.Errorf("toon: JSON nested deeper than %d", MaxDepth)
	}
	var out any
	switch d {
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := readValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		out = arr
	case '{':
		obj := Object{}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("toon: %w", err)
			}
			key, _ := kt.(string) // the decoder guarantees a string key here
			if seen[key] {
				return nil, fmt.Errorf("toon: duplicate object key %q", key)
			}
			seen[key] = true
			v, err := readValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			obj = append(obj, Field{Key: key, Value: v})
		}
		out = obj
	default:
		return nil, fmt.Errorf("toon: unexpected delimiter %q", d)
	}
	if _, err := dec.Token(); err != nil { // ']' or '}'
		return nil, fmt.Errorf("toon: %w", err)
	}
	return out, nil
}
