package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"unsafe"
)

// The snapshot cache is a copy of what Load returns, in one file next to
// the index (index.db.snap), that loads many times faster than the
// tables: one read, no SQL, no JSON (each note's fields are stored
// decoded, in binary: snapcache_note.go), strings cut from the file's
// bytes, and links naming their note and target by their place in the
// file. It is only a cache: it is used when it is as new as the index
// and otherwise ignored and written again by the next Load that reads
// the tables.
//
// "As new as the index" is exact. Triggers in the index count every
// change to the tables a Snapshot holds (snapgen.n), in the transaction
// of the change, whichever vaultgraph makes it (links are inserted and
// deleted only with their note's row, so only their updates need a
// trigger: a cold index pays one per note), and snapgen.id names the
// index file (a rebuilt index gets a new one). The cache records both and
// PRAGMA schema_version; all three must match.

// cacheMagic opens every cache file; a new layout gets a new magic.
const cacheMagic = "vaultgraph snapshot 6\n"

// snapgenTriggers is the number of triggers snapgenSchema creates.
const snapgenTriggers = 12

// snapgenSchema creates the change counter and its triggers.
const snapgenSchema = `
CREATE TABLE IF NOT EXISTS snapgen (id TEXT NOT NULL, n INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS snapgen_notes_i AFTER INSERT ON notes BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_notes_u AFTER UPDATE ON notes BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_notes_d AFTER DELETE ON notes BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_links_u AFTER UPDATE ON links BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_attachments_i AFTER INSERT ON attachments BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_attachments_d AFTER DELETE ON attachments BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_problems_i AFTER INSERT ON problems BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_problems_u AFTER UPDATE ON problems BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_problems_d AFTER DELETE ON problems BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_meta_i AFTER INSERT ON meta BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_meta_u AFTER UPDATE ON meta BEGIN UPDATE snapgen SET n = n + 1; END;
CREATE TRIGGER IF NOT EXISTS snapgen_meta_d AFTER DELETE ON meta BEGIN UPDATE snapgen SET n = n + 1; END
`

// ensureSnapgen adds the change counter to an index that lacks it (a new
// one, or one written before it existed: the upgrade is this, in place).
// Without it (a read-only index file, say) Load reads the tables.
func (s *Store) ensureSnapgen(ctx context.Context) error {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'snapgen_%'").Scan(&n); err != nil {
		return fmt.Errorf("snapshot counter: %w", err)
	}
	if n == snapgenTriggers {
		return nil
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("snapshot counter: %w", err)
	}
	defer tx.Rollback()
	if err := execAll(ctx, tx, splitSchema(snapgenSchema)...); err != nil {
		return fmt.Errorf("snapshot counter: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO snapgen(id, n) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM snapgen)", hex.EncodeToString(id)); err != nil {
		return fmt.Errorf("snapshot counter: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("snapshot counter: %w", err)
	}
	return nil
}

// cacheKey is what a cache must record to stand for the index now.
type cacheKey struct {
	id     string
	n      int64
	schema int64
}

// String is the key as Snapshot.Key gives it.
func (k cacheKey) String() string { return fmt.Sprintf("%s:%d:%d", k.id, k.n, k.schema) }

// cacheKey reads the index's key; ok is false without a counter or
// without every one of its triggers (a table made again by a migration
// loses its own).
func (s *Store) cacheKey(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) (cacheKey, bool) {
	var k cacheKey
	err := q.QueryRowContext(ctx, `SELECT id, n, (SELECT schema_version FROM pragma_schema_version) FROM snapgen
		WHERE (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'snapgen_%') = ?`, snapgenTriggers).Scan(&k.id, &k.n, &k.schema)
	return k, err == nil
}

// DropCachePages lets go of the process's pages of the snapshot cache
// the store last loaded, where it is mapped (readCacheFile): the engine
// calls it once its passes over every note after the load (its index of
// link targets) are done, which bring back the pages they read. What is
// read after comes back from the kernel's cache of the file.
func (s *Store) DropCachePages() {
	if b := s.cacheBytes.Load(); b != nil {
		dropCachePages(*b)
	}
}

// readCacheCopy reads the snapshot cache file p onto the heap.
func readCacheCopy(p string) (b []byte, mapped bool, release func(), err error) {
	b, err = os.ReadFile(p)
	if err != nil {
		return nil, false, nil, fmt.Errorf("read snapshot cache: %w", err)
	}
	return b, false, func() {}, nil
}

// CachePath returns the snapshot cache's file.
func (s *Store) CachePath() string { return s.path + ".snap" }

// loadCache returns the snapshot the cache holds, or nil when there is no
// cache, it is older than the index, or it cannot be read.
func (s *Store) loadCache(ctx context.Context) *Snapshot {
	b, mapped, release, err := readCacheFile(s.CachePath())
	if err != nil {
		return nil
	}
	if len(b) < len(cacheMagic)+4 || string(b[:len(cacheMagic)]) != cacheMagic {
		release()
		return nil
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	d := &snapDecoder{b: body[len(cacheMagic):], slab: &noteSlab{}}
	d.all = d.b
	got := cacheKey{id: d.str(), n: d.int(), schema: d.int()}
	want, ok := s.cacheKey(ctx, s.db)
	if d.err != nil || !ok || got != want || crc32.ChecksumIEEE(body) != sum {
		release()
		return nil
	}
	snap, err := d.snapshot()
	if err != nil {
		release() // nothing keeps what was decoded
		return nil
	}
	if mapped {
		dropCachePages(b)
		s.cacheBytes.Store(&b)
	} else {
		s.cacheBytes.Store(nil) // a copy on the heap: its pages are the snapshot's
	}
	snap.Key = got.String()
	s.cachedKey.Store(&got)
	return snap
}

// writeCache writes the cache enc holds, for key k, atomically. A failure
// leaves no cache: Load reads the tables next time.
func (s *Store) writeCache(k cacheKey, enc *snapEncoder) {
	if enc.err != nil {
		return
	}
	ok := false
	if enc.out == nil {
		b := enc.buf.Bytes()
		ok = s.writeCacheFile(s.CachePath(), binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)))
	} else {
		enc.writeOut()
		err := enc.err
		if err == nil {
			_, err = enc.out.Write(binary.LittleEndian.AppendUint32(nil, enc.crc))
		}
		ok = s.finishCacheFile(enc.out, s.CachePath(), err)
		enc.out = nil
	}
	if ok {
		s.cachedKey.Store(&k)
	}
}

