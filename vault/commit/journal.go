package commit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// The files a commit with a Root keeps in the vault's state folder
// (vault.StateDir).
const (
	// JournalName is the name of the commit journal in vault.StateDir. It
	// exists from the moment a commit's new versions are all safely on
	// disk until every file is in place, and names every file of the
	// commit with its temporary file and its backup.
	JournalName = "commit.journal"
	// LockName is the name of the write lock's file in vault.StateDir; its
	// holder removes it when it lets go (not on Windows).
	LockName = "write.lock"
	// corruptJournalName is where an unreadable journal is moved.
	corruptJournalName = "commit.journal.corrupt"
)

// ErrLocked means another commit or Recover, in this process or
// another, holds the vault's write lock.
var ErrLocked = errors.New("another process is writing to the vault")

const (
	journalVersion  = 1
	journalCommit   = "commit"   // being applied: a crash is finished
	journalRollback = "rollback" // being undone: a crash is undone
)

// journal is the content of the commit journal (JSON).
type journal struct {
	Version int         `json:"version"`
	State   string      `json:"state"`
	Folders []string    `json:"folders,omitempty"` // made by the commit, parents first
	Ops     []journalOp `json:"ops"`
}

// journalOp is one op of a journal. Paths are slash paths relative to
// the root; Temp and Backup are file names in the folder of Path.
type journalOp struct {
	Path   string `json:"path"`
	Remove bool   `json:"remove,omitempty"`
	Temp   string `json:"temp,omitempty"` // the new version (writes only)
	Backup string `json:"backup"`         // the old version's name, once made
	// What had been done when a rollback started (rollback journals only).
	BackedUp  bool `json:"backedUp,omitempty"`  // Backup was made...
	Moved     bool `json:"moved,omitempty"`     // ...by renaming the file, not linking it
	Installed bool `json:"installed,omitempty"` // Temp was renamed to Path
}

// journalPath is the path of the commit journal of the vault at root.
func journalPath(root string) string { return filepath.Join(root, vault.StateDir, JournalName) }

// writeJournal writes the journal of c with state atomically: a
// temporary file in the state folder, synced and renamed over the
// journal, then the folder synced. The caller holds the write lock (which
// made the state folder).
func (c *txn) writeJournal(state string) error {
	j := journal{Version: journalVersion, State: state, Ops: make([]journalOp, len(c.ops))}
	rel := relFunc(c.root) // checkOps made sure every path is inside
	for _, d := range c.created {
		j.Folders = append(j.Folders, rel(d))
	}
	for i, op := range c.ops {
		jo := journalOp{Path: rel(op.Path), Remove: op.Remove, Backup: filepath.Base(op.bakName)}
		if op.tmp != "" {
			jo.Temp = filepath.Base(op.tmp)
		}
		if state == journalRollback {
			jo.BackedUp, jo.Moved, jo.Installed = op.bak != "", op.bak != "" && op.bakRename, op.installed
		}
		j.Ops[i] = jo
	}
	data, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	dir := filepath.Join(c.root, vault.StateDir)
	tmp, err := writeTemp(dir, append(data, '\n'), DefaultFilePerm, nil)
	if err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if err := os.Rename(tmp, journalPath(c.root)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write journal: %w", err)
	}
	c.journaled = true
	if err := syncFolder(dir); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	if c.syncRoot {
		if err := syncFolder(c.root); err != nil {
			return fmt.Errorf("write journal: %w", err)
		}
		c.syncRoot = false
	}
	return nil
}

// removeJournal removes the journal of c, if it wrote one.
func (c *txn) removeJournal() error {
	if !c.journaled {
		return nil
	}
	if err := os.Remove(journalPath(c.root)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove journal: %w", err)
	}
	c.journaled = false
	return nil
}

// loadJournal parses a journal of the vault at root into the commit it
// describes (to be finished or undone) and its state. Every path must
// stay inside root: relative, clean, no "..", and its existing folder
// must not lead out of root through a symlink; temporary and backup
// names must be plain names with their prefixes.
func loadJournal(root string, data []byte) (*txn, string, error) {
	var j journal
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, "", err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, "", errors.New("data after the journal")
	}
	if j.Version != journalVersion {
		return nil, "", fmt.Errorf("version %d, want %d", j.Version, journalVersion)
	}
	if j.State != journalCommit && j.State != journalRollback {
		return nil, "", fmt.Errorf("state %q", j.State)
	}
	realRoot := root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		realRoot = r
	}
	c := &txn{counts: map[string]int{}, root: root, journaled: true, recovery: true}
	for _, f := range j.Folders {
		p, err := journalFile(root, realRoot, f)
		if err != nil {
			return nil, "", err
		}
		c.created = append(c.created, p)
	}
	seen := map[string]bool{}
	for _, jo := range j.Ops {
		p, err := journalFile(root, realRoot, jo.Path)
		if err != nil {
			return nil, "", err
		}
		if seen[p] {
			return nil, "", fmt.Errorf("path %q given twice", jo.Path)
		}
		seen[p] = true
		op := opState{Op: Op{Path: p, Remove: jo.Remove}}
		if err := checkSideName(jo.Backup, BackupPrefix); err != nil {
			return nil, "", fmt.Errorf("%s: %w", jo.Path, err)
		}
		op.bakName = filepath.Join(filepath.Dir(p), jo.Backup)
		if jo.Remove {
			if jo.Temp != "" || jo.Installed {
				return nil, "", fmt.Errorf("%s: a removal with a temporary file", jo.Path)
			}
		} else {
			if err := checkSideName(jo.Temp, TempPrefix); err != nil {
				return nil, "", fmt.Errorf("%s: %w", jo.Path, err)
			}
			op.tmp = filepath.Join(filepath.Dir(p), jo.Temp)
		}
		if j.State == journalRollback {
			if jo.BackedUp {
				op.bak, op.bakRename = op.bakName, jo.Moved
			}
			op.installed = jo.Installed
		}
		c.ops = append(c.ops, op)
	}
	return c, j.State, nil
}

