package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// CheckpointEvery is how often at most, while the index is written, a
// passive WAL checkpoint runs in the background (the connections do not
// checkpoint on their own: see Open).
const CheckpointEvery = time.Second

// checkpointer runs one background checkpoint at a time.
type checkpointer struct {
	mu      sync.Mutex
	running bool
	last    time.Time
	wg      sync.WaitGroup
}

// beginWrite takes the writer's lock (wmu) and begins a write
// transaction on the store's write connection (writeConn), which it
// returns too (for statements run through the driver, raw_exec.go); what
// names the write in an error. The caller defers end, which rolls back
// what was not committed, then runs afterWrite and releases the lock.
func (s *Store) beginWrite(ctx context.Context, what string) (conn *sql.Conn, tx *sql.Tx, end func(), err error) {
	s.wmu.Lock()
	if conn, err = s.writeConn(ctx); err == nil {
		if tx, err = conn.BeginTx(ctx, nil); err != nil {
			s.dropWriteConn()
		}
	}
	if err != nil {
		s.keep.failed = true // see KeepCache
		s.afterWrite()
		s.wmu.Unlock()
		return nil, nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	s.keep.committed = false
	return conn, tx, func() {
		_ = tx.Rollback() // after Commit it is a no-op
		if !s.keep.committed {
			s.keep.failed = true // see KeepCache
			s.dropWriteConn()
		}
		s.afterWrite()
		s.wmu.Unlock()
	}, nil
}

// beginWriter is beginWrite with a writer over the transaction, for the
// writes that go through one (Apply, PutVectors). The caller defers end,
// which closes the writer's statements, then ends the transaction.
func (s *Store) beginWriter(ctx context.Context, what string) (w *writer, end func(), err error) {
	conn, tx, endTx, err := s.beginWrite(ctx, what)
	if err != nil {
		return nil, nil, err
	}
	w = newWriter(ctx, tx)
	w.conn = conn
	if s.wraw == nil {
		s.wraw = rawStmts{}
	}
	w.raw = s.wraw
	s.stmts.db = s.db
	w.cache = &s.stmts
	return w, func() {
		w.close()
		endTx()
	}, nil
}

// afterWrite starts a passive checkpoint in the background when none ran
// for CheckpointEvery. Passive: it copies what no reader still needs into
// the database file and never waits for a reader or a writer, so neither
// waits for it.
func (s *Store) afterWrite() {
	c := &s.ckpt
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running || time.Since(c.last) < CheckpointEvery {
		return
	}
	c.running = true
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		// Errors are harmless: the next write tries again, and Close
		// checkpoints.
		_, _ = s.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
		c.mu.Lock()
		c.running, c.last = false, time.Now()
		c.mu.Unlock()
	}()
}

// wait waits for the checkpoint under way, if any.
func (c *checkpointer) wait() { c.wg.Wait() }

// Reset empties the index (for an index file that belongs to another
// vault).
func (s *Store) Reset(ctx context.Context) error {
	_, tx, end, err := s.beginWrite(ctx, "reset index")
	if err != nil {
		return err
	}
	defer end()
	// 'delete-all' empties fts without reading each row's old values.
	if err := execAll(ctx, tx, "INSERT INTO fts(fts) VALUES('delete-all')", "INSERT INTO fts_anchor(fts_anchor) VALUES('delete-all')",
		"DELETE FROM note_body", "DELETE FROM vectors", "DELETE FROM vector_notes", "DELETE FROM vector_models", "DELETE FROM links",
		"DELETE FROM pending", "DELETE FROM notes", "DELETE FROM attachments", "DELETE FROM problems", "DELETE FROM meta"); err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	if err := s.commitWrite(ctx, tx); err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	s.ranks.forget() // FTS5's origins start over (search_docsize.go)
	return nil
}
