package vaultgraph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// The errors callers can test for with errors.Is. The MCP layer maps each
// to one of the SPEC's error codes (mcp/errors.go).
var (
	// ErrInvalid is a caller's mistake: a bad parameter or ID.
	ErrInvalid = errors.New("invalid parameters")
	// ErrOutsideVault is a path that would leave the vault ("..",
	// absolute paths, symlinks out). It is also an ErrInvalid.
	ErrOutsideVault = fmt.Errorf("%w: path leaves the vault", ErrInvalid)
	// ErrNotFound is an update or delete of a note that does not exist.
	ErrNotFound = errors.New("node not found")
	// ErrExists is a create of a note whose file already exists.
	ErrExists = errors.New("node exists")
	// ErrConflict is a write whose ifMatch hash no longer matches the file.
	ErrConflict = errors.New("conflict: the file changed")
	// ErrReadOnly is a write on an engine opened read-only.
	ErrReadOnly = errors.New("read-only")
	// ErrClosed is a call on an engine that is not open.
	ErrClosed = errors.New("engine is not open")
)

// Options configure an Engine.
type Options struct {
	// Vault is the vault folder. Empty means the current folder.
	Vault string
	// Logger receives progress and problems. Nil discards them.
	Logger *slog.Logger
	// Workers is the number of notes parsed at once. Zero means one per
	// CPU.
	Workers int
	// Index is the SQLite index file. Empty means
	// <vault>/.vaultgraph/index.db.
	Index string
	// NoIndex keeps everything in memory: no index file is read or
	// written, and Open parses every note.
	NoIndex bool
	// Progress, when set, is called from the parsing goroutines as notes
	// are parsed: done of total.
	Progress func(done, total int)
	// Rebuild empties the index on Open, so every note is parsed again.
	Rebuild bool
	// TrustIndex skips comparing the files with a complete index on Open,
	// for a reader while a running server keeps the index current.
	TrustIndex bool
	// Embedder makes note vectors for semantic search, in the background
	// after Open; nil means keyword search only.
	Embedder embed.Embedder
	// EmbedChunkChars bounds one embedded chunk (default
	// embed.DefaultChunkChars).
	EmbedChunkChars int
	// StoreVectorsOnly makes the embedder write vectors to the index
	// without keeping them in memory: for a run that embeds but never
	// searches (`vaultgraph index`), whose memory then does not grow with
	// the vectors. Vector search finds nothing.
	StoreVectorsOnly bool
	// IndexOnly is for a run that only brings the index up to date and
	// reads nothing back from the engine but Report and Status
	// (`vaultgraph index`): a start that parses most of the vault drops
	// each note's headings, properties and block IDs once its chunk is
	// written, keeping what resolving links and building the graph need,
	// so that its memory grows less with the vault. Reads of a note's
	// headings or properties then find none.
	IndexOnly bool
	// KeepOtherVectors keeps the vectors other models made in the index:
	// for a one-shot command (a CLI search) whose --embed need not be the
	// model the vault was set up with. Without it, the embedder drops them
	// once its own vectors are complete (serve and index define the
	// vault's model). With it, searches warn about such vectors.
	KeepOtherVectors bool
	// ReadOnly refuses every write (CreateNode, UpdateNode, DeleteNode)
	// with ErrReadOnly.
	ReadOnly bool

	// FollowRenames applies the repair of each rename made outside
	// vaultgraph as the watcher finds it (Watch), unless it is ambiguous;
	// without it the repairs wait for RepairLinks.
	FollowRenames bool
	// RenameWindow is how long a note that went and a note that appeared
	// may be apart to be paired as a rename (DefaultRenameWindow).
	RenameWindow time.Duration
	// IndexMmap is how many bytes of the index file each of its
	// connections reads through a memory map (store.WithMmap); 0 reads
	// none that way. serve uses ServeIndexMmap.
	IndexMmap int64

	// test holds settings only tests change; nil means the defaults.
	test *testOptions
}

// ServeIndexMmap is the IndexMmap of `serve`: reading the pages again
// through the map after every commit costs a third of read calls; 64 MiB
// holds a 10,000-note index whole and bounds what the map adds to RSS.
const ServeIndexMmap = 64 << 20

// Where the index lives by default, inside the vault (a dot-folder, so
// neither Obsidian nor vaultgraph treats it as notes).
const (
	IndexDir  = vault.StateDir
	IndexFile = "index.db"
)

