package store

import (
	"context"
	"database/sql"
)

// eachRow calls fn for every row of rows, the result of a query that
// failed with err or not, and closes it.
func eachRow(rows *sql.Rows, err error, fn func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanRows reads every row of rows, the result of a query that failed
// with err or not, with scan, and closes it.
func scanRows[T any](rows *sql.Rows, err error, scan func(*sql.Rows, *T) error) ([]T, error) {
	var out []T
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var v T
		if err := scan(rows, &v); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachString calls fn with every row of rows, a query of one text column
// that failed with err or not, and closes it.
func eachString(rows *sql.Rows, err error, fn func(string)) error {
	return eachRow(rows, err, func(rows *sql.Rows) error {
		var v string
		if err := rows.Scan(&v); err != nil {
			return err
		}
		fn(v)
		return nil
	})
}

// inBatches reads the rows of query a batch at a time, with scan, and
// calls each with each of them: query's arguments are the key of the last
// row read (key gives it) and the batch's size, and the batches go on
// until one comes back short. A migration reads so the table it rewrites.
func inBatches[T any](ctx context.Context, tx *sql.Tx, query string, scan func(*sql.Rows, *T) error, key func(*T) int64, each func(*T) error) error {
	const batch = 500
	for last := int64(-1 << 63); ; {
		rows, err := tx.QueryContext(ctx, query, last, batch)
		got, err := scanRows(rows, err, scan)
		if err != nil {
			return err
		}
		for i := range got {
			if err := each(&got[i]); err != nil {
				return err
			}
			last = key(&got[i])
		}
		if len(got) < batch {
			return nil
		}
	}
}
