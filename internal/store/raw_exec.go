package store

import (
	"database/sql/driver"
	"fmt"

	"github.com/vaultgraph/vaultgraph/vault"
)

// A cold index inserts eight link rows a note. Through database/sql each
// row's INSERT allocated its arguments again ([]driver.NamedValue, 700 MB
// at 100,000 notes: a tenth of what the pass allocated) and converted
// each int by reflection. insertLink hands the row to the driver's
// statement on the transaction's own connection (sql.Conn.Raw), its
// arguments in one slice the writer reuses.

// rawStmts are the driver statements a writer prepared on its
// transaction's connection, by query; the writer closes them.
type rawStmts map[string]driver.Stmt

// insertLinkSQL stores one link row (writeLinks).
const insertLinkSQL = `INSERT INTO links(source, seq, kind, target, fragment, alias, property,
	start, end, target_start, target_end, line, resolved, status, context)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// insertLink stores link i of note doc, l, with its resolution (a doc or
// nil), status (a code or nil) and context.
func (w *writer) insertLink(doc int64, i int, l *vault.Link, resolved, status any, context string) error {
	w.args = append(w.args[:0], doc, int64(i), linkCode(linkKinds, string(l.Kind)), l.Target, l.Fragment, l.Alias, l.Property,
		int64(l.Start), int64(l.End), int64(l.TargetStart), int64(l.TargetEnd), int64(l.Line), resolved, status, context)
	return w.execRaw(insertLinkSQL, w.args)
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
			if w.raw == nil {
				w.raw = rawStmts{}
			}
			w.raw[query] = st
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

// closeRaw closes the driver statements of the writer.
func (w *writer) closeRaw() {
	if len(w.raw) == 0 {
		return
	}
	_ = w.conn.Raw(func(any) error {
		for _, st := range w.raw {
			_ = st.Close()
		}
		return nil
	})
	w.raw = nil
}