// Engine is vaultgraph's one core API: it owns the vault's notes, their
// resolved links and the graph, and answers every read the CLI and the MCP
// server offer. All methods are safe for concurrent use.
type Engine struct {
	opts   Options
	root   string // absolute vault path
	parser *vault.Parser
	log    *slog.Logger

	mu    sync.RWMutex
	open  bool
	notes map[string]*noteState // by ID
	rows  noteRows              // every note's ID and times, for passes over all notes
	// recent is the notes in the order of list_nodes by -modified, kept
	// beside rows (putRow, dropRow).
	recent recentOrder
	index  *vault.Index
	graph  *graph.Graph
	// graphCached says the start took the graph from the graph cache.
	graphCached bool
	refs        idLists     // Fold(target base name) -> IDs of notes linking to it; nil until refIndex
	titles      *titleIndex // notes by folded title and alias; nil until a lookup needs it (titleIndexOf)
	ignore      *vault.Ignore
	// excluded is what scans found of the user's excluded folders and
	// files, whose links a rename still rewrites; nil until a full scan
	// (or the first rename or delete that needs it) learns it.
	excluded *excludedSet
	exclRefs excludedRefs // what the excluded notes link, by file
	// noteProblems are notes that could not be read or parsed, by ID;
	// scanProblems are what the last full scan reported.
	noteProblems map[string]vault.Problem
	scanProblems []vault.Problem
	lastSync     time.Time
	loadTime     time.Duration
	report       IndexReport
	// vectorsHint is storedVectorsHint's answer, made once.
	vectorsHintOnce sync.Once
	vectorsHint     string
	// reparseAll makes the first scan parse every note again: the index
	// was written for another vault path (a copied or moved vault).
	reparseAll bool
	// renames tracks renames made outside vaultgraph and their pending
	// link repairs.
	renames renameState

	store  *store.Store // nil with Options.NoIndex
	syncMu sync.Mutex   // serialises index passes and syncs
	// indexed says the notes in memory are what the index holds: the
	// last pass ended and wrote its last batch (guarded by syncMu; see
	// keepCaches).
	indexed bool
	// scanMark numbers the scans compared with the notes (diffScanLocked,
	// under syncMu).
	scanMark uint64
	refsMu   sync.Mutex // guards refIndex's build of refs under the read lock
	titlesMu sync.Mutex // guards titleIndexOf's build of titles under the read lock
	// writeMu is held for reading by the writes that go through the
	// group commit (one file each: see engine_group.go) and alone by the
	// others (renames, moves, heading renames, deletes).
	writeMu sync.RWMutex
	group   writeGroup
	// heavy admits the CPU-bound reads (searches), at most
	// heavyPerCore per core at a time (see heavyRead).
	heavy chan struct{}
	emb   *embedder // nil without Options.Embedder
	// chunkVecs keeps the chunk vectors that searches scored again
	// (rescore).
	chunkVecs chunkCache
	// commitOpts are passed to every commit.Apply (tests set FailAt).
	commitOpts commit.Options
	watcher    string // "off" or "running"

	subMu sync.Mutex
	subs  []func(Change)
}

// noteState is a parsed note with the resolution of each of its links.
type noteState struct {
	// row is the note's place in Engine.rows, which holds its times.
	row int32
	// note's Links are nil while lazy holds them: what reads them, or
	// copies or hands on the note, goes through eachLink() or full().
	note     *vault.Note
	lazy     *lazyLinks     // a note taken from the snapshot cache, nil otherwise
	path     string         // path on disk
	resolved []string       // per link: target ID, "" when not a note
	status   []vault.Status // per link
	scanned  uint64         // Engine.scanMark of the last scan that found it
}

// New returns an Engine for the vault in opts. It does no I/O; call Open.
func New(opts Options) *Engine {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	e := &Engine{opts: opts, log: log, parser: vault.NewParser(), watcher: "off",
		heavy: make(chan struct{}, heavyPerCore*runtime.GOMAXPROCS(0))}
	e.group.syncs.coming = e.groupWriting
	return e
}

// Open scans and parses the whole vault and builds the graph.
func (e *Engine) Open(ctx context.Context) error {
	dir := cmp.Or(e.opts.Vault, ".")
	root, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("open vault %s: %w", dir, err)
	}
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("open vault %s: %w: no such folder", root, ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("open vault: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("open vault %s: %w: not a folder", root, ErrInvalid)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // the scanner reports paths under the real folder
	}
	e.mu.Lock()
	e.root = root
	e.commitOpts.Root = root // the vault's write lock and commit journal
	e.mu.Unlock()
	if err := e.load(ctx); err != nil {
		e.Close()
		return err
	}
	e.startEmbedding()
	return nil
}

// recoverWrites finishes or undoes a write a crash interrupted: it leaves
// temporary files, backups and maybe a commit journal (journal: finish
// that write). commit.Recover skips it while another process holds the
// vault's write lock (a server in the middle of a write): its files are
// not leftovers. load runs it before its scan, not at all read-only or
// while a server owns the vault (TrustIndex).
func (e *Engine) recoverWrites() {
	done, err := commit.Recover(e.root)
	for _, d := range done {
		e.log.Warn("repaired an interrupted write", "what", d)
	}
	switch {
	case errors.Is(err, commit.ErrLocked):
		e.log.Info("skipped the clean-up of interrupted writes: another process is writing to the vault", "err", err)
	case err != nil:
		e.log.Warn("could not clean up after an interrupted write", "err", err)
	}
}

// Close releases the engine. Reads after Close fail with ErrClosed.
func (e *Engine) Close() error {
	e.stopEmbedding()
	e.syncMu.Lock()
	defer e.syncMu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.keepCaches(context.Background())
	e.open = false
	if e.store != nil {
		err := e.store.Close()
		e.store = nil
		return err
	}
	return nil
}

// Root returns the absolute path of the vault.
func (e *Engine) Root() string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.root
}

// Graph returns the engine's link graph, for callers that walk it
// directly (benchmarks, tools). It is safe for concurrent readers.
func (e *Engine) Graph() *graph.Graph {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.graph
}

// readLock takes the read lock and fails when the engine is not open.
func (e *Engine) readLock() error {
	e.mu.RLock()
	if !e.open {
		e.mu.RUnlock()
		return ErrClosed
	}
	return nil
}
