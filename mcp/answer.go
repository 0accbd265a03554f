package mcp

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/textfold"
	"github.com/vaultgraph/vaultgraph/internal/toon"
	"github.com/vaultgraph/vaultgraph/vault"
)

// kind is the shape of an answer, which decides its Markdown layout.
type kind int

const (
	kindNote   kind = iota // one note: metadata, content, maybe neighbours
	kindRows               // a page of notes or tags
	kindPath               // find_path
	kindStatus             // vault_status
)

// answer is a tool's answer after field selection and before encoding.
// Every format is written from it, so TOON and JSON carry the same data.
// The parts are written in this order: head, content, more, rows (with
// the rows' nested properties after them), foot, warnings, hint, omitted.
type answer struct {
	kind kind
	// relevance is set when the rows' scores are search relevance (0-1).
	relevance bool
	head      toon.Object // fields before the content
	content   *string     // a note's content, nil when not selected
	more      toon.Object // fields between the content and the rows
	rowsKey   string      // key of the rows ("nodes", "neighbors", "tags"); "" without rows
	rows      []toon.Object
	props     []toon.Object // parallel to rows: a row's properties, nil for none
	foot      toon.Object   // totals and paging
	// label is a note's row label in Markdown ("in", "out") or a list's
	// heading ("Hubs by pagerank").
	label    string
	warnings []string
	hint     string
	omitted  string // what maxTokens left out, set while fitting
	// keep are the fields a minimal cut keeps; nil means identifying.
	keep []string
	// allFields is set when the answer holds every field (detail full).
	allFields bool
	// flags is set when hints name command-line flags (Presentation.Flags).
	flags bool
}

// cut says how much of an answer to write: rows kept, characters of the
// note's content and of each row's content (-1: as shaped, 0: none),
// warnings kept (-1: all), whether to keep only identifying fields, and
// whether to keep only the id with the totals and paging.
type cut struct {
	rows, content, rowContent, warnings int
	minimal, idOnly                     bool
}

var uncut = cut{rows: -1, content: -1, rowContent: -1, warnings: -1}

// upTo is n, or limit (one of cut's counts) when it is set and smaller.
func upTo(n, limit int) int {
	if limit < 0 {
		return n
	}
	return min(n, limit)
}

// identifying fields survive cut.minimal.
var identifying = []string{"id", "title", "direction", "score", "tag", "count", "path", "length"}

// tree builds the answer as ordered data, as cut says.
func (a *answer) tree(c cut) toon.Object {
	keep, minimal := a.keep, c.minimal
	if c.idOnly {
		keep, minimal = []string{"id"}, true
	}
	obj := append(toon.Object{}, keepFields(a.head, minimal, keep)...)
	if a.content != nil && c.content != 0 && !c.minimal && !c.idOnly {
		obj = append(obj, toon.Field{Key: "content", Value: Truncate(*a.content, c.content)})
	}
	if !c.idOnly {
		obj = append(obj, a.more...)
	}
	if a.rowsKey != "" {
		rows, props := a.keptRows(c)
		obj = append(obj, toon.Field{Key: a.rowsKey, Value: mapped(rows, func(r toon.Object) any { return r })})
		if len(props) > 0 {
			obj = append(obj, toon.Field{Key: a.propsKey(), Value: props})
		}
	}
	obj = append(obj, a.foot...)
	if ws := a.warnings[:upTo(len(a.warnings), c.warnings)]; len(ws) > 0 {
		obj = append(obj, toon.Field{Key: "warnings", Value: strings2any(cappedWarnings(ws))})
	}
	if a.hint != "" && !c.idOnly {
		obj = append(obj, toon.Field{Key: "hint", Value: say(a.hint, a.flags)})
	}
	if a.omitted != "" {
		obj = append(obj, toon.Field{Key: "omitted", Value: say(a.omitted, a.flags)})
	}
	return obj
}

// MaxWarnings is how many warnings an answer lists; the last line then
// counts the others.
const MaxWarnings = 50

// cappedWarnings returns at most MaxWarnings lines of ws, the last one
// counting those left out.
func cappedWarnings(ws []string) []string {
	if len(ws) <= MaxWarnings {
		return ws
	}
	out := slices.Clone(ws[:MaxWarnings-1])
	return append(out, fmt.Sprintf("... and %d more warnings", len(ws)-(MaxWarnings-1)))
}

// propsKey is the key of the rows' properties, written after the rows.
func (a *answer) propsKey() string {
	if a.kind == kindNote {
		return "neighborProperties" // "properties" is the note's own
	}
	return "properties"
}

