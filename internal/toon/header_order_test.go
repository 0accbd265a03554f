package toon

// headerOrder returns v with the keys of each object that Encode writes as
// a table row or keyed entry in header order, the order Decode gives them
// back in (spec §2). field is false for array elements, which are never in
// keyed form, and whose arrays are never tables.
func headerOrder(v any, field bool) any {
	switch x := v.(type) {
	case []any:
		if rows, ok := asObjects(x); ok && field && len(x) > 0 {
			if fields, ok := tabularFields(rows); ok {
				out := make([]any, len(rows))
				for i, r := range rows {
					out[i] = reorder(r, fields)
				}
				return out
			}
		}
		out := make([]any, len(x))
		for i, el := range x {
			out[i] = headerOrder(el, false)
		}
		return out
	case Object:
		fields, keyed := keyedFields(x)
		keyed = keyed && field
		out := make(Object, len(x))
		for i, f := range x {
			out[i] = Field{Key: f.Key, Value: headerOrder(f.Value, true)}
			if keyed {
				out[i].Value = reorder(f.Value.(Object), fields)
			}
		}
		return out
	}
	return v
}

func reorder(o Object, fields []tfield) Object {
	out := make(Object, len(fields))
	for i, f := range fields {
		v, _ := lookup(o, nil, f.name)
		if f.sub != nil {
			v = reorder(v.(Object), f.sub)
		}
		out[i] = Field{Key: f.name, Value: v}
	}
	return out
}
