package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Record is one note as the index keeps it.
type Record struct {
	Note *vault.Note
	// Path is the file's path relative to the vault, as the OS spells it
	// (it may differ from Note.ID in Unicode normalisation).
	Path string
	// Resolved and Status give, per link, the target note ID ("" when
	// none) and the outcome of resolution.
	Resolved []string
	Status   []vault.Status
	// Body is the note's text for the full-text index. Only writes use it.
	Body string
}

// Batch is one set of changes written in a single transaction.
type Batch struct {
	// Upserts are notes added or changed: their row, links, tags and
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
}

// Empty reports whether the batch changes nothing.
func (b *Batch) Empty() bool {
	return len(b.Upserts) == 0 && len(b.Relinks) == 0 && len(b.Deletes) == 0 && len(b.Touches) == 0 &&
		len(b.AddFiles) == 0 && len(b.RemoveFiles) == 0 && b.Problems == nil && len(b.Meta) == 0
}

// Apply writes the batch in one transaction.
func (s *Store) Apply(ctx context.Context, b *Batch) error {
	if b.Empty() {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index write: %w", err)
	}
	defer tx.Rollback()
	w := newWriter(ctx, tx)
	defer w.close()
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
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index commit: %w", err)
	}
	return nil
}

// writer holds the prepared statements of one transaction.
type writer struct {
	ctx   context.Context
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func newWriter(ctx context.Context, tx *sql.Tx) *writer {
	return &writer{ctx: ctx, tx: tx, stmts: map[string]*sql.Stmt{}}
}

func (w *writer) exec(query string, args ...any) (sql.Result, error) {
	st, ok := w.stmts[query]
	if !ok {
		var err error
		if st, err = w.tx.PrepareContext(w.ctx, query); err != nil {
			return nil, fmt.Errorf("index prepare: %w", err)
		}
		w.stmts[query] = st
	}
	res, err := st.ExecContext(w.ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("index write: %w", err)
	}
	return res, nil
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
	if _, err := w.exec("DELETE FROM fts WHERE rowid = (SELECT rowid FROM notes WHERE id = ?)", id); err != nil {
		return err
	}
	_, err := w.exec("DELETE FROM notes WHERE id = ?", id)
	return err
}

func (w *writer) upsert(r *Record) error {
	n := r.Note
	aliases, _ := json.Marshal(n.Aliases)
	tags, _ := json.Marshal(n.Tags)
	warnings, _ := json.Marshal(n.Warnings)
	props, err := encodeProperties(n.Properties)
	if err != nil {
		return fmt.Errorf("index %s: %w", n.ID, err)
	}
	if _, err := w.exec("DELETE FROM fts WHERE rowid = (SELECT rowid FROM notes WHERE id = ?)", n.ID); err != nil {
		return err
	}
	if _, err := w.exec(`INSERT INTO notes(id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET path=excluded.path, title=excluded.title, hash=excluded.hash,
			size=excluded.size, mtime=excluded.mtime, body_start=excluded.body_start, aliases=excluded.aliases,
			tags=excluded.tags, properties=excluded.properties, warnings=excluded.warnings, anchors=excluded.anchors`,
		n.ID, r.Path, n.Title, n.Hash, n.Size, n.ModTime.UnixNano(), n.BodyStart,
		string(aliases), string(tags), props, string(warnings), encodeAnchors(n)); err != nil {
		return err
	}
	if _, err := w.exec("DELETE FROM tags WHERE note = ?", n.ID); err != nil {
		return err
	}
	for _, t := range n.Tags {
		if _, err := w.exec("INSERT OR IGNORE INTO tags(note, tag) VALUES (?, ?)", n.ID, vault.TagKey(t)); err != nil {
			return err
		}
	}
	names := ftsTitle(n.Title, n.Aliases)
	if _, err := w.exec("INSERT INTO fts(rowid, title, body, cjktitle, cjk) VALUES ((SELECT rowid FROM notes WHERE id = ?), ?, ?, ?, ?)",
		n.ID, names, r.Body, hiddenText(names), hiddenText(r.Body)); err != nil {
		return err
	}
	return w.writeLinks(r)
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

func (w *writer) writeLinks(r *Record) error {
	if _, err := w.exec("DELETE FROM links WHERE source = ?", r.Note.ID); err != nil {
		return err
	}
	for i, l := range r.Note.Links {
		var resolved, status any
		if i < len(r.Resolved) && r.Resolved[i] != "" {
			resolved = r.Resolved[i]
		}
		if i < len(r.Status) && r.Status[i] != "" {
			status = string(r.Status[i])
		}
		if _, err := w.exec(`INSERT INTO links(source, seq, kind, target, fragment, alias, property,
			start, end, target_start, target_end, line, resolved, status)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.Note.ID, i, string(l.Kind), l.Target, l.Fragment, l.Alias, l.Property,
			l.Start, l.End, l.TargetStart, l.TargetEnd, l.Line, resolved, status); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) relink(r *Record) error {
	for i := range r.Note.Links {
		var resolved any
		if r.Resolved[i] != "" {
			resolved = r.Resolved[i]
		}
		if _, err := w.exec("UPDATE links SET resolved = ?, status = ? WHERE source = ? AND seq = ?",
			resolved, string(r.Status[i]), r.Note.ID, i); err != nil {
			return err
		}
	}
	return nil
}

// Reset empties the index (for an index file that belongs to another
// vault).
func (s *Store) Reset(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	defer tx.Rollback()
	for _, table := range []string{"fts", "vectors", "links", "tags", "notes", "attachments", "problems", "meta"} {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
			return fmt.Errorf("reset index: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	return nil
}

// Snapshot is everything Load reads back.
type Snapshot struct {
	Notes       []*Record
	Attachments []string
	Problems    []vault.Problem
	Meta        map[string]string
}

// Load reads the whole index (without note bodies). A note whose
// headings and block ids are not known (a row written before schema 4)
// comes back with Size -1 and no Hash, so that a comparison with its
// file parses it again.
//
// Load reads the snapshot cache next to the index when it is as new as
// the index (snapcache.go); otherwise it reads the tables, in one read
// transaction, and writes the cache from the rows it read.
func (s *Store) Load(ctx context.Context) (*Snapshot, error) {
	if snap := s.loadCache(ctx); snap != nil {
		return snap, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	defer conn.Close()
	// One read transaction: the rows and the generation they are
	// cached under are of the same moment, whatever other processes
	// write meanwhile.
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK") // a read: nothing to keep
	rd := &rowReader{snap: &Snapshot{Meta: map[string]string{}}, byID: map[string]*Record{}}
	if key, ok := s.cacheKey(ctx, conn); ok {
		rd.enc = newSnapEncoder(key)
	}
	if err := rd.readTables(ctx, conn); err != nil {
		return nil, err
	}
	if rd.enc != nil {
		s.writeCache(rd.enc)
	}
	return rd.snap, nil
}

// querier runs queries: the database, or one connection of it.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// rowReader turns index rows into a Snapshot, from the tables or from the
// cache alike, and copies them to enc (when not nil) as it goes.
type rowReader struct {
	snap *Snapshot
	byID map[string]*Record
	enc  *snapEncoder
}

// noteRow is one row of the notes table as stored.
type noteRow struct {
	id, path, title, hash                   string
	size, mtime, bodyStart                  int64
	aliases, tags, props, warnings, anchors string
	hasAnchors                              bool
}

// linkRow is one row of the links table as stored.
type linkRow struct {
	source, kind, target, fragment, alias, property string
	start, end, targetStart, targetEnd, line        int64
	resolved, status                                string
}

// readTables reads every table Load returns.
func (rd *rowReader) readTables(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, `SELECT id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors FROM notes`)
	if err != nil {
		return fmt.Errorf("load notes: %w", err)
	}
	for rows.Next() {
		var r noteRow
		var anchors sql.NullString
		if err := rows.Scan(&r.id, &r.path, &r.title, &r.hash, &r.size, &r.mtime, &r.bodyStart, &r.aliases, &r.tags, &r.props, &r.warnings, &anchors); err != nil {
			rows.Close()
			return fmt.Errorf("load notes: %w", err)
		}
		r.anchors, r.hasAnchors = anchors.String, anchors.Valid
		if err := rd.note(r); err != nil {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load notes: %w", err)
	}
	rd.enc.endNotes()
	if err := rd.readLinks(ctx, q); err != nil {
		return err
	}
	return rd.readRest(ctx, q)
}

// note adds one notes row.
func (rd *rowReader) note(r noteRow) error {
	rd.enc.note(&r)
	n := &vault.Note{ID: r.id, Title: r.title, Hash: r.hash, Size: r.size, BodyStart: int(r.bodyStart), ModTime: time.Unix(0, r.mtime)}
	rec := &Record{Note: n, Path: r.path}
	if err := decodeJSON(r.aliases, &n.Aliases); err != nil {
		return err
	}
	if err := decodeJSON(r.tags, &n.Tags); err != nil {
		return err
	}
	if err := decodeJSON(r.warnings, &n.Warnings); err != nil {
		return err
	}
	var err error
	if n.Properties, err = decodeProperties(r.props); err != nil {
		return fmt.Errorf("load %s: %w", n.ID, err)
	}
	if !r.hasAnchors {
		n.Size, n.Hash = -1, ""
	} else if err := decodeAnchors(r.anchors, n); err != nil {
		return err
	}
	rd.snap.Notes = append(rd.snap.Notes, rec)
	rd.byID[n.ID] = rec
	return nil
}

func (rd *rowReader) readLinks(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, `SELECT source, kind, target, fragment, alias, property, start, end,
		target_start, target_end, line, COALESCE(resolved, ''), COALESCE(status, '') FROM links ORDER BY source, seq`)
	if err != nil {
		return fmt.Errorf("load links: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l linkRow
		if err := rows.Scan(&l.source, &l.kind, &l.target, &l.fragment, &l.alias, &l.property, &l.start, &l.end,
			&l.targetStart, &l.targetEnd, &l.line, &l.resolved, &l.status); err != nil {
			return fmt.Errorf("load links: %w", err)
		}
		rd.link(&l)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load links: %w", err)
	}
	rd.enc.endLinks()
	return nil
}

// link adds one links row.
func (rd *rowReader) link(l *linkRow) {
	rd.enc.link(l)
	r := rd.byID[l.source]
	if r == nil {
		return
	}
	r.Note.Links = append(r.Note.Links, vault.Link{Kind: vault.LinkKind(l.kind), Target: l.target, Fragment: l.fragment,
		Alias: l.alias, Property: l.property, Start: int(l.start), End: int(l.end),
		TargetStart: int(l.targetStart), TargetEnd: int(l.targetEnd), Line: int(l.line)})
	r.Resolved = append(r.Resolved, l.resolved)
	r.Status = append(r.Status, vault.Status(l.status))
}

func (rd *rowReader) readRest(ctx context.Context, q querier) error {
	if err := queryStrings(ctx, q, "SELECT path FROM attachments ORDER BY path", rd.attachment); err != nil {
		return err
	}
	rd.enc.endAttachments()
	if err := queryStrings(ctx, q, "SELECT path, reason FROM problems ORDER BY path", rd.problem); err != nil {
		return err
	}
	rd.enc.endProblems()
	if err := queryStrings(ctx, q, "SELECT key, value FROM meta", rd.meta); err != nil {
		return err
	}
	rd.enc.endList()
	return nil
}

func (rd *rowReader) attachment(v ...string) {
	rd.enc.strings(v...)
	rd.snap.Attachments = append(rd.snap.Attachments, v[0])
}

func (rd *rowReader) problem(v ...string) {
	rd.enc.strings(v...)
	rd.snap.Problems = append(rd.snap.Problems, vault.Problem{Path: v[0], Reason: v[1]})
}

func (rd *rowReader) meta(v ...string) {
	rd.enc.strings(v...)
	rd.snap.Meta[v[0]] = v[1]
}

// queryStrings runs a query whose columns are all text and calls fn per
// row.
func queryStrings(ctx context.Context, q querier, query string, fn func(...string)) error {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("index read: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("index read: %w", err)
	}
	vals := make([]string, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("index read: %w", err)
		}
		fn(vals...)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index read: %w", err)
	}
	return nil
}

func decodeJSON(s string, v any) error {
	if s == "" || s == "null" {
		return nil
	}
	if p, ok := v.(*[]string); ok {
		if l, ok := plainStrings(s); ok {
			*p = l // most lists need no decoder
			return nil
		}
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("index value %q: %w", s, err)
	}
	return nil
}

// plainStrings decodes a JSON list of strings without escapes (as
// json.Marshal writes most tag and alias lists): ["a","b c"]. ok is false
// for anything else, which the JSON decoder then reads.
func plainStrings(s string) (l []string, ok bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || strings.IndexByte(s, '\\') >= 0 {
		return nil, false
	}
	rest := s[1 : len(s)-1]
	l = make([]string, 0, strings.Count(rest, ",")+1)
	for rest != "" {
		if len(rest) < 2 || rest[0] != '"' {
			return nil, false
		}
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			return nil, false
		}
		item := rest[1 : 1+end]
		if !utf8.ValidString(item) {
			return nil, false
		}
		l = append(l, item)
		rest = rest[2+end:]
		if rest == "" {
			break
		}
		if rest[0] != ',' || len(rest) == 1 {
			return nil, false
		}
		rest = rest[1:]
	}
	return l, true
}