// journalFile returns the path at rel (a slash path from a journal)
// under root, or an error when it is not certainly inside it.
func journalFile(root, realRoot, rel string) (string, error) {
	if rel == "" || strings.ContainsRune(rel, 0) || path.Clean(rel) != rel || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", fmt.Errorf("path %q is not inside the vault", rel)
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		if r, err := filepath.Rel(realRoot, real); err != nil || r != "." && !filepath.IsLocal(r) {
			return "", fmt.Errorf("path %q leads out of the vault", rel)
		}
	}
	return p, nil
}

// checkSideName checks a file name kept beside a note (temporary file or
// backup): a plain name starting with prefix.
func checkSideName(name, prefix string) error {
	if !strings.HasPrefix(name, prefix) || len(name) > vault.MaxNameBytes || strings.ContainsAny(name, "/\\\x00") || name != filepath.Base(name) {
		return fmt.Errorf("bad file name %q", name)
	}
	return nil
}

// rollForward finishes a commit loaded from a journal in the "commit"
// state: it does again, skipping what is done, the steps after the
// journal (removed files to their backups, temporary files into place),
// then removes the backups and the journal. It can itself be interrupted
// and run again. It returns a line per file it changed.
func (c *txn) rollForward() ([]string, error) {
	rel := relFunc(c.root)
	// Once a temporary file is gone, its rename into place happened, so
	// every removed file had been moved to its backup before.
	placing := false
	for op := range c.each(false) {
		ok, err := exists(op.tmp)
		if err != nil {
			return nil, err
		}
		op.installed = !ok
		placing = placing || !ok
	}
	var done []string
	for op := range c.each(true) {
		if ok, err := exists(op.bakName); err != nil {
			return done, err
		} else if !ok {
			fi, err := os.Lstat(op.Path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			} else if err != nil {
				return done, err
			}
			if placing || fi.IsDir() {
				// Moved and its backup removed already: what has this name
				// now is not the removed file (on a case-insensitive disk, it
				// can be a new file whose name differs only in case).
				continue
			}
			if err := os.Rename(op.Path, op.bakName); err != nil {
				return done, err
			}
		}
		op.bak = op.bakName
		done = append(done, "removed "+rel(op.Path)+" (finishing an interrupted commit)")
	}
	for op := range c.each(false) {
		if ok, err := exists(op.bakName); err != nil {
			return done, err
		} else if ok {
			op.bak = op.bakName
		}
		if op.installed {
			continue
		}
		if err := os.Rename(op.tmp, op.Path); err != nil {
			return done, err
		}
		op.installed = true
		done = append(done, "wrote "+rel(op.Path)+" (finishing an interrupted commit)")
	}
	return done, c.finish()
}

// relFunc returns a function giving the root-relative slash path of a
// path under root.
func relFunc(root string) func(string) string {
	return func(p string) string {
		r, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
}

// exists reports whether a file is at p (not following a symlink).
func exists(p string) (bool, error) {
	_, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// recoverJournal finishes or undoes the commit whose journal is left in
// the vault at root, as the journal's state says; the caller holds the
// write lock. A journal that cannot be parsed or names a path outside
// the vault is moved aside (vault.StateDir/commit.journal.corrupt) and
// corrupt is set: the caller then undoes what it can without it (see
// cleanLeftovers). A journal that cannot be read, or a commit that cannot
// be finished, is an error, and the journal stays for the next try.
func recoverJournal(root string) (done []string, corrupt bool, err error) {
	jp := journalPath(root)
	data, err := os.ReadFile(jp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read commit journal: %w", err)
	}
	c, state, err := loadJournal(root, data)
	if err != nil {
		aside := filepath.Join(root, vault.StateDir, corruptJournalName)
		if rerr := os.Rename(jp, aside); rerr != nil {
			return nil, false, fmt.Errorf("commit journal %s is unreadable (%v) and could not be moved aside: %w", jp, err, rerr)
		}
		return []string{fmt.Sprintf("the journal of an interrupted commit is unreadable (%v): moved it to %s/%s and undid what could be undone without it, keeping backups", err, vault.StateDir, corruptJournalName)}, true, nil
	}
	if state == journalRollback {
		if err := c.rollback(); err != nil {
			return nil, false, fmt.Errorf("undo the interrupted commit in %s: %w", jp, err)
		}
		if err := c.removeJournal(); err != nil {
			return nil, false, err
		}
		return []string{fmt.Sprintf("undid an interrupted commit of %d files (%s/%s)", len(c.ops), vault.StateDir, JournalName)}, false, nil
	}
	done, err = c.rollForward()
	if err != nil {
		return done, false, fmt.Errorf("finish the interrupted commit in %s: %w", jp, err)
	}
	return append(done, fmt.Sprintf("finished an interrupted commit of %d files (%s/%s)", len(c.ops), vault.StateDir, JournalName)), false, nil
}
