package mcp

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/vaultgraph/vaultgraph/internal/toon"
)

// WriteJSON writes v as indented JSON followed by a newline (null for a
// nil value), for the external tests.
func WriteJSON(w io.Writer, v any) error { return writeJSON(w, v, "  ") }

// FieldTable is fieldTable, for the external tests.
func FieldTable(tool string) (fields, minimal, standard, full []string) { return fieldTable(tool) }

// FlatRows is flatRows: the rows under rowsKey with their list fields
// joined as TOON tables and Markdown lines show them.
func FlatRows(obj toon.Object, rowsKey string) toon.Object { return flatRows(obj, rowsKey) }

// fieldTable returns, for a read tool, every field it can return in order
// and the fields of each detail preset.
func fieldTable(tool string) (fields, minimal, standard, full []string) {
	d := lookup(tool)
	if d == nil || d.fields == nil {
		return nil, nil, nil, nil
	}
	s := d.fields
	return s.all, s.preset(DetailMinimal), s.preset(DetailStandard), s.preset(DetailFull)
}

// Say writes the names of a hint as MCP parameters and tools, or as
// command-line flags and sub-commands when flags is set: a Tools answer's
// hints are written with names in braces ({page: 2}), which Render says.
func Say(hint string, flags bool) string { return say(hint, flags) }

// writeJSON writes v as JSON followed by a newline, indented when indent
// is not empty; a nil value (a not-found read) is written as null.
func writeJSON(w io.Writer, v any, indent string) error {
	if v == nil || (reflect.ValueOf(v).Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil()) {
		_, err := io.WriteString(w, "null\n")
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", indent)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
