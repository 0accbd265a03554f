package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// A search reads the index in one read transaction (readConn), on one
// connection: every page it reads, in Go or by SQL, is of one state of
// the index.
//
// The statements it runs through readTx's own methods (never a
// full-text MATCH) have a few dozen fixed texts, and are kept prepared on
// each connection that runs them (readStmts), sparing SQLite's parser and
// planner. The SQL of the ranking by SQL, the anchor test and the
// fallbacks (readTx.tx) is not kept: on every connection of the pool, it
// would hold tens of MB.

// maxReadStmts bounds the texts readStmts keeps prepared; a text beyond
// them is run unprepared.
const maxReadStmts = 64

// readStmts keeps the statements of readTx's queries prepared on the
// database, by query text; database/sql prepares each once on each
// connection that runs it (Tx.StmtContext), and closes it with the
// connection.
type readStmts struct {
	mu   sync.Mutex
	db   *sql.DB
	kept keptStmts
}

// stmt returns query's statement, prepared once, or nil (keptStmts.get).
func (c *readStmts) stmt(ctx context.Context, query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db == nil {
		return nil
	}
	return c.kept.get(ctx, query, maxReadStmts, c.db.PrepareContext)
}

// close closes the statements kept; later ones are run unprepared.
func (c *readStmts) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept.close()
	c.db = nil
}

// keptStmts keeps statements prepared, by query text (readStmts,
// snipDB).
type keptStmts struct{ stmts map[string]*sql.Stmt }

// get returns query's statement, prepared once by prepare, or nil when
// max are kept or it cannot be prepared (the caller runs query
// unprepared, which reports the error).
func (k *keptStmts) get(ctx context.Context, query string, max int, prepare func(context.Context, string) (*sql.Stmt, error)) *sql.Stmt {
	if st, ok := k.stmts[query]; ok {
		return st
	}
	if len(k.stmts) >= max {
		return nil
	}
	// Not the caller's context: the statement outlives it.
	st, err := prepare(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil
	}
	if k.stmts == nil {
		k.stmts = map[string]*sql.Stmt{}
	}
	k.stmts[query] = st
	return st
}

// close closes the statements kept.
func (k *keptStmts) close() {
	for _, st := range k.stmts {
		_ = st.Close()
	}
	k.stmts = nil
}

// readTx is a search's read transaction.
type readTx struct {
	tx *sql.Tx
	// stmts keeps the statements of its queries.
	stmts *readStmts
	// low is the lowest doc of fts in the transaction's state, which
	// names the index's generation (rankCache.sameDocs): what a search
	// keeps of its reads is kept under it, so that searches on either
	// side of another process's Reset never take each other's reads.
	low int64
	// readers are the transaction's readers of the full-text tables, by
	// table (nil: the reader cannot serve it), made once: the search's
	// reads share their structure and tombstones.
	readers map[string]*ftsReader
}

// reader returns the transaction's reader of table, its reads of
// segments kept in cache (nil: not kept); ok is false when it cannot
// serve the table. The function that ends the transaction releases it.
func (r *readTx) reader(ctx context.Context, table string, cache *segCache) (*ftsReader, bool, error) {
	if f, ok := r.readers[table]; ok {
		return f, f != nil, nil
	}
	var b []byte // the structure record; none in an empty index
	err := r.QueryRowContext(ctx, "SELECT block FROM "+table+"_data WHERE id = 10").Scan(&b)
	if err != nil && err != sql.ErrNoRows {
		return nil, false, err
	}
	f := &ftsReader{conn: r, table: table, cache: cache}
	if err == nil {
		segs, _, ok := parseStructureMerging(b)
		if f.segs, f.tombs = segs, make([]*tombSet, len(segs)); !ok {
			f = nil
		}
	}
	if r.readers == nil {
		r.readers = map[string]*ftsReader{}
	}
	r.readers[table] = f
	return f, f != nil, nil
}

// end releases the transaction's readers and rolls it back (a read:
// nothing to keep).
func (r *readTx) end() {
	for _, f := range r.readers {
		if f != nil {
			f.release()
		}
	}
	r.readers = nil
	_ = r.tx.Rollback()
}

// QueryContext runs query in the transaction, on its kept statement.
func (r *readTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := r.stmts.stmt(ctx, query); st != nil {
		return r.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return r.tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs query, which returns at most one row, in the
// transaction, on its kept statement.
func (r *readTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := r.stmts.stmt(ctx, query); st != nil {
		return r.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return r.tx.QueryRowContext(ctx, query, args...)
}

// readConn begins a read transaction, so that every page read is of one
// state of the index, and returns it with the function that ends it.
// It reads the index's lowest doc for rankCache.sameDocs.
func (s *Store) readConn(ctx context.Context) (*readTx, func(), error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("keyword search: %w", err)
	}
	rt := &readTx{tx: tx, stmts: &s.reads}
	if err := rt.QueryRowContext(ctx, "SELECT coalesce(min(id), 0) FROM fts_docsize").Scan(&rt.low); err != nil {
		_ = tx.Rollback()
		return nil, nil, fmt.Errorf("keyword search: %w", err)
	}
	s.ranks.sameDocs(rt.low)
	return rt, rt.end, nil
}

// useRead returns rt, or when it is nil, a read transaction of its own
// (readConn), and the function that ends what it began.
func (s *Store) useRead(ctx context.Context, rt *readTx) (*readTx, func(), error) {
	if rt != nil {
		return rt, func() {}, nil
	}
	return s.readConn(ctx)
}
