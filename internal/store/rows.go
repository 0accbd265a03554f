package store

import (
	"strings"
)

// maxRowsPerInsert is the most rows one multi-row INSERT writes. Rows
// written by one statement cost one call through database/sql instead of
// one each (a cold index writes about 8 links and 4 vectors per note).
const maxRowsPerInsert = 32

// insertRows writes rows, each of cols values laid end to end in args,
// with statements of the form prefix + "(?, ...), (?, ...)" + suffix, at
// most maxRowsPerInsert rows each; extra are the arguments of suffix's
// placeholders, passed to every statement.
func (w *writer) insertRows(prefix, suffix string, cols int, args []any, extra ...any) error {
	rows := len(args) / cols
	for at := 0; at < rows; at += maxRowsPerInsert {
		n := min(maxRowsPerInsert, rows-at)
		all := append(args[at*cols:(at+n)*cols:(at+n)*cols], extra...)
		if _, err := w.exec(w.rowsQuery(prefix, suffix, cols, n), all...); err != nil {
			return err
		}
	}
	return nil
}

// rowsQuery returns the statement of n rows of cols placeholders,
// remembered for the transaction.
func (w *writer) rowsQuery(prefix, suffix string, cols, n int) string {
	key := rowsKey{prefix: prefix, cols: cols, n: n}
	if q, ok := w.queries[key]; ok {
		return q
	}
	var b strings.Builder
	b.WriteString(prefix)
	row := "(" + strings.Repeat("?, ", cols-1) + "?)"
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	b.WriteString(suffix)
	if w.queries == nil {
		w.queries = map[rowsKey]string{}
	}
	w.queries[key] = b.String()
	return w.queries[key]
}

// rowsKey names a statement of rowsQuery.
type rowsKey struct {
	prefix string
	cols   int
	n      int
}
