package commit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Recover puts a vault back in order after a crash during a write.
// It first takes the vault's write lock without waiting (only when there
// is something to clean up, so that a clean vault gets no state folder):
// when another process holds it, that one is writing and its files are
// not leftovers, so Recover does nothing and returns an error
// wrapping ErrLocked, to be reported as a skip, not a failure.
//
// If a commit left its journal (vault.StateDir/JournalName), that commit is
// finished: every new version is renamed into place, every removed file
// removed, the backups and the journal removed (or, when the commit was
// being undone, it is undone). A journal that cannot be parsed is moved
// aside and reported, and the vault is rolled back without it as below,
// except that a backup whose file has other content is kept (renamed to
// a name with "~" after the 8 hex digits, which later clean-ups leave
// alone). A journal that cannot be read stops the clean-up with an error.
//
// Then every other leftover is rolled back: temporary files
// (TempPrefix...) are removed, and every backup named after its file
// (BackupPrefix + 8 hex + "-" + name) is renamed back into place when its
// file is missing and removed when it exists. Folders named .git are
// skipped and symlinks are not followed. It returns one line per thing
// done, with vault-relative slash paths, sorted.
func Recover(root string) ([]string, error) {
	temps, baks, err := findLeftovers(root)
	if err != nil {
		return nil, fmt.Errorf("clean up temporary files: %w", err)
	}
	if len(temps)+len(baks) == 0 {
		if ok, err := exists(journalPath(root)); err == nil && !ok {
			return nil, nil
		}
	}
	lk, err := LockWrites(root, 0)
	if errors.Is(err, ErrLocked) {
		return nil, fmt.Errorf("clean up temporary files: skipped: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("clean up temporary files: %w", err)
	}
	defer func() { _ = lk.Unlock() }()
	done, err := cleanLocked(root)
	if err != nil {
		return done, fmt.Errorf("clean up temporary files: %w", err)
	}
	return done, nil
}

// cleanLocked is Recover once the write lock is held.
func cleanLocked(root string) ([]string, error) {
	done, corrupt, err := recoverJournal(root)
	if err != nil {
		sort.Strings(done)
		return done, err // keep every other leftover for the next try
	}
	more, err := cleanLeftovers(root, corrupt)
	done = append(done, more...)
	sort.Strings(done)
	return done, err
}

// findLeftovers lists the temporary files and the backups named after
// their files under root, skipping .git folders.
func findLeftovers(root string) (temps, baks []string, err error) {
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
		switch leftover(d.Name(), d.Type()) {
		case isTemp:
			temps = append(temps, p)
		case isBackup:
			baks = append(baks, p)
		}
		return nil
	})
	return temps, baks, err
}

// What a file left by a write is.
const (
	notLeftover = iota
	isTemp
	isBackup
)

// leftover says what the file named name, of type typ, is to Recover.
func leftover(name string, typ fs.FileMode) int {
	switch {
	case strings.HasPrefix(name, TempPrefix) && typ.IsRegular():
		return isTemp
	case backupTarget(name) != "":
		return isBackup
	}
	return notLeftover
}

// Interrupted reports whether Recover has anything to do in the vault at
// root, from what a scan met (vault.ScanResult): the entries named with
// vault.WritePrefix in the folders it walked (marked), and the folders it
// did not walk (unwalked), which are walked here as Recover would (.git
// skipped). So a start that scans the vault anyway learns it without a
// second walk of the whole vault. Both lists hold paths on disk. An
// error reading the journal says true: Recover then reports it.
func Interrupted(root string, marked, unwalked []string) bool {
	if ok, err := exists(journalPath(root)); ok || err != nil {
		return true
	}
	for _, p := range marked {
		if fi, err := os.Lstat(p); err == nil && leftover(fi.Name(), fi.Mode().Type()) != notLeftover {
			return true
		}
	}
	for _, dir := range unwalked {
		if filepath.Base(dir) == ".git" {
			continue
		}
		// An unreadable folder holds nothing of ours, as for Recover.
		if temps, baks, err := findLeftovers(dir); err == nil && len(temps)+len(baks) > 0 {
			return true
		}
	}
	return false
}

// cleanLeftovers rolls back the leftovers under root that no journal
// names (see Recover). With keep, a backup whose file exists and is
// not the same file is kept under a "~" name instead of being removed.
func cleanLeftovers(root string, keep bool) ([]string, error) {
	temps, baks, err := findLeftovers(root)
	if err != nil {
		return nil, err
	}
	rel := relFunc(root)
	var done []string
	var errs []error
	note := func(err error, line string) {
		if err != nil {
			errs = append(errs, err)
		} else {
			done = append(done, line)
		}
	}
	for _, p := range temps {
		note(os.Remove(p), "removed temporary file "+rel(p))
	}
	sort.Strings(baks)
	for _, p := range baks {
		target := filepath.Join(filepath.Dir(p), backupTarget(filepath.Base(p)))
		ti, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			note(os.Rename(p, target), "restored "+rel(target)+" from backup "+rel(p))
		case err != nil:
			errs = append(errs, err)
		case keep && !sameFile(p, ti):
			name := filepath.Base(p)
			i := len(BackupPrefix) + 8 // the "-" after the hex digits
			kept := filepath.Join(filepath.Dir(p), name[:i]+"~"+name[i+1:])
			note(os.Rename(p, kept), "kept backup "+rel(kept)+": "+rel(target)+" has other content")
		default:
			note(os.Remove(p), "removed backup "+rel(p))
		}
	}
	return done, errors.Join(errs...)
}

// sameFile reports whether the file at p is the file fi describes.
func sameFile(p string, fi fs.FileInfo) bool {
	pi, err := os.Lstat(p)
	return err == nil && os.SameFile(pi, fi)
}
