package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Snapshot is everything Load reads back.
type Snapshot struct {
	Notes       []*Record
	Attachments []string
	Problems    []vault.Problem
	Meta        map[string]string
	// Key names the state of the index the snapshot was read from, ""
	// when the index cannot say (see CacheKey).
	Key string
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
	rd := &rowReader{snap: &Snapshot{Meta: map[string]string{}}, byID: map[string]int{}}
	err = inReadTx(ctx, conn, "load", func() error {
		key, ok := s.cacheKey(ctx, conn)
		if ok {
			rd.enc = s.newCacheEncoder(key)
			defer rd.enc.discard()
			rd.snap.Key = key.String()
		}
		for _, read := range []func(context.Context, querier) error{rd.readNotes, rd.readLinks, rd.readRest} {
			if err := read(ctx, conn); err != nil {
				return err
			}
		}
		if ok {
			s.writeCache(key, rd.enc)
		}
		return nil
	})
	if err != nil {
		return nil, err
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
	byID map[string]int // index in snap.Notes; nil reading the cache
	// ids, when not nil, makes the reader encode the notes rows without
	// keeping them (KeepCache): their IDs in order, indexed by byID.
	ids []string
	enc *snapEncoder
	// The chunk link cuts the links from, and the note being read.
	links    []vault.Link
	resolved []string
	status   []vault.Status
	cur      *Record
	start    int
	// lazy is the cache being read, whose link details are left in its
	// bytes (LinkText): the current note's rows are lazy.all[runStart:runEnd].
	lazy             *snapDecoder
	runStart, runEnd int
	anchored         int // the current note's links with a fragment
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

// readNotes reads the notes table. The rows are scanned on a goroutine
// of their own, a batch of noteScanBatch ahead of their decoding here
// (JSON, properties, anchors), so that a process that keeps the snapshot
// cache as it closes (KeepCache) uses both cores for it.
func (rd *rowReader) readNotes(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, `SELECT id, `+notePath+`, title, hash, size, mtime, body_start, aliases, tags, properties, warnings, anchors
		FROM notes`)
	if err != nil {
		return fmt.Errorf("load notes: %w", err)
	}
	batches, stop := make(chan []noteRow, 4), make(chan struct{})
	var scanErr error
	go func() {
		defer close(batches)
		scanErr = scanNotes(rows, batches, stop)
	}()
	var decodeErr error
	for b := range batches {
		for i := 0; i < len(b) && decodeErr == nil; i++ {
			if decodeErr = rd.note(b[i]); decodeErr != nil {
				close(stop)
			}
		}
	}
	// The scanner is done: batches is closed.
	rows.Close()
	if decodeErr != nil {
		return decodeErr
	}
	if scanErr != nil {
		return fmt.Errorf("load notes: %w", scanErr)
	}
	rd.enc.endList()
	return nil
}

// noteScanBatch is how many notes rows readNotes scans in one batch.
const noteScanBatch = 256

// scanNotes scans rows into batches sent on out until the rows end,
// stop closes or a row fails to scan.
func scanNotes(rows *sql.Rows, out chan<- []noteRow, stop <-chan struct{}) error {
	b := make([]noteRow, 0, noteScanBatch)
	send := func() bool {
		select {
		case out <- b:
			b = make([]noteRow, 0, noteScanBatch)
			return true
		case <-stop:
			return false
		}
	}
	for rows.Next() {
		var r noteRow
		var anchors sql.NullString
		if err := rows.Scan(&r.id, &r.path, &r.title, &r.hash, &r.size, &r.mtime, &r.bodyStart, &r.aliases, &r.tags, &r.props, &r.warnings, &anchors); err != nil {
			return err
		}
		r.anchors, r.hasAnchors = anchors.String, anchors.Valid
		if b = append(b, r); len(b) == noteScanBatch && !send() {
			return nil
		}
	}
	if len(b) > 0 && !send() {
		return nil
	}
	return rows.Err()
}

// note adds one notes row.
func (rd *rowReader) note(r noteRow) error {
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
	rd.enc.noteRecord(rec)
	rd.add(rec)
	return nil
}

// add adds one note, from its row or from the cache.
func (rd *rowReader) add(rec *Record) {
	if rd.ids != nil { // encoding only: the note is not kept
		rd.byID[rec.Note.ID] = len(rd.ids)
		rd.ids = append(rd.ids, rec.Note.ID)
		return
	}
	if rd.byID != nil {
		rd.byID[rec.Note.ID] = len(rd.snap.Notes)
	}
	rd.snap.Notes = append(rd.snap.Notes, rec)
}

func (rd *rowReader) readLinks(ctx context.Context, q querier) error {
	// In the order of the links' primary key: a note's links one after
	// another, with no sort.
	rows, err := q.QueryContext(ctx, `SELECT source, kind, target, fragment, alias, property, start, end,
		target_start, target_end, line, COALESCE(resolved, ''), COALESCE(status, '')
		FROM (SELECT l.source AS doc, `+linkRowColumns+` `+linkRowJoins+`) ORDER BY doc, seq`)
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var l linkRow
		err := rows.Scan(&l.source, &l.kind, &l.target, &l.fragment, &l.alias, &l.property, &l.start, &l.end,
			&l.targetStart, &l.targetEnd, &l.line, &l.resolved, &l.status)
		if err == nil {
			rd.link(&l)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("load links: %w", err)
	}
	rd.endNoteLinks()
	rd.enc.endList()
	return nil
}

// link adds one links row. A note's rows come one after another (ORDER
// BY source), so they are cut from shared chunks rather than grown one
// slice per note.
func (rd *rowReader) link(l *linkRow) {
	i, ok := rd.byID[l.source]
	if !ok {
		return
	}
	if rd.enc != nil {
		j, ok := rd.byID[l.resolved]
		rd.enc.link(l, i, j, ok)
	}
	link := vault.Link{Kind: vault.LinkKind(l.kind), Target: l.target, Fragment: l.fragment,
		Alias: l.alias, Property: l.property, Start: int(l.start), End: int(l.end),
		TargetStart: int(l.targetStart), TargetEnd: int(l.targetEnd), Line: int(l.line)}
	rd.addLink(rd.snap.Notes[i], link, l.resolved, vault.Status(l.status))
}

// addLink gives note r one more link, from its row or from the cache.
func (rd *rowReader) addLink(r *Record, link vault.Link, resolved string, status vault.Status) {
	if r != rd.cur {
		rd.endNoteLinks()
		if len(r.Note.Links) > 0 { // not one after another after all
			r.Note.Links = append(r.Note.Links, link)
			r.Resolved = append(r.Resolved, resolved)
			r.Status = append(r.Status, status)
			return
		}
		rd.cur, rd.start = r, len(rd.links)
	}
	if len(rd.links) == cap(rd.links) { // a new chunk, with the note's rows so far
		n := len(rd.links) - rd.start
		size := max(linkChunk, 2*n)
		rd.links = append(make([]vault.Link, 0, size), rd.links[rd.start:]...)
		rd.resolved = append(make([]string, 0, size), rd.resolved[rd.start:]...)
		rd.status = append(make([]vault.Status, 0, size), rd.status[rd.start:]...)
		rd.start = 0
	}
	rd.links = append(rd.links, link)
	rd.resolved = append(rd.resolved, resolved)
	rd.status = append(rd.status, status)
}

// linkChunk is the number of links in one chunk of rowReader.link.
const linkChunk = 1 << 14

// endNoteLinks gives the note whose rows were read last its slices of the
// chunk, capped so that appending to them never writes into another's.
func (rd *rowReader) endNoteLinks() {
	if rd.cur == nil {
		return
	}
	end := len(rd.resolved)
	if rd.lazy != nil {
		t := rd.lazy.slab.linkText()
		*t = LinkText{b: rd.lazy.all[rd.runStart:rd.runEnd:rd.runEnd], n: end - rd.start, anchored: rd.anchored}
		rd.cur.LazyLinks = t
	} else {
		rd.cur.Note.Links = rd.links[rd.start:end:end]
	}
	rd.cur.Resolved = rd.resolved[rd.start:end:end]
	rd.cur.Status = rd.status[rd.start:end:end]
	rd.cur = nil
}

// addLazyLink gives note r one more link read from the cache, whose row
// is rd.lazy.all[from:to]; anchored says it has a fragment. It is false
// when r's links do not come one after another (the cache never writes
// them so).
func (rd *rowReader) addLazyLink(r *Record, resolved string, status vault.Status, anchored bool, from, to int) bool {
	if r != rd.cur {
		rd.endNoteLinks()
		if r.LazyLinks != nil {
			return false
		}
		rd.cur, rd.start, rd.runStart, rd.anchored = r, len(rd.resolved), from, 0
	}
	if anchored {
		rd.anchored++
	}
	if len(rd.resolved) == cap(rd.resolved) { // a new chunk, with the note's rows so far
		size := max(linkChunk, 2*(len(rd.resolved)-rd.start))
		rd.resolved = append(make([]string, 0, size), rd.resolved[rd.start:]...)
		rd.status = append(make([]vault.Status, 0, size), rd.status[rd.start:]...)
		rd.start = 0
	}
	rd.resolved = append(rd.resolved, resolved)
	rd.status = append(rd.status, status)
	rd.runEnd = to
	return true
}

func (rd *rowReader) readRest(ctx context.Context, q querier) error {
	if err := queryStrings(ctx, q, "SELECT path FROM attachments ORDER BY path", rd.attachment); err != nil {
		return err
	}
	rd.enc.endList()
	if err := queryStrings(ctx, q, "SELECT path, reason FROM problems ORDER BY path", rd.problem); err != nil {
		return err
	}
	rd.enc.endList()
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
