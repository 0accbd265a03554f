package store

import (
	"context"
	"database/sql"
)

// maxSnipStmts bounds the statements snipDB keeps prepared: the
// snippets' queries are a dozen texts; one beyond is run unprepared.
const maxSnipStmts = 64

// snipDB is the connection searches make their snippets on (snipConn),
// its statements kept prepared on it from one search to the next:
// SQLite parsed and planned each of a search's snippet queries again
// (temp.snip's, the notes' rows, the match over them).
type snipDB struct {
	*sql.Conn
	stmts keptStmts
	// made is set once temp.snip and temp.snip_hash exist (startSnip).
	made bool
}

// stmt returns query's statement on the connection, prepared once; nil
// when it cannot be kept (the caller runs query unprepared, which
// reports any error).
func (c *snipDB) stmt(ctx context.Context, query string) *sql.Stmt {
	return c.stmts.get(ctx, query, maxSnipStmts, c.Conn.PrepareContext)
}

// QueryContext runs query on the connection.
func (c *snipDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return c.Conn.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query, which returns at most one row, on the
// connection.
func (c *snipDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.Conn.QueryRowContext(ctx, query, args...)
}

// ExecContext runs query, which returns no rows, on the connection.
func (c *snipDB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := c.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return c.Conn.ExecContext(ctx, query, args...)
}

// Close closes the statements and the connection.
func (c *snipDB) Close() error {
	c.stmts.close()
	return c.Conn.Close()
}
