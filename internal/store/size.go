package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// TableBytes returns the bytes each part of the index file at path
// occupies, in whole pages (SQLite's dbstat), over a read-only connection
// of its own: "vectors", "fts" (the full-text table's shadow tables),
// "text" (note_body, the notes' bodies compressed, for snippets),
// "links", "notes" (with its key indexes), and "other" (meta,
// attachments, problems, the schema, free pages). Since schema 8 there is
// no tags table. Figures are of the
// database file; pages still in the WAL are not counted.
func TableBytes(ctx context.Context, path string) (map[string]int64, error) {
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}).String())
	if err != nil {
		return nil, fmt.Errorf("index size %s: %w", path, err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT name, sum(pgsize) FROM dbstat GROUP BY name")
	out := map[string]int64{}
	var total int64
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return err
		}
		out[tablePart(name)] += n
		total += n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index size %s: %w", path, err)
	}
	var pages, size int64
	if err := db.QueryRowContext(ctx, "SELECT page_count, page_size FROM pragma_page_count, pragma_page_size").Scan(&pages, &size); err == nil && pages*size > total {
		out["other"] += pages*size - total // free pages
	}
	return out, nil
}

// tablePart names the part of the index a table or index belongs to.
func tablePart(name string) string {
	switch {
	case name == "vectors" || strings.HasPrefix(name, "vector_") || strings.HasPrefix(name, "sqlite_autoindex_vector"):
		return "vectors"
	case name == "fts" || strings.HasPrefix(name, "fts_"):
		return "fts"
	case name == "note_body" || name == "note_text":
		return "text"
	case name == "links" || strings.HasPrefix(name, "links_") || strings.HasPrefix(name, "sqlite_autoindex_links"):
		return "links"
	case name == "notes" || strings.HasPrefix(name, "notes_") || strings.HasPrefix(name, "sqlite_autoindex_notes") || name == "sqlite_sequence":
		return "notes"
	}
	return "other"
}
