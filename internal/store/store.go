// Package store persists vaultgraph's index in SQLite (modernc.org/sqlite,
// pure Go): notes with their metadata and tags, links with their byte
// ranges and resolution, attachments, problems, a full-text index (FTS5,
// without a copy of the text) and embedding vectors. The index is a
// cache of the vault's files: when it is corrupt or from a newer
// vaultgraph it is set aside and rebuilt.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SchemaVersion is the schema this package writes, kept in PRAGMA
// user_version. An index of version 1 to 7 is brought up to date in
// place, by the steps of migrations (each says what its version
// changed); one of another version is rebuilt (OpenOrRebuild).
const SchemaVersion = 8

// BusyTimeout is how long a writer waits for another connection's lock.
const BusyTimeout = 10 * time.Second

// ErrUnusable is returned by Open for an index file that cannot be used
// as is: corrupt, truncated, not a database, or of another schema.
var ErrUnusable = errors.New("index unusable")

// Store is an open index database.
type Store struct {
	db   *sql.DB
	path string
	// wmu serialises this process's write transactions: one waits here
	// for the other rather than in SQLite's busy handler, which sleeps in
	// steps of up to 100 ms.
	wmu sync.Mutex
	// reserved are the docs a pass under way reserved (reserve.go),
	// guarded by wmu.
	reserved map[string]int64
	// ckpt runs WAL checkpoints in the background (see afterWrite).
	ckpt checkpointer
	// vault is the vault's folder when WithVault gave it (fts_body.go).
	vault atomic.Pointer[string]
	// snip is the connection searches make snippets on, one at a time
	// (snipConn); snipMu lends it.
	snipMu sync.Mutex
	snip   *snipDB
	// anchorRows counts the notes whose anchor text a live batch worked
	// out again (refreshAnchor), for tests of what a write costs.
	anchorRows atomic.Int64
	// common keeps the counts of Keyword's common-word test, for later
	// states too while they cannot have crossed half (countCache).
	common countCache
	// flags keeps selectFlags' answers (which marked and stem tokens the
	// full-text tables have) while the full-text tables are unchanged.
	flags commonCache
	// snips keeps the snippets KeywordSnippets made (snippet_memo.go).
	snips snipMemo
	// ranks keeps what Keyword's ranking in Go reads of the full-text
	// tables between searches; sqlRank turns that ranking off (tests
	// compare the two). See search_topk.go.
	ranks   rankCache
	sqlRank bool
	// goRanked counts the searches ranked in Go, for tests; narrowed
	// those whose reads of fts were narrowed (scanPhrases), all-term
	// searches first, then any-term ones.
	goRanked atomic.Int64
	narrowed [2]atomic.Int64
	// anchorRowsPerScan, when not 0, replaces anchorRowsPerScan in the
	// batches Apply writes: tests make it small.
	anchorRowsPerScan int64
	// stmts are the write transactions' statements, guarded by wmu.
	stmts stmtCache
	// reads are the statements of the searches' reads (search_read.go).
	reads readStmts
	// wconn is the connection of the write transactions, and wraw the
	// driver statements prepared on it (write_conn.go), guarded by wmu.
	wconn *sql.Conn
	wraw  rawStmts
	// keep is what KeepCache knows of this store's writes, guarded by wmu.
	keep keepState
	// cachedKey is the key of the snapshot cache this store last read or
	// wrote, nil before.
	cachedKey atomic.Pointer[cacheKey]
	// cacheBytes is the snapshot cache loadCache last decoded, nil
	// before (DropCachePages).
	cacheBytes atomic.Pointer[[]byte]
	// mmap is each connection's PRAGMA mmap_size (WithMmap).
	mmap int64
}

