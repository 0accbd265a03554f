//go:build unix && !aix && !solaris

package commit

import (
	"errors"
	"os"
	"syscall"
)

// lockRemovable says that the holder of the write lock removes its file
// when it lets go: flock locks the open file, not the name, so a waiter
// then holds a lock on a removed file, sees so and tries again.
const lockRemovable = true

// lockFile takes an exclusive flock on f without waiting, or fails with
// ErrLocked. A flock belongs to the open file description, so two opens
// of the lock file conflict even in one process.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	for errors.Is(err, syscall.EINTR) {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}

// unlockFile lets go of the flock on f.
func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
