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

// WithMmap makes each connection read up to n bytes of the index file
// through a memory map (PRAGMA mmap_size) instead of read calls into its
// own page cache. A commit makes every other connection drop its page
// cache, so that under a mix of writes and searches each search read its
// pages again; mapped pages stay, shared with the kernel's cache. The
// pages a connection touched count in the process's RSS, once for each
// connection that mapped them (clean pages: the kernel can drop them).
// An index file already larger than n when opened is not mapped: the map
// would cover only its start, and the pages searches touch there would
// add to a server's RSS.
func WithMmap(n int64) Option { return func(s *Store) { s.mmap = n } }

// ShrinkMemory gives back what the index's idle connections hold in
// their page caches (PRAGMA shrink_memory on each): each connection may
// cache up to 16 MiB of pages (cache_size), and SQLite keeps them until
// the connection closes. The connections stay open, with their
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
