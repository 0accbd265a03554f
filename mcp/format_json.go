package mcp

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// WriteJSON writes v as indented JSON followed by a newline; a nil value
// (a not-found read) is written as null.
func WriteJSON(w io.Writer, v any) error {
	if v == nil || (reflect.ValueOf(v).Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil()) {
		_, err := io.WriteString(w, "null\n")
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
