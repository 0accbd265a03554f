package store

import (
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// A cold index inserts eight link rows a note. Through database/sql each
// INSERT allocates its arguments again ([]driver.NamedValue) and
// converts each int by reflection. insertLinks hands the rows to the driver's
// statement on the transaction's own connection (sql.Conn.Raw), its
// arguments in one slice the writer reuses.

// rawStmts are the driver statements a writer prepared on its
// transaction's connection, by query: the store's write connection's,
// closed with it (write_conn.go).
type rawStmts map[string]driver.Stmt

// linkColumns are the columns of a links row as insertLinks writes them.
const linkColumns = `INSERT INTO links(source, seq, kind, target, fragment, alias, property,
	start, end, target_start, target_end, line, resolved, status, context) VALUES `

// linkParams are the parameters of one links row (linkColumns).
const linkParams = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// linkRowsPerInsert is how many link rows one INSERT writes at most: a
// note's links are written by one statement, or a few for a note with
// many. Each statement run has a cost of its own besides its rows (the
// call through database/sql and the driver, the start and end of the
// SQLite program, its cursors opened and closed), and the rows of one
// statement go into the links table through the same cursor, which
// finds the place of the next row at once when it follows the last.
// Such a statement opens a savepoint, at which FTS5 flushes the
// full-text rows pending in the transaction; there are none here, as
// writeFTS inserts them after every note's links.
const linkRowsPerInsert = 16

// insertLinksSQL holds the INSERT of n link rows at index n, made once.
var insertLinksSQL = func() (q [linkRowsPerInsert + 1]string) {
	for n := 1; n <= linkRowsPerInsert; n++ {
		q[n] = linkColumns + linkParams + strings.Repeat(", "+linkParams, n-1)
	}
	return q
}()

// linkArgs appends to args the parameters of the links row of link i of
// note doc, l, with its resolution (a doc or nil), status (a code or
// nil) and context (linkParams).
func linkArgs(args []any, doc int64, i int, l *vault.Link, resolved, status any, context string) []any {
	return append(args, doc, int64(i), linkCode(linkKinds, string(l.Kind)), l.Target, l.Fragment, l.Alias, l.Property,
		int64(l.Start), int64(l.End), int64(l.TargetStart), int64(l.TargetEnd), int64(l.Line), resolved, status, context)
}

// insertLinks stores the links of the note of r, whose key is doc and
// whose links' contexts are given, linkRowsPerInsert rows a statement.
func (w *writer) insertLinks(r *Record, doc int64, contexts []string) error {
	links := r.Note.Links
	for first := 0; first < len(links); first += linkRowsPerInsert {
		n := min(len(links)-first, linkRowsPerInsert)
		w.args = w.args[:0]
		for i := first; i < first+n; i++ {
			resolved, status, err := w.resolution(r, i)
			if err != nil {
				return err
			}
			w.args = linkArgs(w.args, doc, i, &links[i], resolved, status, contexts[i])
		}
		if err := w.execRaw(insertLinksSQL[n], w.args); err != nil {
			return err
		}
	}
	return nil
}

// execRaw runs query with args (driver values) as exec does, through the
// driver when the writer has its transaction's connection.
func (w *writer) execRaw(query string, args []any) error {
	if w.conn == nil {
		_, err := w.exec(query, args...)
		return err
	}
	named := w.named[:0]
	for i, a := range args {
		named = append(named, driver.NamedValue{Ordinal: i + 1, Value: a})
	}
	w.named = named
	err := w.conn.Raw(func(dc any) error {
		// database/sql rolls the transaction back when its context ends,
		// under the connection's lock, which this function holds: with
		// the context not ended, the statement runs in the transaction,
		// never on its own after it.
		if err := w.ctx.Err(); err != nil {
			return err
		}
		st, ok := w.raw[query]
		if !ok {
			p, ok := dc.(driver.ConnPrepareContext)
			if !ok {
				return fmt.Errorf("driver %T prepares no statement", dc)
			}
			var err error
			if st, err = p.PrepareContext(w.ctx, query); err != nil {
				return err
			}
			w.raw[query] = st // kept with the connection (write_conn.go)
		}
		ex, ok := st.(driver.StmtExecContext)
		if !ok {
			return fmt.Errorf("driver statement %T runs no exec", st)
		}
		_, err := ex.ExecContext(w.ctx, named)
		return err
	})
	if err != nil {
		return fmt.Errorf("index write: %w", err)
	}
	return nil
}
