package store

import (
	"context"
	"database/sql"
)

// The store's write transactions (Apply, PutVectors, Reset) run on one
// connection it keeps open, not on whichever the pool hands out: the
// statements a transaction prepares, on the connection (stmtCache's) or
// through the driver (raw_exec.go's full-text and link inserts), stay
// prepared for the next one, rather than again for each live write on a
// pooled connection (SQLite's parser and planner). A write that does not
// commit closes the connection, so that a connection in a state of doubt
// is never used again.

// writeConn returns the write connection, opening it the first time
// (the caller holds wmu).
func (s *Store) writeConn(ctx context.Context) (*sql.Conn, error) {
	if s.wconn == nil {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		s.wconn = c
	}
	return s.wconn, nil
}

// dropWriteConn closes the write connection and the driver statements
// prepared on it, if it is open (the caller holds wmu); the next write
// opens another.
func (s *Store) dropWriteConn() {
	if s.wconn == nil {
		return
	}
	if len(s.wraw) > 0 {
		_ = s.wconn.Raw(func(any) error {
			for _, st := range s.wraw {
				_ = st.Close()
			}
			return nil
		})
	}
	s.wraw = nil
	_ = s.wconn.Close()
	s.wconn = nil
}
