package commit

import (
	"errors"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"syscall"

	"github.com/vaultgraph/vaultgraph/vault"
)

// The names of the files the writer keeps beside a note while it works.
// Both start with a dot, so the scanner never takes them for notes.
const (
	// TempPrefix starts the name of a new version being written.
	TempPrefix = vault.WritePrefix + "tmp-"
	// BackupPrefix starts the name of the old version kept during a
	// commit: ".vaultgraph-bak-<8 hex>-<name of the file>", or, when that
	// is too long for a file name, ".vaultgraph-bak-<8 hex>~<the start of
	// the name>" (the commit's journal then names the file).
	BackupPrefix = vault.WritePrefix + "bak-"
)

// DefaultFilePerm is the mode of a new file written with perm 0.
const DefaultFilePerm fs.FileMode = 0o644

// defaultDirPerm is the mode of the folders commit creates.
const defaultDirPerm fs.FileMode = 0o755

// ErrCommitted wraps an error met after every file of a commit was in
// place (removing a backup, syncing a folder, removing the journal): the
// change stands and is not undone.
var ErrCommitted = errors.New("changes committed, but cleanup failed")

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
	if hook == nil {
		hook = func(string) error { return nil }
	}
	if err := hook("create"); err != nil {
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
	for _, step := range []string{"write", "sync", "chmod", "close"} {
		if err := hook(step); err != nil {
			return "", err
		}
		switch step {
		case "write":
			_, err = f.Write(data)
		case "sync":
			err = f.Sync()
		case "chmod":
			err = f.Chmod(mode)
		default:
			err = f.Close()
		}
		if err != nil {
			return "", err
		}
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

// syncEach flushes each of dirs once, in sorted order, and calls failed
// with each one it could not; a folder that is gone since is no failure.
func syncEach(dirs []string, failed func(dir string, err error)) {
	for _, d := range slices.Compact(slices.Sorted(slices.Values(dirs))) {
		if err := syncFolder(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			failed(d, err)
		}
	}
}
