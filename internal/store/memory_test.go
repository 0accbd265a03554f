package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"modernc.org/sqlite"
)

// TestShrinkMemory checks that ShrinkMemory empties the page caches of
// the idle connections (reads of a table filled them) and that they
// stay open and usable.
func TestShrinkMemory(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE scratch(x BLOB);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 2000)
		INSERT INTO scratch SELECT randomblob(3000) FROM n`); err != nil {
		t.Fatal(err)
	}
	// Two readers at once, so that two connections cache the table.
	rows, err := s.db.QueryContext(ctx, "SELECT length(x) FROM scratch")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	if err := s.db.QueryRowContext(ctx, "SELECT sum(length(x)) FROM scratch").Scan(&total); err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	before, conns := cacheUsed(ctx, t, s)
	if before < 4<<20 || conns < 2 {
		t.Fatalf("before: %d bytes cached in %d idle connections, want at least 4 MiB in 2", before, conns)
	}
	if err := s.ShrinkMemory(ctx); err != nil {
		t.Fatal(err)
	}
	after, conns2 := cacheUsed(ctx, t, s)
	if after > 256<<10 || conns2 != conns {
		t.Errorf("after ShrinkMemory: %d bytes cached in %d idle connections, want at most 256 KiB in %d", after, conns2, conns)
	}
	var again int64
	if err := s.db.QueryRowContext(ctx, "SELECT sum(length(x)) FROM scratch").Scan(&again); err != nil || again != total {
		t.Errorf("read after ShrinkMemory = %d, %v, want %d", again, err, total)
	}
}

// cacheUsed sums the page cache memory of s's idle connections.
func cacheUsed(ctx context.Context, t *testing.T, s *Store) (bytes, conns int) {
	t.Helper()
	n := s.db.Stats().Idle
	held := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range n {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		if err := c.Raw(func(dc any) error {
			cur, _, err := dc.(sqlite.DBStatus).Status(sqlite.DBStatusCacheUsed, false)
			bytes += cur
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	return bytes, n
}
