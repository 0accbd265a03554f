package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Op is one change of a commit: write Data to Path, or remove Path.
type Op struct {
	// Path is the absolute OS path of the file.
	Path string
	// Data is the new content (ignored when Remove).
	Data []byte
	// Remove deletes the file instead; a file already missing is fine.
	Remove bool
	// Perm is the mode of a new file (DefaultFilePerm when 0); an existing
	// file keeps its own.
	Perm fs.FileMode
	// CheckOld makes the commit go ahead only if the file at Path still
	// holds exactly Old, the bytes the caller read to work out Data (for a
	// Remove: the bytes it meant to remove). A file that changed or went
	// fails the whole commit with a *ChangedError (see Apply).
	CheckOld bool
	// Old is what CheckOld expects the file to hold.
	Old []byte
	// IfAbsent makes the commit go ahead only if nothing (no file, folder
	// or symlink) is at Path: a new file that must not replace one made
	// meanwhile. Not with Remove or CheckOld.
	IfAbsent bool
}

// Options tune a commit.
type Options struct {
	// Root is the vault folder that every op's path must be in. When set,
	// the commit holds the vault's write lock (LockWrites) for its whole
	// run and keeps a journal in Root/.vaultgraph/commit.journal, so that
	// Recover finishes a commit that a crash interrupted once its
	// files started to change. Without it there is no lock and no
	// journal: after a crash Recover can only undo what it finds
	// (see Apply), and a file whose name is too long for a backup name
	// that embeds it cannot be replaced or removed.
	Root string
	// LockWait is how long a commit with a Root waits for the write lock
	// while another commit holds it (DefaultLockWait when 0); after that
	// it fails with ErrLocked.
	LockWait time.Duration
	// FailAt is a test hook; leave it nil. When set, it is called before
	// every file-system step that a failed commit undoes, with the step's
	// name and how many steps of that name the commit has taken so far
	// (1 for the first); a non-nil result makes that step fail with it.
	// The steps, in order: per written file "mkdir" (each missing
	// folder), "create", "write", "sync", "chmod", "close" (its temporary
	// file); then, with a Root, "journal" (writing the journal); then
	// "remove" (each removed file moved to its backup), "backup" (each
	// existing file about to be replaced, linked to its backup) and
	// "rename" (each temporary file moved into place). The steps after
	// the last "rename" (removing backups, syncing folders, removing the
	// journal) are not hooked: by then the commit stands.
	FailAt func(step string, n int) error
}

// DefaultLockWait is how long a commit waits for another one by default.
const DefaultLockWait = 30 * time.Second

