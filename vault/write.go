package vault

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
)

// The names of the files the writer keeps beside a note while it works.
// Both start with a dot, so the scanner never takes them for notes.
const (
	// TempPrefix starts the name of a new version being written.
	TempPrefix = ".vaultgraph-tmp-"
	// BackupPrefix starts the name of the old version kept during a
	// Commit: ".vaultgraph-bak-<8 hex>-<name of the file>".
	BackupPrefix = ".vaultgraph-bak-"
)

// DefaultFilePerm is the mode of a new file written with perm 0.
const DefaultFilePerm fs.FileMode = 0o644

// defaultDirPerm is the mode of the folders Commit creates.
const defaultDirPerm fs.FileMode = 0o755

// ErrCommitted wraps an error met after every file of a Commit was in
// place (removing a backup, syncing a folder): the change stands and is
// not undone.
var ErrCommitted = errors.New("changes committed, but cleanup failed")

// WriteFileAtomic replaces the file at path with data so that a reader
// sees either the old or the new content, never a part: the data goes to
// a temporary file in the same folder (named TempPrefix...), which is
// synced and renamed over path; then the folder is synced (not on
// Windows, where a folder cannot be synced). An existing file keeps its
// permission bits; a new one gets perm (DefaultFilePerm when 0, not
// reduced by the umask). On error the temporary file is removed and path
// is untouched.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	mode := fileMode(path, perm)
	tmp, err := writeTemp(filepath.Dir(path), data, mode, nil)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := syncFolder(filepath.Dir(path)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// fileMode is the permission bits of the file at path, or perm when it
// does not exist.
func fileMode(path string, perm fs.FileMode) fs.FileMode {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	if perm == 0 {
		return DefaultFilePerm
	}
	return perm.Perm()
}

// writeTemp writes data to a new temporary file in dir, syncs it, gives
// it mode and returns its path; on error nothing is left behind. hook,
// when set, is asked before each step.
func writeTemp(dir string, data []byte, mode fs.FileMode, hook func(step string) error) (path string, err error) {
	step := func(name string) error {
		if hook == nil {
			return nil
		}
		return hook(name)
	}
	if err := step("create"); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, TempPrefix+"*")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if err := step("write"); err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return "", err
	}
	if err := step("sync"); err != nil {
		return "", err
	}
	if err := f.Sync(); err != nil {
		return "", err
	}
	if err := step("chmod"); err != nil {
		return "", err
	}
	if err := f.Chmod(mode); err != nil {
		return "", err
	}
	if err := step("close"); err != nil {
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// syncFolder flushes a folder's entries (new names, renames) to disk. On
// Windows folders cannot be synced and it does nothing; file systems that
// do not support it are not an error.
func syncFolder(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, errors.ErrUnsupported) || errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}

// FileOp is one change of a Commit: write Data to Path, or remove Path.
type FileOp struct {
	// Path is the absolute OS path of the file.
	Path string
	// Data is the new content (ignored when Remove).
	Data []byte
	// Remove deletes the file instead; a file already missing is fine.
	Remove bool
	// Perm is the mode of a new file (DefaultFilePerm when 0); an existing
	// file keeps its own.
	Perm fs.FileMode
}

// CommitOptions tune a Commit.
type CommitOptions struct {
	// FailAt is a test hook; leave it nil. When set, it is called before
	// every file-system step that a failed Commit undoes, with the step's
	// name and how many steps of that name the Commit has taken so far
	// (1 for the first); a non-nil result makes that step fail with it.
	// The steps, in order: per written file "mkdir" (each missing
	// folder), "create", "write", "sync", "chmod", "close" (its temporary
	// file); then "remove" (each removed file moved to its backup),
	// "backup" (each existing file about to be replaced, linked to its
	// backup) and "rename" (each temporary file moved into place).
	// The steps after the last "rename" (removing backups, syncing
	// folders) are not hooked: by then the Commit stands.
	FailAt func(step string, n int) error
}