// keptRows returns the rows c keeps, their content cut, and the kept rows'
// properties keyed by row id.
func (a *answer) keptRows(c cut) ([]toon.Object, toon.Object) {
	n := upTo(len(a.rows), c.rows)
	rows := make([]toon.Object, 0, n)
	var props toon.Object
	for i, r := range a.rows[:n] {
		row := make(toon.Object, 0, len(r))
		for _, f := range r {
			switch {
			case c.minimal && !slices.Contains(identifying, f.Key):
				continue
			case f.Key == "content" && c.rowContent == 0:
				continue
			case f.Key == "content" && c.rowContent > 0:
				f.Value = Truncate(f.Value.(string), c.rowContent)
			}
			row = append(row, f)
		}
		rows = append(rows, row)
		if a.props[i] != nil && !c.minimal {
			props = append(props, toon.Field{Key: rowID(r), Value: a.props[i]})
		}
	}
	return rows, props
}

// keepFields returns o, or when minimal only its fields named in names
// (nil: the identifying fields).
func keepFields(o toon.Object, minimal bool, names []string) toon.Object {
	if !minimal {
		return o
	}
	if names == nil {
		names = identifying
	}
	var out toon.Object
	for _, f := range o {
		if slices.Contains(names, f.Key) {
			out = append(out, f)
		}
	}
	return out
}

func rowID(r toon.Object) string {
	for _, f := range r {
		if f.Key == "id" || f.Key == "tag" {
			s, _ := f.Value.(string)
			return s
		}
	}
	return ""
}

func strings2any(ss []string) []any { return mapped(ss, func(s string) any { return s }) }

// mapped is f of each element of xs.
func mapped[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// preview is a list row's content: without a first heading that only
// repeats the title, whitespace runs folded into one space, cut to n
// characters.
func preview(s, title string, n int) string {
	// Content may come cut already (with the mark): cut what is before
	// the mark, and put the mark back when nothing more was cut.
	s, wasCut := strings.CutSuffix(s, TruncationMark)
	s = textfold.Flatten(textfold.DropTitleHeading(s, title))
	if t := Truncate(s, n); t != s || !wasCut {
		return t
	}
	return s + TruncationMark
}

// value converts a property value to the types TOON and JSON share:
// dates as text, maps as objects with sorted keys.
func value(v any) any {
	switch x := v.(type) {
	case nil, bool, string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return x
	case time.Time:
		return formatTime(x)
	case []any:
		return mapped(x, value)
	case map[string]any:
		return toon.Object(mapped(slices.Sorted(maps.Keys(x)), func(k string) toon.Field {
			return toon.Field{Key: k, Value: value(x[k])}
		}))
	}
	return fmt.Sprint(v)
}

// propertiesObject is a note's properties in file order.
func propertiesObject(p Properties) toon.Object {
	return mapped(p, func(prop vault.Property) toon.Field {
		return toon.Field{Key: prop.Key, Value: value(prop.Value)}
	})
}

// mentionRow is an unlinked mention as a row: where, the text as written,
// and its sentence.
func mentionRow(m vaultgraph.Mention) any {
	return toon.Object{{Key: "source", Value: m.Source}, {Key: "line", Value: m.Line}, {Key: "text", Value: m.Text}, {Key: "context", Value: m.Context}}
}

// noteLinkRow is a note's link as an {id, title} row.
func noteLinkRow(l vaultgraph.LinkInfo) any {
	return toon.Object{{Key: "id", Value: l.ID}, {Key: "title", Value: l.Title}}
}

// rowSeparators join a row's list fields into one string for a TOON
// table (whose cells are primitives) and a Markdown line: tags with
// spaces, aliases with "; ". JSON keeps them as lists.
var rowSeparators = map[string]string{"tags": " ", "aliases": "; "}

// flatRows returns obj with the list fields of its rows (under rowsKey)
// joined into strings; obj itself is not changed.
func flatRows(obj toon.Object, rowsKey string) toon.Object {
	if rowsKey == "" {
		return obj
	}
	out := slices.Clone(obj)
	for i, f := range out {
		rows, ok := f.Value.([]any)
		if f.Key != rowsKey || !ok {
			continue
		}
		flat := slices.Clone(rows)
		for j, r := range rows {
			row, ok := r.(toon.Object)
			if !ok {
				continue
			}
			row = slices.Clone(row)
			for k, cell := range row {
				sep, joined := rowSeparators[cell.Key]
				if list, ok := cell.Value.([]any); ok && joined {
					row[k].Value = strings.Join(mapped(list, func(w any) string { return fmt.Sprint(w) }), sep)
				}
			}
			flat[j] = row
		}
		out[i].Value = flat
	}
	return out
}
