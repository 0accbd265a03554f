package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestWithMmap checks that WithMmap sets every connection's mmap_size,
// and that a store opened without it maps nothing.
func TestWithMmap(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		desc string
		opts []Option
		size int64 // the index file's size before Open, made by grow
		want int64
	}{
		{desc: "default", want: 0},
		{desc: "WithMmap", opts: []Option{WithMmap(4 << 20)}, want: 4 << 20},
		{desc: "file larger than the map", opts: []Option{WithMmap(4 << 20)}, size: 5 << 20, want: 0},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			if tt.size > 0 {
				grow(t, path, tt.size)
			}
			s, err := Open(ctx, path, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			// Two connections at once: each has the setting.
			c1, err := s.db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c1.Close()
			c2, err := s.db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			for _, c := range []*sql.Conn{c1, c2} {
				var got int64
				if err := c.QueryRowContext(ctx, "PRAGMA mmap_size").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != tt.want {
					t.Errorf("PRAGMA mmap_size = %d, want %d", got, tt.want)
				}
			}
		})
	}
}

// grow makes an index at path at least size bytes long.
func grow(t *testing.T, path string, size int64) {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.db.Exec(`CREATE TABLE pad(b BLOB); INSERT INTO pad VALUES (zeroblob(?)); PRAGMA wal_checkpoint(TRUNCATE)`, size); err != nil {
		t.Fatal(err)
	}
}