// Commit applies every op or none. It writes each new version to a
// temporary file in its folder (creating missing folders), keeps a backup
// of every file it will remove or replace (BackupPrefix names in the same
// folder: removed files are renamed there, replaced files hard-linked,
// or renamed when the file system has no hard links), then renames each
// temporary file into place. If a step fails, every file replaced or
// removed so far is put back from its backup, new files, temporary files
// and created folders are removed, and the error is returned. On success
// the backups are removed and the touched folders synced; an error there
// is returned wrapping ErrCommitted and the change stands.
//
// A move is a write of the new path plus a Remove of the old one; a
// rename that changes only the letter case works on case-insensitive file
// systems too, because removals happen before writes.
//
// The ops' paths must be absolute and distinct. A crash in the middle can
// leave temporary and backup files; CleanupTemps puts the vault back in
// order (no content is lost, though a moved note may then exist at both
// paths). Commit must not run at the same time as another Commit or
// CleanupTemps on the same files.
func Commit(ops []FileOp, opts CommitOptions) error {
	if err := checkOps(ops); err != nil {
		return err
	}
	c := &commit{ops: make([]opState, len(ops)), counts: map[string]int{}, failAt: opts.FailAt}
	for i, op := range ops {
		c.ops[i] = opState{FileOp: op}
	}
	if err := c.run(); err != nil {
		if rerr := c.rollback(); rerr != nil {
			return fmt.Errorf("commit: %w (and undoing it failed: %v)", err, rerr)
		}
		return fmt.Errorf("commit: %w", err)
	}
	if err := c.finish(); err != nil {
		return fmt.Errorf("commit: %w: %w", ErrCommitted, err)
	}
	return nil
}

// checkOps refuses relative paths and two ops on the same path.
func checkOps(ops []FileOp) error {
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
	}
	return nil
}

// opState is an op and what Commit has done for it so far.
type opState struct {
	FileOp
	tmp       string // temporary file with the new content, until renamed
	bak       string // backup of the old file
	bakRename bool   // the old file was renamed to bak (not linked)
	installed bool   // tmp was renamed to Path
}

type commit struct {
	ops     []opState
	created []string // folders made, parents first
	counts  map[string]int
	failAt  func(string, int) error
}

func (c *commit) step(name string) error {
	if c.failAt == nil {
		return nil
	}
	c.counts[name]++
	if err := c.failAt(name, c.counts[name]); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (c *commit) run() error {
	// 1. New versions in temporary files.
	for i := range c.ops {
		op := &c.ops[i]
		if op.Remove {
			continue
		}
		dir := filepath.Dir(op.Path)
		if err := c.mkdirAll(dir); err != nil {
			return err
		}
		tmp, err := writeTemp(dir, op.Data, fileMode(op.Path, op.Perm), c.step)
		if err != nil {
			return fmt.Errorf("write %s: %w", op.Path, err)
		}
		op.tmp = tmp
	}
	// 2. Removed files go to their backups first, so that a write to a
	// name that differs only in case finds its folder entry free.
	for i := range c.ops {
		op := &c.ops[i]
		if !op.Remove {
			continue
		}
		if fi, err := os.Lstat(op.Path); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return fmt.Errorf("remove %s: %w", op.Path, err)
		} else if fi.IsDir() {
			return fmt.Errorf("remove %s: it is a folder", op.Path)
		}
		bak, err := backupName(op.Path)
		if err != nil {
			return err
		}
		if err := c.step("remove"); err != nil {
			return err
		}
		if err := os.Rename(op.Path, bak); err != nil {
			return fmt.Errorf("remove %s: %w", op.Path, err)
		}
		op.bak, op.bakRename = bak, true
	}
	// 3. Backups of the files about to be replaced.
	for i := range c.ops {
		op := &c.ops[i]
		if op.Remove {
			continue
		}
		if fi, err := os.Lstat(op.Path); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return fmt.Errorf("back up %s: %w", op.Path, err)
		} else if fi.IsDir() {
			return fmt.Errorf("write %s: it is a folder", op.Path)
		}
		bak, err := backupName(op.Path)
		if err != nil {
			return err
		}
		if err := c.step("backup"); err != nil {
			return err
		}
		if err := os.Link(op.Path, bak); err == nil {
			op.bak = bak
		} else if err := os.Rename(op.Path, bak); err == nil {
			op.bak, op.bakRename = bak, true
		} else {
			return fmt.Errorf("back up %s: %w", op.Path, err)
		}
	}
	// 4. Into place.
	for i := range c.ops {
		op := &c.ops[i]
		if op.Remove {
			continue
		}
		if err := c.step("rename"); err != nil {
			return err
		}
		if err := os.Rename(op.tmp, op.Path); err != nil {
			return fmt.Errorf("write %s: %w", op.Path, err)
		}
		op.tmp, op.installed = "", true
	}
	return nil
}

