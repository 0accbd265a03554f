package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Page cache sizes (PRAGMA cache_size, negative: KiB): poolCachePages
// for every connection of the pool (see Open), keeperCachePages for the
// one that keeps the snapshot cache beside a cold index's last batch
// (keepAhead).
const (
	poolCachePages   = "-16384"
	keeperCachePages = "-1024"
)

// ShrinkMemory gives back what the index's idle connections hold in
// their page caches (PRAGMA shrink_memory on each): each connection may
// cache up to 16 MiB of pages (cache_size), and SQLite keeps them until
// the connection closes. At 100,000 notes, 100 searches left a server
// holding about 50 MB of them. The connections stay open, with their
// schema and prepared statements; a read after this takes its pages
// from the kernel's cache of the file. A server calls it when requests
// pause. A connection in use is left alone.
func (s *Store) ShrinkMemory(ctx context.Context) error {
	n := s.db.Stats().Idle
	conns := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var errs []error
	for range n {
		c, err := s.db.Conn(ctx)
		if err != nil {
			errs = append(errs, err)
			break
		}
		conns = append(conns, c)
		if _, err := c.ExecContext(ctx, "PRAGMA shrink_memory"); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("shrink memory: %w", err)
	}
	return nil
}
