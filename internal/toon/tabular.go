package toon

import (
	"slices"
	"strings"
)

// tfield is one entry of a tabular field list: a leaf field, or a nested
// field group when sub is non-nil (§9.3).
type tfield struct {
	name string
	sub  []tfield
}

// asObjects returns arr as objects when every element is one.
func asObjects(arr []any) ([]Object, bool) {
	rows := make([]Object, len(arr))
	for i, v := range arr {
		o, ok := v.(Object)
		if !ok {
			return nil, false
		}
		rows[i] = o
	}
	return rows, true
}

// keyedFields reports whether o qualifies for keyed tabular form (§9.5):
// at least two entries whose values are uniform objects.
func keyedFields(o Object) ([]tfield, bool) {
	if len(o) < 2 {
		return nil, false
	}
	vals := make([]Object, len(o))
	for i, f := range o {
		v, ok := f.Value.(Object)
		if !ok {
			return nil, false
		}
		vals[i] = v
	}
	return tabularFields(vals)
}

// tabularFields reports whether rows qualify for tabular form (§9.3) and
// returns the field list in the first row's key order: every row a
// non-empty object with the same key set, every column uniform-primitive
// or nested-uniform.
func tabularFields(rows []Object) ([]tfield, bool) {
	if len(rows) == 0 {
		return nil, false
	}
	first := rows[0]
	for _, r := range rows {
		if len(r) == 0 || len(r) != len(first) {
			return nil, false
		}
	}
	idx := indexes(rows)
	fields := make([]tfield, 0, len(first))
	col := make([]any, len(rows))
	for _, f := range first {
		for i, r := range rows {
			v, ok := lookup(r, idx[i], f.Key)
			if !ok {
				return nil, false
			}
			col[i] = v
		}
		if !slices.ContainsFunc(col, isComposite) {
			fields = append(fields, tfield{name: f.Key})
			continue
		}
		subRows, _ := asObjects(col) // nil, so not tabular, unless all are objects
		sub, ok := tabularFields(subRows)
		if !ok {
			return nil, false
		}
		fields = append(fields, tfield{name: f.Key, sub: sub})
	}
	return fields, true
}

// indexes builds key→position maps for wide objects; narrow ones (nil
// entry) are searched linearly.
func indexes(rows []Object) []map[string]int {
	idx := make([]map[string]int, len(rows))
	for i, r := range rows {
		if len(r) > 8 { // rows are of one width
			idx[i] = make(map[string]int, len(r))
			for j, f := range r {
				idx[i][f.Key] = j
			}
		}
	}
	return idx
}

func lookup(o Object, idx map[string]int, key string) (any, bool) {
	if idx != nil {
		j, ok := idx[key]
		if !ok {
			return nil, false
		}
		return o[j].Value, true
	}
	return o.Get(key)
}

// fieldList renders {f1<d>f2{s1<d>s2}…}.
func (e *encoder) fieldList(fields []tfield) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(e.delim)
		}
		b.WriteString(encodeKey(f.name))
		if f.sub != nil {
			b.WriteString(e.fieldList(f.sub))
		}
	}
	b.WriteByte('}')
	return b.String()
}

// row renders prefix followed by the leaf cells of o in depth-first field
// order, joined by the delimiter.
func (e *encoder) row(prefix []byte, o Object, fields []tfield) string {
	var b strings.Builder
	b.Write(prefix)
	e.writeCells(&b, o, fields, len(prefix))
	return b.String()
}

// writeCells writes the cells of o to b, whose first cell starts at start.
func (e *encoder) writeCells(b *strings.Builder, o Object, fields []tfield, start int) {
	for i, f := range fields {
		var v any
		if i < len(o) && o[i].Key == f.name {
			v = o[i].Value // common case: same key order as the header
		} else {
			v, _ = o.Get(f.name)
		}
		if f.sub != nil {
			e.writeCells(b, v.(Object), f.sub, start)
			continue
		}
		if b.Len() > start {
			b.WriteByte(e.delim)
		}
		b.WriteString(e.prim(v))
	}
}
