package store

// SetSQLRank makes Keyword rank by SQL only (on) or in Go where it can
// (off, the default): tests compare the two.
func SetSQLRank(s *Store, on bool) { s.sqlRank = on }

// GoRanked is how many searches s ranked in Go.
func GoRanked(s *Store) int64 { return s.goRanked.Load() }
