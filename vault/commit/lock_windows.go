//go:build windows

package commit

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockRemovable says that the lock file stays when the lock is let go: a
// file open elsewhere cannot be removed on Windows.
const lockRemovable = false

// lockFile takes an exclusive LockFileEx lock on the first byte of f
// without waiting, or fails with ErrLocked. The lock belongs to the
// handle, so two opens of the lock file conflict even in one process.
func lockFile(f *os.File) error {
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return ErrLocked
	}
	return err
}

// unlockFile lets go of the lock on f.
func unlockFile(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}
