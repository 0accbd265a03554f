package vaultgraph

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// CleanID checks a note ID given by a caller and returns it with forward
// slashes and NFC. IDs with "..", NUL bytes, absolute or drive paths are
// ErrOutsideVault; an empty ID is ErrInvalid.
func CleanID(raw string) (string, error) {
	id := strings.TrimSpace(raw)
	if id == "" {
		return "", fmt.Errorf("%w: empty id", ErrInvalid)
	}
	if strings.ContainsRune(id, 0) {
		return "", fmt.Errorf("%w: id %q contains a NUL byte", ErrOutsideVault, raw)
	}
	id = strings.ReplaceAll(id, `\`, "/")
	if absPath(id) {
		return "", fmt.Errorf("%w: id %q is an absolute path; give a path relative to the vault", ErrOutsideVault, raw)
	}
	if slices.Contains(strings.Split(id, "/"), "..") {
		return "", fmt.Errorf("%w: id %q contains '..'", ErrOutsideVault, raw)
	}
	id = strings.TrimPrefix(path.Clean(id), "./")
	return vault.NFC(id), nil
}

// absPath reports whether p, a path a caller gave, is absolute or names
// a drive ("/x", "\\x", "C:x"), on any system.
func absPath(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.IsAbs(p) || (len(p) >= 2 && p[1] == ':')
}

// syncPath reads a path given to Sync (caller holds e.mu for reading):
// its ID (NFC), its clean slash form as given and its file on disk. ok is
// false when the path is not inside the vault.
func (e *Engine) syncPath(given string) (rel, clean, abs string, ok bool) {
	clean = path.Clean(filepath.ToSlash(given))
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || path.IsAbs(clean) {
		return "", "", "", false
	}
	// The ID; the disk may spell the name decomposed.
	return vault.NFC(clean), clean, filepath.Join(e.root, filepath.FromSlash(clean)), true
}