// writeCacheFile writes a cache file (the pieces bs, one after
// another) atomically, a temporary file renamed over the old one,
// readable by whoever may read the index, and reports whether it did. A
// failure leaves no new file.
func (s *Store) writeCacheFile(p string, bs ...[]byte) bool {
	f, err := os.CreateTemp(filepath.Dir(p), cacheTempPrefix+"*")
	if err != nil {
		return false
	}
	for _, b := range bs {
		if err == nil {
			_, err = f.Write(b)
		}
	}
	return s.finishCacheFile(f, p, err)
}

// finishCacheFile puts f, a temporary file beside p whose writing ended
// with err, in place as the cache file p, readable by whoever may read
// the index, and reports whether it did. A failure removes f.
func (s *Store) finishCacheFile(f *os.File, p string, err error) bool {
	if fi, serr := os.Stat(s.path); serr == nil && err == nil {
		err = f.Chmod(fi.Mode().Perm()) // readable by whoever may read the index
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err == nil
}

// snapEncoder copies the rows Load reads into a cache file's bytes. Its
// methods do nothing on a nil encoder (no cache is made).
type snapEncoder struct {
	buf    bytes.Buffer
	tmp    [binary.MaxVarintLen64]byte
	detail []byte // a link's detail, while link writes it
	err    error  // a value the cache cannot hold: no cache is written
	// out, when set, is the temporary file the bytes go to as they are
	// encoded (snapcache_file.go), and crc the checksum of those written.
	out *os.File
	crc uint32
}

func newSnapEncoder(k cacheKey) *snapEncoder {
	e := &snapEncoder{}
	e.buf.WriteString(cacheMagic)
	e.str(k.id)
	e.int(k.n)
	e.int(k.schema)
	return e
}

func (e *snapEncoder) int(v int64) {
	e.buf.Write(binary.AppendVarint(e.tmp[:0], v))
}

func (e *snapEncoder) str(v string) {
	e.buf.Write(binary.AppendUvarint(e.tmp[:0], uint64(len(v))))
	e.buf.WriteString(v)
}

// Records are tagged, so that a list needs no count up front: 1 a row,
// 0 the end of the list.
func (e *snapEncoder) row() { e.flush(); e.buf.WriteByte(1) }
func (e *snapEncoder) end() { e.buf.WriteByte(0) }

// link writes a link of the note at index source of the snapshot; its
// resolution is the note at index target when isNote. What a start needs
// of every link (its resolution and status) comes first; the rest (its
// text and place in the file: the detail) follows with its length, so
// that a load can leave it undecoded (LinkText).
func (e *snapEncoder) link(l *linkRow, source, target int, isNote bool) {
	// The detail is encoded where the row will go, then moved out of the
	// way of its head.
	mark := e.buf.Len()
	e.symbol(l.kind, linkKinds)
	for _, v := range []string{l.target, l.fragment, l.alias, l.property} {
		e.str(v)
	}
	// Offsets as distances: most fit in a byte.
	for _, v := range []int64{l.start, l.end - l.start, l.targetStart - l.start, l.targetEnd - l.targetStart, l.line} {
		e.int(v)
	}
	e.detail = append(e.detail[:0], e.buf.Bytes()[mark:]...)
	e.buf.Truncate(mark)
	e.linkWithDetail(source, target, isNote, l.resolved, l.status, l.fragment != "", e.detail)
}

// linkWithDetail writes what link writes for a link whose detail is
// already encoded (LinkText.details): its source, its resolution and its
// status, with whether it is anchored (has a fragment), then the detail,
// without decoding it and encoding it again.
func (e *snapEncoder) linkWithDetail(source, target int, isNote bool, resolved, status string, anchored bool, detail []byte) {
	e.row()
	e.buf.Write(binary.AppendUvarint(e.tmp[:0], uint64(source)))
	switch {
	case resolved == "":
		e.int(0)
	case isNote:
		e.int(int64(target) + 1)
	default:
		e.int(-1)
		e.str(resolved)
	}
	// The status, and whether the link names a heading or block (the
	// lowest bit): a check of every anchor skips the notes with none.
	frag := int64(0)
	if anchored {
		frag = 1
	}
	if i := slices.Index(linkStatuses, status); i >= 0 {
		e.int(int64(i+1)<<1 | frag)
	} else {
		e.int(frag)
		e.str(status)
	}
	e.buf.Write(binary.AppendUvarint(e.tmp[:0], uint64(len(detail))))
	e.buf.Write(detail)
}

func (e *snapEncoder) strings(v ...string) {
	if e == nil {
		return
	}
	e.row()
	for _, s := range v {
		e.str(s)
	}
}

// endList ends a list (row).
func (e *snapEncoder) endList() {
	if e != nil {
		e.end()
	}
}

// errCache is a cache file that does not decode.
var errCache = errors.New("snapshot cache unreadable")

// snapDecoder reads a cache file's bytes. Strings point into the bytes
// (which are never changed), so that a load allocates a few objects per
// note, not one per column. A bad byte sets err and yields zero values.
type snapDecoder struct {
	b   []byte
	err error
	// all is every byte decoded from, so that pos can say where d is.
	all []byte
	// slab, when not nil, is where the notes decoded are cut from.
	slab *noteSlab
}

// pos is the place of the next byte to decode in d.all.
func (d *snapDecoder) pos() int { return len(d.all) - len(d.b) }

func (d *snapDecoder) fail() {
	d.err = errCache
	d.b = nil
}

func (d *snapDecoder) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *snapDecoder) str() string {
	l, n := binary.Uvarint(d.b)
	if n <= 0 || l > uint64(len(d.b)-n) {
		d.fail()
		return ""
	}
	s := d.b[n : n+int(l)]
	d.b = d.b[n+int(l):]
	if len(s) == 0 {
		return ""
	}
	return unsafe.String(&s[0], len(s))
}

// next reports whether another row of the list follows.
func (d *snapDecoder) next() bool {
	if len(d.b) == 0 {
		d.fail()
		return false
	}
	tag := d.b[0]
	d.b = d.b[1:]
	if tag > 1 {
		d.fail()
	}
	return tag == 1 && d.err == nil
}

// snapshot decodes the rows after the key, through the same rowReader as
// the tables.
func (d *snapDecoder) snapshot() (*Snapshot, error) {
	rd := &rowReader{snap: &Snapshot{Meta: map[string]string{}}}
	for d.next() {
		r := d.noteRecord()
		if d.err != nil {
			break
		}
		rd.add(r)
	}
	ids := make([]string, len(rd.snap.Notes))
	for i, r := range rd.snap.Notes {
		ids[i] = r.Note.ID
	}
	rd.lazy = d
	for {
		at := d.pos() // the row's tag: LinkText starts there
		if !d.next() {
			break
		}
		d.link(rd, ids, at)
	}
	rd.endNoteLinks()
	for d.next() {
		rd.attachment(d.str())
	}
	for d.next() {
		rd.problem(d.str(), d.str())
	}
	for d.next() {
		rd.meta(d.str(), d.str())
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the end", errCache, len(d.b))
	}
	return rd.snap, nil
}
