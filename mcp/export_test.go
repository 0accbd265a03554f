package mcp

import (
	"io"

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
