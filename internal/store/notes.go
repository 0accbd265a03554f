package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Batch is one set of changes written in a single transaction.
type Batch struct {
	// Upserts are notes added or changed: their row, links and
	// full-text entry are replaced.
	Upserts []*Record
	// Relinks are notes whose content did not change but whose links
	// resolve differently: only their links' resolution is rewritten.
	Relinks []*Record
	// Touches are notes whose file changed size or time but not content:
	// only their size and modification time are rewritten.
	Touches []*Record
	// Deletes are note IDs to remove with everything attached.
	Deletes []string
	// AddFiles and RemoveFiles are attachment paths.
	AddFiles, RemoveFiles []string
	// Problems replaces the stored list of problems when non-nil.
	Problems []vault.Problem
	// Meta sets meta keys.
	Meta map[string]string
	// Vectors are chunk vectors of model VectorModel and dimension
	// VectorDim, made while the notes were parsed: written after the
	// notes, as PutVectors writes them, so that notes and their vectors
	// are stored in the same transaction.
	Vectors     []NoteVectors
	VectorModel string
	VectorDim   int
	// Reserve lists the notes a pass is about to write, in this batch or
	// later ones: each not in the index gets its doc now (reserve.go).
	// The reservation lasts until a batch sets meta consistent to 1.
	Reserve []string
	// DeferAnchors leaves the anchor text of the notes the batch touches
	// as it is, marked stale in the same transaction, and the next batch
	// without DeferAnchors rewrites the anchor text of every note: an
	// index pass over many notes in several batches writes it once, not
	// again after each batch.
	DeferAnchors bool
	// Keep, when set, has Apply write the snapshot and graph caches for
	// the state the batch commits while its transaction runs, when the
	// batch writes no notes row and ends a bulk pass (snapcache_ahead.go).
	Keep *Keep
}

// Empty reports whether the batch changes nothing.
func (b *Batch) Empty() bool {
	return len(b.Upserts) == 0 && len(b.Relinks) == 0 && len(b.Deletes) == 0 && len(b.Touches) == 0 &&
		len(b.AddFiles) == 0 && len(b.RemoveFiles) == 0 && b.Problems == nil && len(b.Meta) == 0 && len(b.Vectors) == 0 && len(b.Reserve) == 0
}

// Apply writes the batch in one transaction.
func (s *Store) Apply(ctx context.Context, b *Batch) error {
	if b.Empty() {
		return nil
	}
	w, end, err := s.beginWriter(ctx, "index write")
	if err != nil {
		return err
	}
	defer end()
	// The keeper, if one starts, ends before the store is written again.
	var kept cacheKey
	w.ahead = s.keepsAhead(ctx, b)
	defer func() { w.ahead.end(kept) }()
	w.fileBodies = s.vault.Load() != nil
	w.deferAnchors = b.DeferAnchors
	w.anchorRowsPerScan = s.anchorRowsPerScan
	if err := w.reserve(s.reserved, b.Reserve); err != nil {
		return err
	}
	if err := w.linksIndex(b.DeferAnchors); err != nil {
		return err
	}
	for _, id := range b.Deletes {
		if err := w.delete(id); err != nil {
			return err
		}
	}
	for _, r := range b.Upserts {
		if err := w.upsert(r); err != nil {
			return err
		}
	}
	for _, r := range b.Relinks {
		if err := w.relink(r); err != nil {
			return err
		}
	}
	for _, r := range b.Touches {
		if _, err := w.exec("UPDATE notes SET size = ?, mtime = ? WHERE id = ?", r.Note.Size, r.Note.ModTime.UnixNano(), r.Note.ID); err != nil {
			return err
		}
	}
	if err := w.filesAndMeta(b); err != nil {
		return err
	}
	if err := w.putVectors(b.VectorModel, b.VectorDim, b.Vectors); err != nil {
		return err
	}
	// Pending notes (layout.go) may be left over when notes went, links
	// resolve elsewhere or a pass ends.
	if len(b.Deletes) > 0 || len(b.Relinks) > 0 || b.Meta["consistent"] == "1" {
		if err := w.dropPending(); err != nil {
			return err
		}
	}
	if err := w.writeFTS(b.DeferAnchors, len(b.Upserts)+len(b.Relinks)+len(b.Deletes) > 0); err != nil {
		return err
	}
	s.anchorRows.Add(int64(w.anchorRows))
	if err := s.commitWrite(ctx, w.tx); err != nil {
		return fmt.Errorf("index commit: %w", err)
	}
	s.reserved = w.reserved
	if b.Meta["consistent"] == "1" {
		s.reserved = nil // the pass ended
	}
	if w.bulkEnd {
		s.vacuumSparse(ctx)
	}
	kept = s.keep.last
	return nil
}

