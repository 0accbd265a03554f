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

// beginWriter takes the writer's lock (wmu) and begins a write
// transaction on the store's write connection (writeConn), with a writer
// over it; what names the write in an error. The caller defers end,
// which closes the writer's statements, rolls back what was not
// committed, then runs afterWrite and releases the lock.
func (s *Store) beginWriter(ctx context.Context, what string) (w *writer, end func(), err error) {
	s.wmu.Lock()
	var tx *sql.Tx
	conn, err := s.writeConn(ctx)
	if err == nil {
		if tx, err = conn.BeginTx(ctx, nil); err != nil {
			s.dropWriteConn()
		}
	}
	if err != nil {
		s.keep.failed = true // see KeepCache
		s.afterWrite()
		s.wmu.Unlock()
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	s.keep.committed = false
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
		_ = tx.Rollback() // after Commit it is a no-op
		if !s.keep.committed {
			s.keep.failed = true // see KeepCache
			s.dropWriteConn()
		}
		s.afterWrite()
		s.wmu.Unlock()
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
	w, end, err := s.beginWriter(ctx, "reset index")
	if err != nil {
		return err
	}
	defer end()
	// 'delete-all' empties fts without reading each row's old values.
	if err := execAll(ctx, w.tx, "INSERT INTO fts(fts) VALUES('delete-all')", "INSERT INTO fts_anchor(fts_anchor) VALUES('delete-all')",
		"DELETE FROM note_body", "DELETE FROM vectors", "DELETE FROM vector_notes", "DELETE FROM vector_models", "DELETE FROM links",
		"DELETE FROM pending", "DELETE FROM notes", "DELETE FROM attachments", "DELETE FROM problems", "DELETE FROM meta"); err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	if err := s.commitWrite(ctx, w.tx); err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	s.ranks.forget() // FTS5's origins start over (search_docsize.go)
	return nil
}