// Apply applies every op or none, by the protocol the package
// documentation lays out: the new versions in temporary files, then (with
// a Root, for more than one op) the journal, then the backups of the files
// removed or replaced, then each temporary file renamed into place. If a
// step fails, what was done is undone and the error returned; an error
// met once every file is in place wraps ErrCommitted and the change
// stands.
//
// The ops with CheckOld or IfAbsent are checked once the write lock is
// held (with a Root) and the new versions are on disk, just before the
// first file is removed or replaced: if any file is not as expected, the
// commit changes nothing and fails with a *ChangedError. Each such file
// is checked again just before it is replaced (and a removed one just
// after it is moved to its backup, which is exact); a change met then
// fails the commit the same way, and what was done is undone. The lock
// keeps other commits out, not other programs: an edit made in the
// instant between a file's last check and its replacement is not seen.
//
// A write to a path that is a symlink writes the file the symlink leads
// to, which must be inside Root (when set) and not in vault.StateDir, and keeps
// the symlink; a Remove removes the symlink itself.
//
// A move is a write of the new path plus a Remove of the old one; a
// rename that changes only the letter case works on case-insensitive file
// systems too, because removals happen before writes.
//
// The ops' paths must be absolute and distinct (and inside Root when it
// is set). With a Root, a journal left over from a crash is first
// finished as Recover would. Without a Root a crash can leave a mix:
// Recover loses no content, but a moved note may then exist at both
// paths, and a commit must not run at the same time as another commit or
// Recover on the same files.
func Apply(ops []Op, opts Options) error {
	if err := checkOps(ops, opts.Root); err != nil {
		return err
	}
	c := newTxn(ops, opts)
	if opts.Root != "" {
		lk, err := lockForCommit(opts.Root, opts.LockWait)
		if err != nil {
			return err
		}
		defer func() { _ = lk.Unlock() }()
		c.syncRoot = lk.made
	}
	if err := c.followLinks(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if err := c.run(); err != nil {
		return c.undo(err)
	}
	if err := c.finish(); err != nil {
		return fmt.Errorf("commit: %w: %w", ErrCommitted, err)
	}
	return nil
}

// checkOps refuses relative paths, paths outside root (when set) and two
// ops on the same path.
func checkOps(ops []Op, root string) error {
	seen := make(map[string]bool, len(ops))
	for _, op := range ops {
		if !filepath.IsAbs(op.Path) {
			return fmt.Errorf("commit: path %q is not absolute", op.Path)
		}
		p := filepath.Clean(op.Path)
		if seen[p] {
			return fmt.Errorf("commit: path %s given twice", p)
		}
		seen[p] = true
		if op.IfAbsent && (op.Remove || op.CheckOld) {
			return fmt.Errorf("commit: %s: IfAbsent with Remove or CheckOld", p)
		}
		if root == "" {
			continue
		}
		if rel, err := filepath.Rel(root, p); err != nil || !filepath.IsLocal(rel) {
			return fmt.Errorf("commit: path %s is not inside %s", p, root)
		}
	}
	return nil
}

// opState is an op and what commit has done for it so far.
type opState struct {
	Op
	given     string // Path as given (Path is the symlink's target for a write through one)
	tmp       string // temporary file with the new content
	bakName   string // backup name chosen before the journal is written
	bak       string // backup of the old file, once made
	bakRename bool   // the old file was renamed to bak (not linked)
	installed bool   // tmp was renamed to Path
}

type txn struct {
	ops     []opState
	created []string // folders made, parents first
	counts  map[string]int
	failAt  func(string, int) error

	root      string // vault folder: keep a journal there ("" for none)
	syncRoot  bool   // the state folder is new: sync root with the journal
	journaled bool   // the journal is on disk
	recovery  bool   // replaying a journal after a crash (see rollback)
}

func newTxn(ops []Op, opts Options) *txn {
	c := &txn{ops: make([]opState, len(ops)), counts: map[string]int{}, failAt: opts.FailAt, root: opts.Root}
	for i, op := range ops {
		c.ops[i] = opState{Op: op, given: op.Path}
	}
	return c
}

func (c *txn) step(name string) error {
	if c.failAt == nil {
		return nil
	}
	c.counts[name]++
	if err := c.failAt(name, c.counts[name]); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (c *txn) run() error {
	if err := c.writeTemps(); err != nil {
		return err
	}
	if err := c.journal(); err != nil {
		return err
	}
	// Every file is still what the caller read: the last moment before
	// the first one changes.
	if err := c.checkAll(); err != nil {
		return err
	}
	if err := c.backUp(true); err != nil {
		return err
	}
	if err := c.backUp(false); err != nil {
		return err
	}
	return c.install()
}

// writeTemps writes every new version to a temporary file.
func (c *txn) writeTemps() error {
	for op := range c.each(false) {
		if err := c.mkdirAll(filepath.Dir(op.Path)); err != nil {
			return err
		}
		if err := c.writeTemp(op); err != nil {
			return err
		}
	}
	return nil
}

// writeTemp writes the new version of op to its temporary file.
func (c *txn) writeTemp(op *opState) error {
	tmp, err := writeTemp(filepath.Dir(op.Path), op.Data, fileMode(op.Path, op.Perm), c.step)
	if err != nil {
		return fmt.Errorf("write %s: %w", op.Path, err)
	}
	op.tmp = tmp
	return nil
}

// journal writes the journal, once the temporary files are safe on disk
// (with a Root, for more than one write): from then on a crash is
// finished, not undone.
func (c *txn) journal() error {
	if c.root == "" || c.single() {
		return nil
	}
	for i := range c.ops {
		name, err := backupName(c.ops[i].Path, true)
		if err != nil {
			return err
		}
		c.ops[i].bakName = name
	}
	if err := c.syncFolders(); err != nil {
		return fmt.Errorf("sync folders: %w", err)
	}
	if err := c.step("journal"); err != nil {
		return err
	}
	return c.writeJournal(journalCommit)
}

// backUp moves every removed file to its backup (removed), or keeps a
// backup of every file about to be replaced (!removed). Removed files go
// to their backups first, so that a write to a name that differs only in
// case finds its folder entry free.
func (c *txn) backUp(removed bool) error {
	if !removed && c.single() {
		return nil
	}
	for op := range c.each(removed) {
		bak, err := c.backupFor(op)
		if err != nil {
			return err
		}
		switch {
		case bak == "":
		case removed:
			if err := os.Rename(op.Path, bak); err != nil {
				return fmt.Errorf("remove %s: %w", op.Path, err)
			}
			op.bak, op.bakRename = bak, true
			// The backup is the very file removed: checking it leaves no gap.
			if err := c.verify(op, bak); err != nil {
				return err
			}
		case os.Link(op.Path, bak) == nil:
			op.bak = bak
		default:
			if err := os.Rename(op.Path, bak); err != nil {
				return fmt.Errorf("back up %s: %w", op.Path, err)
			}
			op.bak, op.bakRename = bak, true
		}
	}
	return nil
}

// backupFor names the backup of op's file and takes the crash step
// ("remove" or "backup") before the file is moved or linked there; it is
// "" when there is no file.
func (c *txn) backupFor(op *opState) (string, error) {
	action, verb, step := "back up", "write", "backup"
	if op.Remove {
		action, verb, step = "remove", "remove", "remove"
	}
	if fi, err := os.Lstat(op.Path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("%s %s: %w", action, op.Path, err)
	} else if fi.IsDir() {
		return "", fmt.Errorf("%s %s: it is a folder", verb, op.Path)
	}
	bak := op.bakName // the journal's, or a new one embedding the file's name
	if bak == "" {
		var err error
		if bak, err = backupName(op.Path, false); err != nil {
			return "", err
		}
	}
	if err := c.step(step); err != nil {
		return "", err
	}
	return bak, nil
}

// install renames every temporary file into place.
func (c *txn) install() error {
	for op := range c.each(false) {
		if err := c.step("rename"); err != nil {
			return err
		}
		if !c.single() {
			// Once more, as late as can be (a single write was just checked).
			p := op.Path
			if op.bakRename {
				p = op.bak
			}
			if err := c.verify(op, p); err != nil {
				return err
			}
		}
		if err := os.Rename(op.tmp, op.Path); err != nil {
			return fmt.Errorf("write %s: %w", op.Path, err)
		}
		op.installed = true
	}
	return nil
}

// each yields the ops that remove a file (remove) or write one.
func (c *txn) each(remove bool) iter.Seq[*opState] {
	return func(yield func(*opState) bool) {
		for i := range c.ops {
			if c.ops[i].Remove == remove && !yield(&c.ops[i]) {
				return
			}
		}
	}
}

// single reports a commit of one file write: its rename is atomic on its
// own, so it needs neither a journal nor a backup (a crash leaves the old
// file, or the new one, and at most a temporary file).
func (c *txn) single() bool {
	return len(c.ops) == 1 && !c.ops[0].Remove && !c.recovery
}

// mkdirAll creates dir and its missing parents, remembering each one.
func (c *txn) mkdirAll(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("create folder %s: %s is not a folder", dir, d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("create folder %s: %w", dir, err)
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range slices.Backward(missing) {
		if err := c.step("mkdir"); err != nil {
			return err
		}
		if err := os.Mkdir(d, defaultDirPerm); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // made by someone else meanwhile: not ours to remove
			}
			return fmt.Errorf("create folder %s: %w", d, err)
		}
		c.created = append(c.created, d)
	}
	return nil
}

// syncFolders flushes the folders of the ops' files and of the folders
// made (so that new names are on disk before the journal names them).
func (c *txn) syncFolders() error {
	var errs []error
	syncEach(c.folders(), func(_ string, err error) { errs = append(errs, err) })
	return errors.Join(errs...)
}

// folders returns the folders whose entries c changes: the folder of each
// op's file and the parent of each folder c made.
func (c *txn) folders() []string {
	var out []string
	for _, op := range c.ops {
		out = append(out, filepath.Dir(op.Path))
	}
	for _, d := range c.created {
		out = append(out, filepath.Dir(d))
	}
	return out
}
