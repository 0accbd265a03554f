package mcp

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

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
