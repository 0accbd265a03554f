package store

import (
	"context"
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
