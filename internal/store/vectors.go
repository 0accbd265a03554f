package store

import (
	"context"
	"database/sql"
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
	w, end, err := s.beginWriter(ctx, "index vectors")
	if err != nil {
		return err
	}
	defer end()
	if err := w.putVectors(model, dim, notes); err != nil {
		return err
	}
	if err := s.commitWrite(ctx, w.tx); err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	return nil
}

// putVectors replaces the stored vectors of each note for model.
func (w *writer) putVectors(model string, dim int, notes []NoteVectors) error {
	if len(notes) == 0 {
		return nil
	}
	mid, err := w.vectorModel(model, dim)
	if err != nil {
		return err
	}
	for _, nv := range notes {
		if err := w.putNoteVectors(mid, dim, &nv); err != nil {
			return fmt.Errorf("index vectors of %s: %w", nv.Note, err)
		}
	}
	return nil
}

// putNoteVectors replaces the stored vectors of one note for the model
// mid.
func (w *writer) putNoteVectors(mid int64, dim int, nv *NoteVectors) error {
	// A note this transaction inserted (upsert) has no vectors yet, and
	// its key is known.
	doc := w.docs[nv.Note]
	if !w.fresh[nv.Note] {
		var exists bool
		var err error
		if doc, exists, err = w.noteDoc(nv.Note); err != nil || !exists {
			return err // only for a note still in the index
		}
		for _, table := range []string{"vectors", "vector_notes"} {
			if _, err := w.exec("DELETE FROM "+table+" WHERE note = ? AND model = ?", doc, mid); err != nil {
				return err
			}
		}
	}
	blobs := nv.Blobs
	if blobs == nil {
		blobs = make([][]byte, len(nv.Vecs))
		for i, v := range nv.Vecs {
			if len(v) != dim {
				return fmt.Errorf("chunk %d has %d dimensions, not %d", i, len(v), dim)
			}
			blobs[i] = encodeVector(v)
		}
	}
	for i, b := range blobs {
		if len(b) != dim+1 && !isSparse(len(b), dim) {
			return fmt.Errorf("chunk %d is %d bytes, not an encoded vector of %d dimensions", i, len(b), dim)
		}
		// One INSERT per row (see writeLinks).
		w.args = append(w.args[:0], doc, mid, int64(i), b)
		if err := w.execRaw("INSERT INTO vectors(note, model, chunk, vec) VALUES (?, ?, ?, ?)", w.args); err != nil {
			return err
		}
	}
	if len(blobs) == 0 {
		return nil
	}
	_, err := w.exec("INSERT INTO vector_notes(note, model, hash, chunks) VALUES (?, ?, ?, ?)", doc, mid, nv.Hash, len(blobs))
	return err
}

// noteDoc returns the key of the note id, and whether the index holds
// it.
func (w *writer) noteDoc(id string) (int64, bool, error) {
	var doc int64
	err := w.queryRow("SELECT doc FROM notes WHERE id = ?", id).Scan(&doc)
	if err == sql.ErrNoRows {
		return 0, false, nil
	}
	return doc, err == nil, err
}

// vectorModel returns the key of model and dim in vector_models, adding
// them when new.
func (w *writer) vectorModel(model string, dim int) (int64, error) {
	if _, err := w.exec("INSERT INTO vector_models(name, dim) VALUES (?, ?) ON CONFLICT(name, dim) DO NOTHING", model, dim); err != nil {
		return 0, fmt.Errorf("index vectors: %w", err)
	}
	var id int64
	if err := w.queryRow("SELECT model FROM vector_models WHERE name = ? AND dim = ?", model, dim).Scan(&id); err != nil {
		return 0, fmt.Errorf("index vectors: %w", err)
	}
	return id, nil
}

// Vectors calls fn with every stored note's vectors for model and dim,
// chunks in order, notes in the order of their keys.
func (s *Store) Vectors(ctx context.Context, model string, dim int, fn func(NoteVectors) error) error {
	rows, err := s.db.QueryContext(ctx,
		`SELECT n.id, v.chunk, coalesce(vn.hash, ''), v.vec FROM vectors v JOIN notes n ON n.doc = v.note
		LEFT JOIN vector_notes vn ON vn.note = v.note AND vn.model = v.model
		WHERE v.model = (SELECT model FROM vector_models WHERE name = ? AND dim = ?) ORDER BY v.note, v.chunk`, model, dim)
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
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM vectors
		WHERE model = (SELECT model FROM vector_models WHERE name = ? AND dim = ?)`, model, dim).Scan(&n); err != nil {
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
		`SELECT n.id, vn.hash FROM vector_notes vn JOIN notes n ON n.doc = vn.note
		WHERE vn.model = (SELECT model FROM vector_models WHERE name = ? AND dim = ?) AND vn.hash <> ''
			AND vn.chunks = (SELECT count(*) FROM vectors v WHERE v.note = vn.note AND v.model = vn.model)`,
		model, dim)
	out := map[string]string{}
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var note, hash string
		if err := rows.Scan(&note, &hash); err != nil {
			return err
		}
		out[note] = hash
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index vectors: %w", err)
	}
	return out, nil
}

// VectorModels returns, per model and dimension stored, how many notes
// have vectors ("model/dim" -> notes).
func (s *Store) VectorModels(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT m.name, m.dim, COUNT(*) FROM vector_notes vn
		JOIN vector_models m ON m.model = vn.model GROUP BY m.model`)
	out := map[string]int{}
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var model string
		var dim, n int
		if err := rows.Scan(&model, &dim, &n); err != nil {
			return err
		}
		out[fmt.Sprintf("%s/%d", model, dim)] = n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index vectors: %w", err)
	}
	return out, nil
}

// DropOtherVectors removes the vectors of every model but model and dim:
// called once the new model's vectors are complete.
func (s *Store) DropOtherVectors(ctx context.Context, model string, dim int) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	defer s.afterWrite()
	if _, err := s.db.ExecContext(ctx, "DELETE FROM vector_models WHERE name <> ? OR dim <> ?", model, dim); err != nil {
		return fmt.Errorf("index vectors: %w", err)
	}
	return nil
}
