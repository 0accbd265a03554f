package toontest

import "github.com/vaultgraph/vaultgraph/internal/toon"

// object collects the fields of an Object; a repeated key keeps its first
// position and takes the last value (spec §14.3).
type object struct {
	obj toon.Object
	idx map[string]int // built once the object grows wide
}

// set stores key and reports whether it was already there.
func (o *object) set(key string, v any) bool {
	if o.idx == nil && len(o.obj) >= 8 {
		o.idx = make(map[string]int, 16)
		for i, f := range o.obj {
			o.idx[f.Key] = i
		}
	}
	i, ok := -1, false
	if o.idx != nil {
		i, ok = o.idx[key]
	} else {
		for j := range o.obj {
			if o.obj[j].Key == key {
				i, ok = j, true
				break
			}
		}
	}
	if ok {
		o.obj[i].Value = v
		return true
	}
	if o.idx != nil {
		o.idx[key] = len(o.obj)
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
