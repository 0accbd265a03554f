package store

import (
	"context"
	"fmt"
)

// NoteVectors are the chunk vectors of one note, made by one model from
// the note version with content hash Hash.
type NoteVectors struct {
	Note string
	Hash string
	Vecs [][]float32
	// Blobs, when not nil, are the vectors already in their stored form
	// (EncodeVector or a Codec's Encode), and what is written; without
	// them Vecs are written as int8 (EncodeVector).
	Blobs [][]byte
	// Dense, as read by Vectors, says that some chunk is stored with
	// every component (int8, or float32 before schema 5) rather than in
	// the Sparse form.
	Dense bool
}

// PutVectors replaces the stored vectors of each note for model, in one
// transaction. A note no longer in the index is skipped.
func (s *Store) PutVectors(ctx context.Context, model string, dim int, notes []NoteVectors) error {
	if len(notes) == 0 {
		return nil
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	defer s.afterWrite()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it is a no-op
	w := newWriter(ctx, tx)
	defer w.close()
	if err := w.putVectors(model, dim, notes); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	return nil
}

// putVectors replaces the stored vectors of each note for model.
func (w *writer) putVectors(model string, dim int, notes []NoteVectors) error {
	for _, nv := range notes {
		if _, err := w.exec("DELETE FROM vectors WHERE note = ? AND model = ?", nv.Note, model); err != nil {
			return fmt.Errorf("index vectors of %s: %w", nv.Note, err)
		}
		exists, err := w.noteExists(nv.Note)
		if err != nil {
			return fmt.Errorf("index vectors of %s: %w", nv.Note, err)
		}
		if !exists {
			continue // only for a note still in the index
		}
		blobs := nv.Blobs
		if blobs == nil {
			blobs = make([][]byte, len(nv.Vecs))
			for i, v := range nv.Vecs {
				if len(v) != dim {
					return fmt.Errorf("index vectors of %s: chunk %d has %d dimensions, not %d", nv.Note, i, len(v), dim)
				}
				blobs[i] = encodeVector(v)
			}
		}
		for i, b := range blobs {
			if len(b) != dim+1 && !isSparse(len(b), dim) {
				return fmt.Errorf("index vectors of %s: chunk %d is %d bytes, not an encoded vector of %d dimensions", nv.Note, i, len(b), dim)
			}
			// One INSERT per row (see writeLinks).
			if _, err := w.exec("INSERT INTO vectors(note, chunk, model, dim, hash, vec) VALUES (?, ?, ?, ?, ?, ?)",
				nv.Note, i, model, dim, nv.Hash, b); err != nil {
				return fmt.Errorf("index vectors of %s: %w", nv.Note, err)
			}
		}
	}
	return nil
}

// noteExists reports whether the index holds the note id.
func (w *writer) noteExists(id string) (bool, error) {
	const query = "SELECT EXISTS (SELECT 1 FROM notes WHERE id = ?)"
	st, ok := w.stmts[query]
	if !ok {
		var err error
		if st, err = w.tx.PrepareContext(w.ctx, query); err != nil {
			return false, err
		}
		w.stmts[query] = st
	}
	var exists bool
	err := st.QueryRowContext(w.ctx, id).Scan(&exists)
	return exists, err
}

// Vectors calls fn with every stored note's vectors for model and dim,
// chunks in order.
func (s *Store) Vectors(ctx context.Context, model string, dim int, fn func(NoteVectors) error) error {
	rows, err := s.db.QueryContext(ctx,
		"SELECT note, chunk, hash, vec FROM vectors WHERE model = ? AND dim = ? ORDER BY note, chunk", model, dim)
	if err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	defer rows.Close()
	var cur NoteVectors
	flush := func() error {
		if cur.Note == "" {
			return nil
		}
		err := fn(cur)
		cur = NoteVectors{}
		return err
	}
	for rows.Next() {
		var note, hash string
		var chunk int
		var blob []byte
		if err := rows.Scan(&note, &chunk, &hash, &blob); err != nil {
			return fmt.Errorf("index vectors: %w", err)
		}
		if note != cur.Note {
			if err := flush(); err != nil {
				return err
			}
			cur = NoteVectors{Note: note, Hash: hash}
		}
		v, err := decodeVector(blob, dim)
		if err != nil {
			return fmt.Errorf("index vectors of %s: %w", note, err)
		}
		if !isSparse(len(blob), dim) {
			cur.Dense = true
		}
		if chunk != len(cur.Vecs) || hash != cur.Hash {
			cur.Hash = "" // chunks missing or of several versions: stale
		}
		cur.Vecs = append(cur.Vecs, v)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	return flush()
}

// VectorCount returns how many chunk vectors are stored for model and dim.
func (s *Store) VectorCount(ctx context.Context, model string, dim int) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM vectors WHERE model = ? AND dim = ?", model, dim).Scan(&n); err != nil {
		return 0, fmt.Errorf("index vectors: %w", err)
	}
	return n, nil
}

// VectorHashes returns, for each note with complete stored vectors for
// model and dim, the content hash they were made from, without reading
// the vectors themselves. A note whose chunks are not numbered 0..n-1 or
// come from several versions is left out (its vectors are stale).
func (s *Store) VectorHashes(ctx context.Context, model string, dim int) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx,
		"SELECT note, COUNT(*), MIN(chunk), MAX(chunk), MIN(hash), MAX(hash) FROM vectors WHERE model = ? AND dim = ? GROUP BY note",
		model, dim)
	if err != nil {
		return nil, fmt.Errorf("index vectors: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var note, minHash, maxHash string
		var n, lo, hi int
		if err := rows.Scan(&note, &n, &lo, &hi, &minHash, &maxHash); err != nil {
			return nil, fmt.Errorf("index vectors: %w", err)
		}
		if lo == 0 && hi == n-1 && minHash == maxHash && minHash != "" {
			out[note] = minHash
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index vectors: %w", err)
	}
	return out, nil
}

// VectorModels returns, per model and dimension stored, how many notes
// have vectors ("model/dim" -> notes).
func (s *Store) VectorModels(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT model, dim, COUNT(DISTINCT note) FROM vectors GROUP BY model, dim")
	if err != nil {
		return nil, fmt.Errorf("index vectors: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var model string
		var dim, n int
		if err := rows.Scan(&model, &dim, &n); err != nil {
			return nil, fmt.Errorf("index vectors: %w", err)
		}
		out[fmt.Sprintf("%s/%d", model, dim)] = n
	}
	return out, rows.Err()
}

// DropOtherVectors removes the vectors of every model but model and dim:
// called once the new model's vectors are complete.
func (s *Store) DropOtherVectors(ctx context.Context, model string, dim int) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	defer s.afterWrite()
	if _, err := s.db.ExecContext(ctx, "DELETE FROM vectors WHERE model <> ? OR dim <> ?", model, dim); err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	return nil
}