// mkdirAll creates dir and its missing parents, remembering each one.
func (c *commit) mkdirAll(dir string) error {
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

// rollback undoes what run did, newest first: new files are removed or
// replaced by their backups, then removed files come back, then the
// temporary files and created folders go.
func (c *commit) rollback() error {
	var errs []error
	for i := len(c.ops) - 1; i >= 0; i-- {
		op := &c.ops[i]
		if !op.installed {
			continue
		}
		if op.bak != "" {
			if err := os.Rename(op.bak, op.Path); err != nil {
				errs = append(errs, err)
				continue
			}
			op.bak = ""
		} else if err := os.Remove(op.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for i := len(c.ops) - 1; i >= 0; i-- {
		op := &c.ops[i]
		if op.bak == "" {
			continue
		}
		var err error
		if op.bakRename {
			err = os.Rename(op.bak, op.Path)
		} else {
			err = os.Remove(op.bak)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, op := range c.ops {
		if op.tmp != "" {
			if err := os.Remove(op.tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	for _, d := range slices.Backward(c.created) {
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// finish removes the backups and syncs every touched folder.
func (c *commit) finish() error {
	var errs []error
	dirs := map[string]bool{}
	for _, op := range c.ops {
		dirs[filepath.Dir(op.Path)] = true
		if op.bak != "" {
			if err := os.Remove(op.bak); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	for _, d := range c.created {
		dirs[filepath.Dir(d)] = true
	}
	for _, d := range slices.Sorted(maps.Keys(dirs)) {
		if err := syncFolder(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// backupName returns a free backup name beside path.
func backupName(path string) (string, error) {
	base := filepath.Base(path)
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", err
	}
	name := BackupPrefix + hex.EncodeToString(r[:]) + "-" + base
	if len(name) > maxNameBytes {
		return "", fmt.Errorf("back up %s: the name is too long to keep a backup beside it", path)
	}
	return filepath.Join(filepath.Dir(path), name), nil
}

// backupTarget returns the name of the file a backup name keeps, or "".
func backupTarget(name string) string {
	rest, ok := strings.CutPrefix(name, BackupPrefix)
	if !ok {
		return ""
	}
	id, target, ok := strings.Cut(rest, "-")
	if !ok || len(id) != 8 || target == "" {
		return ""
	}
	if _, err := hex.DecodeString(id); err != nil {
		return ""
	}
	return target
}

// CleanupTemps puts a vault back in order after a crash during a write:
// it removes every leftover temporary file (TempPrefix...) under root and
// resolves every backup (BackupPrefix...): one whose file is missing is
// renamed back into place, one whose file exists is removed. Folders named
// .git are skipped and symlinks are not followed. It returns one line per
// thing done, with vault-relative slash paths, sorted. Call it before the
// vault is written to, never while a Commit runs.
func CleanupTemps(root string) ([]string, error) {
	var temps, baks []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable folder holds nothing of ours
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		switch name := d.Name(); {
		case strings.HasPrefix(name, TempPrefix) && d.Type().IsRegular():
			temps = append(temps, p)
		case backupTarget(name) != "":
			baks = append(baks, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("clean up temporary files: %w", err)
	}
	rel := func(p string) string {
		r, err := filepath.Rel(root, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	var done []string
	var errs []error
	for _, p := range temps {
		if err := os.Remove(p); err != nil {
			errs = append(errs, err)
			continue
		}
		done = append(done, "removed temporary file "+rel(p))
	}
	sort.Strings(baks)
	for _, p := range baks {
		target := filepath.Join(filepath.Dir(p), backupTarget(filepath.Base(p)))
		_, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Rename(p, target); err != nil {
				errs = append(errs, err)
				continue
			}
			done = append(done, "restored "+rel(target)+" from backup "+rel(p))
		case err == nil:
			if err := os.Remove(p); err != nil {
				errs = append(errs, err)
				continue
			}
			done = append(done, "removed backup "+rel(p))
		default:
			errs = append(errs, err)
		}
	}
	sort.Strings(done)
	if err := errors.Join(errs...); err != nil {
		return done, fmt.Errorf("clean up temporary files: %w", err)
	}
	return done, nil
}