// Open opens or creates the index at path, creating its folder. It
// returns an error wrapping ErrUnusable when the file exists but cannot
// be used; OpenOrRebuild handles that case.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs // a relative path would read as a URI host below
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create index folder: %w", err)
	}
	q := url.Values{"_pragma": {fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()), "journal_mode(WAL)",
		// FULL: a commit syncs the WAL before it returns, so the index
		// transaction of a group commit is on disk when its writers are
		// answered, like their files.
		"synchronous(FULL)",
		// No connection checkpoints the WAL as part of its commit, which
		// copied a thousand pages and synced the database file inside
		// some writes: afterWrite runs a passive checkpoint in the
		// background instead.
		"wal_autocheckpoint(0)", "foreign_keys(ON)",
		// A bigger page cache than the default 2 MiB saves re-reading
		// pages for B-tree inserts in random key order during a cold
		// index; each cached page costs about twice its size in the C
		// heap, which is not given back, and more than 16 MiB raised a
		// cold index's peak RSS for no CPU time.
		"cache_size(" + poolCachePages + ")", "temp_store(MEMORY)"}}
	s := &Store{path: path, ckpt: checkpointer{last: time.Now()}}
	for _, o := range opts {
		o(s)
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > s.mmap {
		s.mmap = 0
	}
	if s.mmap > 0 {
		q.Add("_pragma", fmt.Sprintf("mmap_size(%d)", s.mmap))
	}
	q.Add("_txlock", "immediate")
	// The path is escaped: '#', '?' and '%' in a folder name would
	// otherwise end or change it (and put the index somewhere else).
	dsn := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	s.db = db
	s.reads.db = db
	version, err := s.check(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx, version); err != nil {
		db.Close()
		return nil, err
	}
	// Without the change counter (an index file that cannot be written)
	// Load reads the tables every time: slower, never wrong.
	_ = s.ensureSnapgen(ctx)
	ensureLinksTo(ctx, db)
	// Likewise: without them, live writes merge more, never wrongly.
	_ = s.ensureLiveFTS(ctx)
	return s, nil
}

// OpenOrRebuild opens the index at path; when it is unusable, it moves
// the file aside (to path.broken-TIMESTAMP) and creates a fresh one. The
// returned reason is non-empty when that happened.
func OpenOrRebuild(ctx context.Context, path string, opts ...Option) (*Store, string, error) {
	s, err := Open(ctx, path, opts...)
	if err == nil {
		return s, "", nil
	}
	if !errors.Is(err, ErrUnusable) {
		return nil, "", err
	}
	return setAside(ctx, path, err, opts)
}

// OpenAndLoad opens the index at path and reads it back. An index that
// cannot be opened or read (corrupt, truncated, newer schema) is moved
// aside and replaced by an empty one; reason then says why.
func OpenAndLoad(ctx context.Context, path string, opts ...Option) (*Store, *Snapshot, string, error) {
	s, reason, err := OpenOrRebuild(ctx, path, opts...)
	if err != nil {
		return nil, nil, "", err
	}
	snap, err := s.Load(ctx)
	if err == nil {
		return s, snap, reason, nil
	}
	s.Close()
	if ctx.Err() != nil {
		return nil, nil, "", err
	}
	s, reason, err = setAside(ctx, path, fmt.Errorf("%w: %s cannot be read: %v", ErrUnusable, path, err), opts)
	if err != nil {
		return nil, nil, "", err
	}
	return s, &Snapshot{Meta: map[string]string{}}, reason, nil
}

// setAside moves the unusable index at path aside and opens a new one.
func setAside(ctx context.Context, path string, err error, opts []Option) (*Store, string, error) {
	aside := fmt.Sprintf("%s.broken-%s", path, time.Now().UTC().Format("20060102T150405"))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if rerr := os.Rename(path+suffix, aside+suffix); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, "", fmt.Errorf("set aside unusable index: %w", rerr)
		}
	}
	s, err2 := Open(ctx, path, opts...)
	if err2 != nil {
		return nil, "", err2
	}
	return s, fmt.Sprintf("%v; moved it to %s and rebuilt the index from the files", err, aside), nil
}

// check returns the file's schema version, or fails with ErrUnusable
// when the file is not a healthy database of a schema this package can
// read.
func (s *Store) check(ctx context.Context) (int, error) {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, fmt.Errorf("%w: %s: %v", ErrUnusable, s.path, err)
	}
	if version > SchemaVersion {
		return 0, fmt.Errorf("%w: %s has schema %d, newer than this vaultgraph's %d", ErrUnusable, s.path, version, SchemaVersion)
	}
	if version < 0 {
		return 0, fmt.Errorf("%w: %s has old schema %d", ErrUnusable, s.path, version)
	}
	// No PRAGMA quick_check here: it reads the whole file on every start
	// (half of a warm start). Damage shows when OpenAndLoad reads the
	// tables back, and the file is rebuilt then.
	return version, nil
}

