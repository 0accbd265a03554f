package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
)

// undo rolls back a run that failed with err, and returns the commit's
// error. With a journal on disk, the journal is
// first rewritten to say the commit is being undone (so that a crash
// now is undone too, not finished), and removed once all is undone.
func (c *txn) undo(err error) error {
	if c.journaled {
		// When this fails the journal still says "finish": a crash before
		// the rollback ends would then leave a mix; carry on regardless.
		_ = c.writeJournal(journalRollback)
	}
	rerr := c.rollback() // when it fails, the journal stays for Recover to retry
	if rerr == nil {
		rerr = c.removeJournal()
	}
	if rerr != nil {
		return fmt.Errorf("commit: %w (and undoing it failed: %v)", err, rerr)
	}
	return fmt.Errorf("commit: %w", err)
}

// rollback undoes what run did, newest first: new files are removed or
// replaced by their backups, then removed files come back, then the
// temporary files and created folders go. It can be run again after a
// crash interrupted it (from a journal): what is already undone is
// skipped.
func (c *txn) rollback() error {
	var errs []error
	for i := len(c.ops) - 1; i >= 0; i-- {
		op := &c.ops[i]
		if !op.installed {
			continue
		}
		if op.bak != "" {
			if err := os.Rename(op.bak, op.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			op.bak = ""
		} else if c.recovery && c.aliasOfRemoved(op.Path) {
			// On a case-insensitive disk the new file's name is also that
			// of a removed file already put back: keep it.
			continue
		} else {
			errs = append(errs, present(os.Remove(op.Path)))
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
			err = dropLink(op.bak, op.Path)
			if errors.Is(err, errReplaced) && op.CheckOld && sameContent(op.bak, op.Old) {
				// Someone replaced the file after its backup was made, and
				// the backup holds just what the caller read: nothing of
				// theirs is in it.
				err = os.Remove(op.bak)
			}
		}
		errs = append(errs, present(err))
	}
	for _, op := range c.ops {
		if op.tmp != "" && !op.installed {
			errs = append(errs, present(os.Remove(op.tmp)))
		}
	}
	for _, d := range slices.Backward(c.created) {
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if entries, rerr := os.ReadDir(d); rerr == nil && len(entries) > 0 {
				continue // someone else's files are in it now
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// dropLink removes the hard-link backup bak of the file at path, which
// was never replaced: only when it is still the same file (else both are
// kept and an error says so); when path has gone, bak is put back there.
func dropLink(bak, path string) error {
	bi, err := os.Lstat(bak)
	if err != nil {
		return err
	}
	pi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.Rename(bak, path)
	case err != nil:
		return err
	case !os.SameFile(bi, pi):
		return fmt.Errorf("kept backup %s: %s: %w", bak, path, errReplaced)
	}
	return os.Remove(bak)
}

// errReplaced is dropLink's error for a file replaced by another one
// since its backup was made.
var errReplaced = errors.New("the file was replaced meanwhile")

// finish removes the backups, syncs every touched folder and removes the
// journal; when a backup cannot be removed the journal stays, for
// Recover to finish the job.
func (c *txn) finish() error {
	var errs []error
	for _, op := range c.ops {
		if op.bak != "" {
			errs = append(errs, present(os.Remove(op.bak)))
		}
	}
	if err := errors.Join(append(errs, c.syncFolders())...); err != nil {
		return err
	}
	return c.removeJournal()
}

// present is err, or nil when it only says that the file was gone.
func present(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