// filesAndMeta writes the batch's attachments, problems and meta keys.
func (w *writer) filesAndMeta(b *Batch) error {
	for _, p := range b.RemoveFiles {
		if _, err := w.exec("DELETE FROM attachments WHERE path = ?", p); err != nil {
			return err
		}
	}
	for _, p := range b.AddFiles {
		if _, err := w.exec("INSERT OR IGNORE INTO attachments(path) VALUES (?)", p); err != nil {
			return err
		}
	}
	if b.Problems != nil {
		if err := w.setProblems(b.Problems); err != nil {
			return err
		}
	}
	for k, v := range b.Meta {
		// Unchanged values are not written again, so that an unchanged
		// vault leaves the index (and its snapshot cache) as it was.
		if _, err := w.exec(`INSERT INTO meta(key, value) VALUES (?, ?)
			ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value`, k, v); err != nil {
			return err
		}
	}
	return nil
}

// writer holds the prepared statements of one transaction.
type writer struct {
	ctx context.Context
	tx  *sql.Tx
	// conn, when not nil, is tx's connection, and raw the statements
	// prepared on it through the driver (raw_exec.go), which the store
	// keeps with it (write_conn.go), with named and args the argument
	// slices they reuse.
	conn  *sql.Conn
	raw   rawStmts
	named []driver.NamedValue
	args  []any
	// bulkEnd says the transaction ends a bulk pass (writeFTS).
	bulkEnd bool
	stmts   map[string]*sql.Stmt
	// cache, when not nil, prepares stmts once for every transaction
	// of the store (stmtCache).
	cache *stmtCache
	// anchors are the notes whose anchor text the batch may change
	// (refreshAnchors).
	anchors map[string]bool
	// fresh are the notes this transaction inserted: they have no rows
	// to replace.
	fresh map[string]bool
	// ftsRows are the rows to insert into fts, as ftsRowArgs gives them
	// (writeFTS).
	ftsRows [][]any
	// docs are the keys of notes looked up in the transaction (doc).
	docs map[string]int64
	// fileBodies is set when snippets read the bodies from the files.
	fileBodies bool
	// deferAnchors says the batch leaves the anchor text stale
	// (Batch.DeferAnchors): no note's is worked out.
	deferAnchors bool
	// anchorRows counts the notes refreshAnchor worked out.
	anchorRows int
	// anchorRowsPerScan replaces anchorRowsPerScan when not 0.
	anchorRowsPerScan int64
	// reserved are the docs reserved for notes not yet written
	// (reserve.go).
	reserved map[string]int64
	// pending is 1 when pending holds no row, 2 when it may (claimPending).
	pending int8
	// ahead keeps the caches while the transaction ends (Batch.Keep).
	ahead *keepAhead
	// noLinksTo says the batch runs without the index links_to
	// (linksIndex).
	noLinksTo bool
}

