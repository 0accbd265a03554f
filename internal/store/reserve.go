package store

import (
	"database/sql"
	"errors"
	"fmt"
	"maps"
)

// A pass that writes many notes in several batches (a cold index) links
// notes of later batches before they are stored. Rather than filing such
// a link under a pending name and rewriting it when the note comes
// (claimPending: an update through links_to for every note, in random
// order, which grew with the size of the links table), the pass reserves
// the notes' keys in its first batch (Batch.Reserve): each note not in
// the index gets the next doc, in the order given, and notes'
// AUTOINCREMENT counter (sqlite_sequence) moves past them in the same
// transaction, so that no other note, in this process or another, ever
// gets one of them. A link to a reserved note is then written with its
// doc at once, and the note is inserted under it.
//
// A reserved note that is never written (it could not be parsed, or the
// pass was interrupted) leaves links to a doc no row has: they read as
// resolving to nothing, as links to a deleted note do, until the engine
// resolves them again (a pass leaves the index marked inconsistent until
// its end, and the next start resolves every link again).

// reserve sets the reservations the transaction knows: those of the
// store (held, left as they are: the store keeps them until the
// transaction commits) and those it makes for ids.
func (w *writer) reserve(held map[string]int64, ids []string) error {
	more, err := w.reserveDocs(ids)
	if err != nil {
		return err
	}
	w.reserved = held
	if len(more) > 0 {
		w.reserved = make(map[string]int64, len(held)+len(more))
		maps.Copy(w.reserved, held)
		maps.Copy(w.reserved, more)
	}
	return nil
}

// reserveDocs gives each of ids not in the index the next unused doc, in
// order, and moves the notes' AUTOINCREMENT counter past them. It returns
// the docs given (nil when none).
func (w *writer) reserveDocs(ids []string) (map[string]int64, error) {
	var next int64
	var empty bool
	if err := w.queryRow(`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'notes'), 0),
		coalesce((SELECT max(doc) FROM notes), 0)) + 1, NOT EXISTS (SELECT 1 FROM notes)`).Scan(&next, &empty); err != nil {
		return nil, fmt.Errorf("index reserve: %w", err)
	}
	out := make(map[string]int64, len(ids))
	for _, id := range ids {
		if _, dup := out[id]; dup {
			continue
		}
		// An empty index (a cold one) holds none of them: no look-up.
		err := sql.ErrNoRows
		if !empty {
			var doc int64
			err = w.queryRow("SELECT doc FROM notes WHERE id = ?", id).Scan(&doc)
		}
		switch {
		case errors.Is(err, sql.ErrNoRows):
			out[id] = next
			next++
		case err != nil:
			return nil, fmt.Errorf("index reserve %s: %w", id, err)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	// sqlite_sequence has no unique key on name: update its row, or add
	// one when no note was ever inserted.
	res, err := w.exec("UPDATE sqlite_sequence SET seq = ? WHERE name = 'notes'", next-1)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("index reserve: %w", err)
	} else if n == 0 {
		if _, err := w.exec("INSERT INTO sqlite_sequence(name, seq) VALUES ('notes', ?)", next-1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// insertNote inserts the notes row of id (args are the columns of
// upsert's INSERT) under its reserved doc, or the next one, and returns
// its doc.
func (w *writer) insertNote(id string, args []any) (int64, error) {
	if doc, ok := w.reserved[id]; ok {
		_, err := w.exec(`INSERT INTO notes(doc, id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, append([]any{doc}, args...)...)
		return doc, err
	}
	res, err := w.exec(`INSERT INTO notes(id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
	if err != nil {
		return 0, err
	}
	doc, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("index %s: %w", id, err)
	}
	return doc, nil
}
