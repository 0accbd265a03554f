//go:build !windows && (!unix || aix || solaris)

package commit

import "os"

// lockRemovable: the lock file goes when the lock is let go.
const lockRemovable = true

// lockFile does nothing: this system has no file lock that this package
// uses, so commits and Recover of different processes are not kept
// apart here.
func lockFile(*os.File) error { return nil }

// unlockFile does nothing (see lockFile).
func unlockFile(*os.File) error { return nil }
