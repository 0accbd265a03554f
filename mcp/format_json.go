package mcp

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// WriteJSON writes v as indented JSON followed by a newline; a nil value
// (a not-found read) is written as null.
func WriteJSON(w io.Writer, v any) error { return writeJSON(w, v, "  ") }

// writeJSON writes v as JSON, indented when indent is not empty.
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
