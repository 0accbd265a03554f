package toontest

import (
	"slices"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// object collects the fields of an Object; a repeated key keeps its first
// position and takes the last value (spec §14.3).
type object struct {
	obj toon.Object
}

// set stores key and reports whether it was already there.
func (o *object) set(key string, v any) bool {
	if i := slices.IndexFunc(o.obj, func(f toon.Field) bool { return f.Key == key }); i >= 0 {
		o.obj[i].Value = v
		return true
	}
	o.obj = append(o.obj, toon.Field{Key: key, Value: v})
	return false
}

func (o *object) value() toon.Object {
	if o.obj == nil {
		return toon.Object{}
	}
	return o.obj
}
