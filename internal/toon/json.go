package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalJSON writes the object as a JSON object with its keys in order,
// so that a value built for Encode can also be written as JSON with
// encoding/json, field for field the same data.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalNoEscape(f.Key)
		if err != nil {
			return nil, fmt.Errorf("toon: key %q: %w", f.Key, err)
		}
		v, err := marshalNoEscape(f.Value)
		if err != nil {
			return nil, fmt.Errorf("toon: value of %q: %w", f.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalNoEscape is json.Marshal without HTML escaping (<, > and & stay
// as they are, which keeps note text readable and cheaper in tokens).
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