// writeFTS inserts the queued full-text rows and brings the anchor text
// up to date (refreshAnchorsAfter); at the end of a bulk pass it finishes
// the full-text merges under way, and a batch that is not part of a bulk
// pass but changed notes (notes says so: a group commit, the watcher's
// changes) moves them on by a bounded step (stepMerges); one that only
// touched files' times, meta keys or vectors leaves them. It runs last in
// a transaction: FTS5 keeps the rows it is given in memory until the next
// savepoint, and every statement that may change several rows (a row
// with triggers, an upsert, a cascade) opens one. Written between such
// statements, each note would make a small segment of its own for FTS5 to
// merge again; written together, a batch makes one.
func (w *writer) writeFTS(deferAnchors, notes bool) error {
	if err := w.writeFTSRows(deferAnchors); err != nil {
		return err
	}
	bulkEnd, err := w.refreshAnchorsAfter(deferAnchors)
	if err != nil {
		return fmt.Errorf("index anchor text: %w", err)
	}
	w.bulkEnd = bulkEnd
	for _, table := range []string{"fts", "fts_anchor"} {
		switch { // the merges FTS5 started on its own (fts_merge.go)
		case bulkEnd:
			err = w.finishMerges(table)
		case !deferAnchors && notes:
			err = w.stepMerges(table)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func newWriter(ctx context.Context, tx *sql.Tx) *writer {
	return &writer{ctx: ctx, tx: tx, stmts: map[string]*sql.Stmt{}, fresh: map[string]bool{}, docs: map[string]int64{}}
}

// prepare returns the transaction's statement of query, prepared once.
func (w *writer) prepare(query string) (*sql.Stmt, error) {
	st, ok := w.stmts[query]
	if !ok {
		var err error
		if w.cache != nil {
			st, err = w.cache.stmt(w.ctx, w.tx, query)
		} else if st, err = w.tx.PrepareContext(w.ctx, query); err != nil {
			err = fmt.Errorf("index prepare: %w", err)
		}
		if err != nil {
			return nil, err
		}
		w.stmts[query] = st
	}
	return st, nil
}

func (w *writer) exec(query string, args ...any) (sql.Result, error) {
	st, err := w.prepare(query)
	if err != nil {
		return nil, err
	}
	res, err := st.ExecContext(w.ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("index write: %w", err)
	}
	return res, nil
}

// queryRow runs the transaction's statement of query for one row; a
// failed prepare shows in Scan's error.
func (w *writer) queryRow(query string, args ...any) *sql.Row {
	st, err := w.prepare(query)
	if err != nil {
		return w.tx.QueryRowContext(w.ctx, query, args...)
	}
	return st.QueryRowContext(w.ctx, args...)
}

func (w *writer) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

// setProblems replaces the stored problems with ps, unless they are the
// same.
func (w *writer) setProblems(ps []vault.Problem) error {
	var old []vault.Problem
	if err := queryStrings(w.ctx, w.tx, "SELECT path, reason FROM problems ORDER BY path", func(v ...string) {
		old = append(old, vault.Problem{Path: v[0], Reason: v[1]})
	}); err != nil {
		return err
	}
	if slices.Equal(old, ps) {
		return nil
	}
	if _, err := w.exec("DELETE FROM problems"); err != nil {
		return err
	}
	for _, p := range ps {
		if _, err := w.exec("INSERT OR REPLACE INTO problems(path, reason) VALUES (?, ?)", p.Path, p.Reason); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) delete(id string) error {
	delete(w.docs, id)
	delete(w.fresh, id)
	doc, held, err := w.noteDoc(id)
	if err != nil {
		return fmt.Errorf("index delete %s: %w", id, err)
	} else if !held {
		return nil // not in the index: nothing to delete
	}
	before, err := w.anchorLinksOf(doc)
	if err != nil {
		return err
	}
	for _, table := range []string{"fts WHERE rowid", "note_body WHERE doc", "fts_anchor WHERE rowid", "notes WHERE doc"} {
		if _, err := w.exec("DELETE FROM "+table+" = ?", doc); err != nil {
			return err
		}
	}
	// Its links went with it (ON DELETE CASCADE): the notes they led to
	// lose their anchor text.
	return w.touchChangedAnchors(doc, before)
}

func (w *writer) upsert(r *Record) error {
	n := r.Note
	p := r.Prepared
	if p == nil {
		var err error
		if p, err = Prepare(n, r.Body); err != nil {
			return err
		}
	}
	// A note the index does not hold yet has no rows to replace: its
	// rows are only inserted (most notes of a cold index).
	doc, held, err := w.noteDoc(n.ID)
	if err != nil {
		return fmt.Errorf("index %s: %w", n.ID, err)
	}
	fresh := !held
	args := []any{n.ID, storedPath(n.ID, r.Path), n.Title, n.Hash, n.Size, n.ModTime.UnixNano(), n.BodyStart,
		p.aliases, p.tags, p.props, p.warnings, p.anchors}
	if fresh {
		if doc, err = w.insertNote(n.ID, args); err != nil {
			return err
		}
		w.fresh[n.ID] = true
	} else {
		// fts is contentless: its old row goes by its rowid alone.
		if _, err := w.exec("DELETE FROM fts WHERE rowid = ?", doc); err != nil {
			return err
		}
		if _, err := w.exec(`UPDATE notes SET path = ?2, title = ?3, hash = ?4, size = ?5, mtime = ?6, body_start = ?7,
			aliases = ?8, tags = ?9, properties = ?10, warnings = ?11, anchors = ?12 WHERE id = ?1`, args...); err != nil {
			return err
		}
	}
	// Links written before the note resolve to it as pending (layout.go):
	// they give it anchor text.
	if w.docs[n.ID] != doc {
		claimed, err := w.claimPending(n.ID, doc)
		if err != nil {
			return err
		}
		if claimed || fresh {
			w.touchAnchors(n.ID)
		}
		w.docs[n.ID] = doc
	}
	if err := w.writeBody(doc, r.Body, fresh); err != nil {
		return err
	}
	w.ftsRows = append(w.ftsRows, ftsRowArgs(doc, p.cols))
	return w.writeLinks(r, doc, p.contexts, fresh)
}

// writeBody keeps body for snippets in note_body, unless they are read
// from the files (WithVault); fresh says the note has no row there yet.
func (w *writer) writeBody(doc int64, body string, fresh bool) error {
	if w.fileBodies {
		if fresh {
			return nil
		}
		_, err := w.exec("DELETE FROM note_body WHERE doc = ?", doc)
		return err
	}
	_, err := w.exec(`INSERT INTO note_body(doc, z) VALUES (?, ?)
		ON CONFLICT(doc) DO UPDATE SET z = excluded.z`, doc, compressText(body))
	return err
}

// ftsTitle is what the full-text title column holds: the title and the
// note's aliases, one per line, so that a note is found by any of its
// names, with the weight and boost of a title.
func ftsTitle(title string, aliases []string) string {
	if len(aliases) == 0 {
		return title
	}
	return title + "\n" + strings.Join(aliases, "\n")
}

// writeLinks writes the links of the note of r, whose key is doc and
// whose links' contexts (linkContext) are given; fresh says the index
// held no links of the note.
func (w *writer) writeLinks(r *Record, doc int64, contexts []string, fresh bool) error {
	var before anchorLinks
	if !fresh {
		var err error
		if before, err = w.anchorLinksOf(doc); err != nil {
			return err
		}
		if _, err := w.exec("DELETE FROM links WHERE source = ?", doc); err != nil {
			return err
		}
	}
	if err := w.insertLinks(r, doc, contexts); err != nil {
		return err
	}
	return w.touchChangedAnchors(doc, before)
}

func (w *writer) relink(r *Record) error {
	doc, err := w.doc(r.Note.ID)
	if err != nil {
		return err
	}
	before, err := w.anchorLinksOf(doc)
	if err != nil {
		return err
	}
	for i := range r.Note.Links {
		resolved, status, err := w.resolution(r, i)
		if err != nil {
			return err
		}
		if _, err := w.exec("UPDATE links SET resolved = ?, status = ? WHERE source = ? AND seq = ?",
			resolved, status, doc, i); err != nil {
			return err
		}
	}
	return w.touchChangedAnchors(doc, before)
}

// resolution returns what the links table stores of the resolution of
// link i of r: the key of the note it resolves to (nil for none) and
// the code of its status (nil for none).
func (w *writer) resolution(r *Record, i int) (resolved, status any, err error) {
	if i < len(r.Resolved) && r.Resolved[i] != "" {
		if resolved, err = w.doc(r.Resolved[i]); err != nil {
			return nil, nil, err
		}
	}
	if i < len(r.Status) && r.Status[i] != "" {
		status = linkCode(linkStatuses, string(r.Status[i]))
	}
	return resolved, status, nil
}
