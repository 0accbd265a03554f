package store

import "database/sql"

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
