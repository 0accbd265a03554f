package commit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// ErrChanged means a file of a commit is no longer what its Op
// expects (CheckOld, IfAbsent): someone changed it after the caller read
// it. Nothing was changed; read the file again and retry.
var ErrChanged = errors.New("changed on disk")

// ChangedError is the error of a commit refused because of a file that
// is not what its Op expects; it wraps ErrChanged.
type ChangedError struct {
	// Path is the Op's Path, as given.
	Path string
	// Exists is set for an IfAbsent op whose path is now taken.
	Exists bool
}

// Error says which file changed.
func (e *ChangedError) Error() string {
	if e.Exists {
		return fmt.Sprintf("%s: %v: it exists now", e.Path, ErrChanged)
	}
	return fmt.Sprintf("%s: %v since it was read", e.Path, ErrChanged)
}

// Unwrap returns ErrChanged.
func (e *ChangedError) Unwrap() error { return ErrChanged }

// followLinks points every write whose path is a symlink at the file the
// symlink leads to (see Apply), so that the new version goes there and
// the symlink stays. Two ops that then name the same file are one op
// when they are the same write, else an error.
func (c *txn) followLinks() error {
	realRoot := ""
	if c.root != "" {
		r, err := filepath.EvalSymlinks(c.root)
		if err != nil {
			return fmt.Errorf("vault root: %w", err)
		}
		realRoot = r
	}
	changed := false
	for i := range c.ops {
		op := &c.ops[i]
		if op.Remove || op.IfAbsent {
			continue
		}
		fi, err := os.Lstat(op.Path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			continue // a missing file is made; other errors come up when writing
		}
		real, err := filepath.EvalSymlinks(op.Path)
		if err != nil {
			return fmt.Errorf("write %s: follow the symlink: %w", op.Path, err)
		}
		if realRoot != "" {
			rel, err := filepath.Rel(realRoot, real)
			if err != nil || !filepath.IsLocal(rel) {
				return fmt.Errorf("write %s: %w: the symlink leads outside the vault (to %s)", op.Path, vault.ErrUnsafePath, real)
			}
			if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); strings.EqualFold(first, vault.StateDir) {
				return fmt.Errorf("write %s: %w: the symlink leads into %s", op.Path, vault.ErrUnsafePath, vault.StateDir)
			}
			real = filepath.Join(c.root, rel)
		}
		op.Path, changed = real, true
	}
	if !changed {
		return nil
	}
	seen := make(map[string]int, len(c.ops))
	kept := c.ops[:0]
	for _, op := range c.ops {
		p := filepath.Clean(op.Path)
		if j, ok := seen[p]; ok {
			o := kept[j]
			if !op.Remove && !o.Remove && string(op.Data) == string(o.Data) &&
				op.CheckOld == o.CheckOld && string(op.Old) == string(o.Old) && op.IfAbsent == o.IfAbsent {
				continue // the same write, through a symlink and directly
			}
			return fmt.Errorf("%w: %s and %s are the same file (through a symlink), with different changes: replace the symlink with a link, or write the notes one at a time", vault.ErrUnsafePath, o.given, op.given)
		}
		seen[p] = len(kept)
		kept = append(kept, op)
	}
	c.ops = kept
	return nil
}

// verify checks the file of op at p against what op expects (CheckOld,
// IfAbsent); a mismatch is a *ChangedError. For IfAbsent, a file that is
// one the commit removes first (another spelling on a case-insensitive
// disk) does not count.
func (c *txn) verify(op *opState, p string) error {
	switch {
	case op.IfAbsent:
		_, err := os.Lstat(p)
		if err == nil {
			if c.aliasOfRemoved(p) {
				return nil
			}
			return &ChangedError{Path: op.given, Exists: true}
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("check %s: %w", op.given, err)
		}
	case op.CheckOld:
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return &ChangedError{Path: op.given}
		}
		if err != nil {
			return fmt.Errorf("check %s: %w", op.given, err)
		}
		if !bytes.Equal(data, op.Old) {
			return &ChangedError{Path: op.given}
		}
	}
	return nil
}

// checkAll verifies every op's file (see verify).
func (c *txn) checkAll() error {
	for i := range c.ops {
		if err := c.verify(&c.ops[i], c.ops[i].Path); err != nil {
			return err
		}
	}
	return nil
}

// aliasOfRemoved reports whether path is the same file as one of the
// paths the commit removes (another spelling on a case-insensitive disk).
func (c *txn) aliasOfRemoved(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	for _, op := range c.ops {
		if op.Remove {
			if gi, err := os.Lstat(op.Path); err == nil && os.SameFile(fi, gi) {
				return true
			}
		}
	}
	return false
}

// sameContent reports whether the file at p holds exactly data.
func sameContent(p string, data []byte) bool {
	b, err := os.ReadFile(p)
	return err == nil && bytes.Equal(b, data)
}