// migration is one step of migrate.
type migration struct {
	// upTo is the newest schema the step applies to: it runs on an index
	// of schema 1 to upTo.
	upTo int
	// afterSchema runs the step once the current schema's tables and
	// indexes exist, rather than before.
	afterSchema bool
	// vacuum gives back the pages the step freed, after the commit.
	vacuum bool
	run    func(ctx context.Context, tx *sql.Tx) error
}

// migrations are the steps that bring an index of schema version to
// SchemaVersion, in the order they run. A new schema appends its steps
// with upTo set to the schema before it.
func (s *Store) migrations(version int) []migration {
	return []migration{
		{upTo: 3, run: migrateAnchors},
		{upTo: 4, run: migrateCompact},
		{upTo: 5, run: func(ctx context.Context, tx *sql.Tx) error { return migrateFields(ctx, tx, version) }},
		{upTo: 6, run: func(ctx context.Context, tx *sql.Tx) error {
			return migrateNoteText(ctx, tx, s.vault.Load() == nil)
		}},
		{upTo: 7, run: migrateDocs, vacuum: true},
		{upTo: 7, run: func(ctx context.Context, tx *sql.Tx) error {
			return migrateContentless(ctx, tx, s.vault.Load() == nil)
		}},
		{upTo: 5, afterSchema: true, run: refreshAllAnchors},
	}
}

// runMigrations runs the steps that apply to an index of schema version,
// those with afterSchema equal to after, and says whether one of them
// asks for a VACUUM.
func runMigrations(ctx context.Context, tx *sql.Tx, version int, steps []migration, after bool) (vacuum bool, err error) {
	for _, m := range steps {
		if m.afterSchema != after || version < 1 || version > m.upTo {
			continue
		}
		if err := m.run(ctx, tx); err != nil {
			return false, fmt.Errorf("%w: migrate schema %d: %v", ErrUnusable, version, err)
		}
		vacuum = vacuum || m.vacuum
	}
	return vacuum, nil
}

