package store

import "context"

// A bulk pass ends by finishing FTS5's merges (fts_merge.go), and the
// segments those merges replace leave their pages free at the end of the
// file, where no later write of the pass reuses them. vacuumSparse gives
// them back.

// sparseShare is the share of free pages above which vacuumSparse runs:
// 1/sparseShare of the file. A small file is rebuilt as fast as it is
// read.
const sparseShare = 10

// vacuumSparse rebuilds the file with VACUUM when more than a tenth of
// its pages are free. The caller holds s.wmu, after a committed write.
// VACUUM changes no row but counts as a schema change: the key this
// store's last write recorded moves with it (KeepCache). It fails when
// another process reads the index meanwhile; the pages then stay free
// for later writes to reuse.
func (s *Store) vacuumSparse(ctx context.Context) {
	var pages, free int64
	err := s.db.QueryRowContext(ctx, "SELECT page_count, freelist_count FROM pragma_page_count, pragma_freelist_count").Scan(&pages, &free)
	if err != nil || free == 0 || free*sparseShare < pages {
		return
	}
	before := s.keep.last
	if _, err := s.db.ExecContext(ctx, "VACUUM"); err != nil {
		return
	}
	if k, ok := s.cacheKey(ctx, s.db); ok && before != (cacheKey{}) && k.id == before.id && k.n == before.n {
		s.keep.last = k
	}
}
