package commit

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// WriteLock is the vault's write lock, held by LockWrites.
type WriteLock struct {
	f    *os.File
	dir  string // the state folder
	made bool   // this lock made the state folder
}

// LockWrites takes the write lock of the vault at root, the one every
// commit with a Root holds and Recover takes before it touches
// anything: an advisory lock (flock on Unix, LockFileEx on Windows; none
// where neither exists) on vault.StateDir/LockName, made with the folder (mode
// 0o755) when missing. Locks conflict between processes and between two
// calls in one process, so a commit in the same process as a held
// WriteLock waits for it. LockWrites waits up to wait for another holder
// to let go (not at all when 0), then fails with an error wrapping
// ErrLocked.
func LockWrites(root string, wait time.Duration) (*WriteLock, error) {
	deadline := time.Now().Add(wait)
	pause := time.Millisecond
	for {
		l, err := tryLock(root)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, ErrLocked) || !time.Now().Before(deadline) {
			if errors.Is(err, ErrLocked) && wait > 0 {
				return nil, fmt.Errorf("lock %s: %w (waited %v)", filepath.Join(root, vault.StateDir, LockName), err, wait)
			}
			return nil, fmt.Errorf("lock %s: %w", filepath.Join(root, vault.StateDir, LockName), err)
		}
		time.Sleep(min(pause, time.Until(deadline)))
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// lockForCommit takes root's write lock for a commit, waiting up to wait
// (DefaultLockWait when 0), and first finishes a commit that a crash
// interrupted and nothing cleaned up since, as Recover would. Its errors
// start with "commit: ".
func lockForCommit(root string, wait time.Duration) (*WriteLock, error) {
	lk, err := LockWrites(root, cmp.Or(wait, DefaultLockWait))
	if err != nil {
		return nil, fmt.Errorf("commit: %w", err)
	}
	if _, err := os.Lstat(journalPath(root)); err == nil {
		if _, err := cleanLocked(root); err != nil {
			_ = lk.Unlock()
			return nil, fmt.Errorf("commit: an interrupted earlier commit could not be finished: %w", err)
		}
	}
	return lk, nil
}

// tryLock takes the lock if it is free. Where the holder removes the lock
// file when it lets go, a lock taken on a file that has since been
// removed (or replaced) is worthless: it is dropped and tried again.
func tryLock(root string) (*WriteLock, error) {
	l := &WriteLock{dir: filepath.Join(root, vault.StateDir)}
	name := filepath.Join(l.dir, LockName)
	for range 100 {
		if err := os.Mkdir(l.dir, defaultDirPerm); err == nil {
			l.made = true
		} else if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, DefaultFilePerm)
		if errors.Is(err, fs.ErrNotExist) {
			continue // the folder went meanwhile
		}
		if err != nil {
			return nil, err
		}
		if err := lockFile(f); err != nil {
			_ = f.Close()
			return nil, err
		}
		if lockRemovable {
			if fi, err := f.Stat(); err != nil || !sameFile(name, fi) {
				_ = unlockFile(f)
				_ = f.Close()
				continue
			}
		}
		l.f = f
		return l, nil
	}
	return nil, fmt.Errorf("%s keeps being removed", name)
}

// Unlock lets go of the lock: it removes the lock file (not on Windows)
// while still holding it, unlocks and closes it, and removes the state
// folder if this lock made it and it is empty.
func (l *WriteLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	var rmErr error
	if lockRemovable {
		rmErr = present(os.Remove(l.f.Name()))
	}
	err := errors.Join(rmErr, unlockFile(l.f), l.f.Close())
	l.f = nil
	if l.made {
		_ = os.Remove(l.dir) // fails when not empty: then it is not ours alone
	}
	if err != nil {
		return fmt.Errorf("unlock %s: %w", filepath.Join(l.dir, LockName), err)
	}
	return nil
}