// migrate brings the file, of schema version, to SchemaVersion.
func (s *Store) migrate(ctx context.Context, version int) error {
	if version == SchemaVersion {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	steps := s.migrations(version)
	vacuum, err := runMigrations(ctx, tx, version, steps, false)
	if err != nil {
		return err
	}
	if err := execAll(ctx, tx, splitSchema(schema)...); err != nil {
		return fmt.Errorf("%w: create schema: %v", ErrUnusable, err)
	}
	if _, err := runMigrations(ctx, tx, version, steps, true); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return fmt.Errorf("set schema version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if vacuum {
		// The old tables' pages are free now: a third of the file or
		// more. VACUUM gives them back; when it fails the index is as
		// good, only bigger.
		_, _ = s.db.ExecContext(ctx, "VACUUM")
		// No connection checkpoints on its own (see Open): the copy of
		// the file that VACUUM left in the WAL goes into the file now.
		_, _ = s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	return nil
}

// ftsTable is the full-text table's module and columns (ftsColumns). The
// hidden columns cjktitle and cjk hold, for the title and the body, their
// CJK text as bigrams and their words unicode61 does not fold, folded
// (hiddenText); searches read them, snippets the title and body.
// headings, tags, props and stems are the other fields (fields.go). It
// keeps no text (fts_body.go). fts_anchor is the same table (anchor_text.go,
// bm25Call), as nothing reads its text back either.
const ftsTable = ftsTableHead + "\tcontent = '', contentless_delete = 1,\n" + ftsTableTail

// ftsTableV6 is the full-text table of schema 2 to 6, with FTS5's own
// copy of every column: the migrations up to schema 6 write it.
const ftsTableV6 = ftsTableHead + ftsTableTail

// The columns and the tokenizer of every version's full-text table.
const (
	ftsTableHead = "fts5(\n\ttitle, body, cjktitle, cjk, headings, tags, props, stems,\n"
	ftsTableTail = "\ttokenize = 'unicode61 remove_diacritics 2'\n)"
)

// splitSchema returns the statements of a schema text, which are
// separated by ";\n".
func splitSchema(text string) []string {
	return slices.DeleteFunc(strings.Split(text, ";\n"), func(stmt string) bool { return strings.TrimSpace(stmt) == "" })
}

// schema creates version SchemaVersion. Statements are separated by ";\n".
// fts_vocab lists the tokens of fts (markUnmarked looks the marked
// tokens up there), fts_anchor_vocab those of fts_anchor.
var schema = `
CREATE TABLE IF NOT EXISTS meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notes (
	doc        INTEGER PRIMARY KEY AUTOINCREMENT,
	id         TEXT NOT NULL UNIQUE,
	path       TEXT NOT NULL,
	title      TEXT NOT NULL,
	hash       TEXT NOT NULL,
	size       INTEGER NOT NULL,
	mtime      INTEGER NOT NULL,
	body_start INTEGER NOT NULL,
	aliases    TEXT NOT NULL,
	tags       TEXT NOT NULL,
	properties TEXT NOT NULL,
	warnings   TEXT NOT NULL,
	anchors    TEXT
);
CREATE TABLE IF NOT EXISTS pending (
	id   INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS links (
	source       INTEGER NOT NULL REFERENCES notes(doc) ON DELETE CASCADE,
	seq          INTEGER NOT NULL,
	kind         NOT NULL,
	target       TEXT NOT NULL,
	fragment     TEXT NOT NULL,
	alias        TEXT NOT NULL,
	property     TEXT NOT NULL,
	start        INTEGER NOT NULL,
	end          INTEGER NOT NULL,
	target_start INTEGER NOT NULL,
	target_end   INTEGER NOT NULL,
	line         INTEGER NOT NULL,
	resolved     INTEGER,
	status,
	context      TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (source, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_to ON links(resolved);
CREATE TABLE IF NOT EXISTS attachments (
	path TEXT PRIMARY KEY
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS problems (
	path   TEXT PRIMARY KEY,
	reason TEXT NOT NULL
) WITHOUT ROWID;
` + noteBodySchema + `;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING ` + ftsTable + `;
CREATE VIRTUAL TABLE IF NOT EXISTS fts_vocab USING fts5vocab(fts, 'row');
CREATE VIRTUAL TABLE IF NOT EXISTS fts_anchor USING ` + ftsTable + `;
CREATE VIRTUAL TABLE IF NOT EXISTS fts_anchor_vocab USING fts5vocab(fts_anchor, 'row');
CREATE TABLE IF NOT EXISTS vector_models (
	model INTEGER PRIMARY KEY,
	name  TEXT NOT NULL,
	dim   INTEGER NOT NULL,
	UNIQUE (name, dim)
);
CREATE TABLE IF NOT EXISTS vector_notes (
	note   INTEGER NOT NULL REFERENCES notes(doc) ON DELETE CASCADE,
	model  INTEGER NOT NULL REFERENCES vector_models(model) ON DELETE CASCADE,
	hash   TEXT NOT NULL,
	chunks INTEGER NOT NULL,
	PRIMARY KEY (note, model)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vectors (
	note  INTEGER NOT NULL REFERENCES notes(doc) ON DELETE CASCADE,
	model INTEGER NOT NULL REFERENCES vector_models(model) ON DELETE CASCADE,
	chunk INTEGER NOT NULL,
	vec   BLOB NOT NULL,
	PRIMARY KEY (note, model, chunk)
) WITHOUT ROWID;
` + rowViews + `
`

// Close closes the database.
func (s *Store) Close() error {
	s.ckpt.wait()
	s.closeSnip()
	s.wmu.Lock()
	s.stmts.close()
	s.dropWriteConn()
	s.wmu.Unlock()
	s.reads.close()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}

// Path returns the index file's path.
func (s *Store) Path() string { return s.path }

// Size returns the bytes the index occupies on disk (database and WAL).
func (s *Store) Size() int64 {
	var total int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(s.path + suffix); err == nil {
			total += fi.Size()
		}
	}
	return total
}
