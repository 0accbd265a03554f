package toontest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// tfield is one entry of a header's field list: a leaf field, or a nested
// field group when sub is non-nil (spec §9.3).
type tfield struct {
	name string
	sub  []tfield
}

// header is a parsed array or keyed-object header (spec §6).
type header struct {
	key    string
	hasKey bool
	n      int
	delim  byte
	keyed  bool
	fields []tfield // nil without a fields segment
	inline string   // text after the colon
}

// header parses content as an array header; it returns nil for a line
// that is not one. A malformed header is an error in strict mode and a
// plain key-value line otherwise.
func (d *decoder) header(num int, content string) (*header, error) {
	h, err := parseHeader(content)
	if err == nil && h != nil && d.strict && hasDupField(h.fields) {
		err = errors.New("duplicate field name in header")
	}
	if err != nil {
		if d.strict {
			return nil, d.fail(num, err)
		}
		return nil, nil
	}
	return h, nil
}

// parseHeader parses s per the header grammar of spec §6; it returns nil
// and no error when s is not a header line.
func parseHeader(s string) (*header, error) {
	h := &header{delim: ','}
	var open int
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s, 0)
		if end < 0 || end+1 == len(s) || s[end+1] != '[' {
			return nil, nil
		}
		key, err := unescape(s[1:end])
		if err != nil {
			return nil, err
		}
		h.key, h.hasKey, open = key, true, end+1
	} else {
		open = indexUnquoted(s, '[')
		if open < 0 {
			return nil, nil
		}
		if open > 0 {
			if c := s[open-1]; c == ' ' || c == '\t' {
				return nil, nil // "foo [2]: x" is a key-value line (§5.2)
			}
			h.key, h.hasKey = s[:open], true
		}
	}
	if colon := indexUnquoted(s, ':'); colon < open {
		return nil, nil // a key-value line whose value holds a bracket
	}
	closing := strings.IndexByte(s[open:], ']')
	if closing < 0 {
		return nil, errors.New("unterminated bracket segment")
	}
	closing += open
	seg := s[open+1 : closing]
	if strings.HasSuffix(seg, "\t") || strings.HasSuffix(seg, "|") {
		h.delim, seg = seg[len(seg)-1], seg[:len(seg)-1]
	}
	if strings.HasSuffix(seg, ":") {
		h.keyed, seg = true, seg[:len(seg)-1]
	}
	n, err := strconv.Atoi(seg)
	if err != nil || n < 0 || (seg[0] == '0' && len(seg) > 1) || seg[0] == '+' {
		return nil, fmt.Errorf("invalid bracket segment %.40q", s[open:closing+1])
	}
	h.n = n
	i := closing + 1
	if i < len(s) && s[i] == '{' {
		if h.fields, i, err = parseFields(s, i+1, h.delim, 0); err != nil {
			return nil, err
		}
	}
	if i == len(s) || s[i] != ':' {
		return nil, fmt.Errorf("unexpected %.40q after the bracket segment", s[i:])
	}
	h.inline = trimSpaces(s[i+1:])
	if h.keyed && h.fields == nil {
		return nil, errors.New("keyed header without a fields segment")
	}
	if h.fields != nil && h.inline != "" {
		return nil, errors.New("content after a fields-bearing header")
	}
	return h, nil
}

// parseFields parses the field entries of a fields segment from s[i:],
// just past its "{", up to the matching "}"; it returns the index after it.
func parseFields(s string, i int, delim byte, depth int) ([]tfield, int, error) {
	if depth >= toon.MaxDepth {
		return nil, 0, fmt.Errorf("field groups nested deeper than %d", toon.MaxDepth)
	}
	var fields []tfield
	for {
		i += len(s[i:]) - len(strings.TrimLeft(s[i:], " "))
		var f tfield
		if strings.HasPrefix(s[i:], `"`) {
			end := closingQuote(s, i)
			if end < 0 {
				return nil, 0, errors.New("unterminated field name")
			}
			name, err := unescape(s[i+1 : end])
			if err != nil {
				return nil, 0, err
			}
			f.name, i = name, end+1
		} else {
			j := i
			for i < len(s) && strings.IndexByte("{},|\t\"", s[i]) < 0 {
				i++
			}
			if f.name = trimSpaces(s[j:i]); f.name == "" || i < len(s) && s[i] == '{' && s[i-1] == ' ' {
				return nil, 0, fmt.Errorf("bad field name %.40q", s[j:i])
			}
		}
		if i < len(s) && s[i] == '{' {
			var err error
			if f.sub, i, err = parseFields(s, i+1, delim, depth+1); err != nil {
				return nil, 0, err
			}
		}
		fields = append(fields, f)
		i += len(s[i:]) - len(strings.TrimLeft(s[i:], " "))
		switch {
		case i == len(s):
			return nil, 0, errors.New("unmatched brace in fields segment")
		case s[i] == '}':
			return fields, i + 1, nil
		case s[i] == delim:
			i++
		case strings.IndexByte(",|\t", s[i]) >= 0:
			return nil, 0, fmt.Errorf("fields segment uses %q, bracket segment declares %q", s[i], delim)
		default:
			return nil, 0, fmt.Errorf("unexpected %q in fields segment", s[i])
		}
	}
}

func hasDupField(fields []tfield) bool {
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[f.name] || hasDupField(f.sub) {
			return true
		}
		seen[f.name] = true
	}
	return false
}

func leafCount(fields []tfield) int {
	n := 0
	for _, f := range fields {
		if f.sub != nil {
			n += leafCount(f.sub)
		} else {
			n++
		}
	}
	return n
}

// build materializes one row: leaf fields take the next cell, nested
// groups become objects (spec §9.3).
func build(fields []tfield, vals []any, next *int) toon.Object {
	var o object
	for _, f := range fields {
		if f.sub != nil {
			o.set(f.name, build(f.sub, vals, next))
			continue
		}
		o.set(f.name, vals[*next])
		*next++
	}
	return o.value()
}

// isRow tells a tabular row from a key-value line at row depth (§9.3).
func isRow(s string, delim byte) bool {
	colon := indexUnquoted(s, ':')
	dl := indexUnquoted(s, delim)
	return colon < 0 || dl >= 0 && dl < colon
}
