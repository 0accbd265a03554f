package mcp

import "io"

// WriteJSON writes v as indented JSON followed by a newline (null for a
// nil value), for the external tests.
func WriteJSON(w io.Writer, v any) error { return writeJSON(w, v, "  ") }

// FieldTable is fieldTable, for the external tests.
func FieldTable(tool string) (fields, minimal, standard, full []string) { return fieldTable(tool) }
