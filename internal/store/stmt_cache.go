package store

import (
	"context"
	"database/sql"
	"fmt"
)

// stmtCache keeps the statements of the write transactions (Apply,
// PutVectors) prepared on the database from one transaction to the next,
// by query text, instead of each transaction preparing its own (SQLite's
// parser and planner for every statement of every live write).
// database/sql keeps each statement
// prepared once per connection, and a transaction uses the one on its
// own connection (Tx.StmtContext). It is guarded by Store.wmu, which
// every write transaction holds.
type stmtCache struct {
	db    *sql.DB
	stmts map[string]*sql.Stmt
}

// stmt returns query's statement for tx, preparing it once.
func (c *stmtCache) stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	st, ok := c.stmts[query]
	if !ok {
		var err error
		// Not the writer's context: the statement outlives it.
		if st, err = c.db.PrepareContext(context.WithoutCancel(ctx), query); err != nil {
			return nil, fmt.Errorf("index prepare: %w", err)
		}
		if c.stmts == nil {
			c.stmts = map[string]*sql.Stmt{}
		}
		c.stmts[query] = st
	}
	return tx.StmtContext(ctx, st), nil
}

// close closes the statements kept (the caller holds Store.wmu).
func (c *stmtCache) close() {
	for _, st := range c.stmts {
		_ = st.Close()
	}
	c.stmts = nil
}
