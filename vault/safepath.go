package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrUnsafePath is a vault-relative path that is refused because it could
// leave the vault or cannot be written portably: empty, absolute, "..",
// backslashes, NUL bytes, Windows reserved names, names ending in a dot or
// a space, names over 255 bytes, or a symlink that leads out of the vault.
var ErrUnsafePath = errors.New("unsafe path")

// MaxNameBytes is the longest file or folder name most file systems allow.
const MaxNameBytes = 255

// MaxPathBytes is the longest vault-relative path a write accepts: with
// the vault's own folder in front it stays under the path limits of
// macOS (1,024) and Linux (4,096).
const MaxPathBytes = 1024

// SafePath returns the absolute OS path of the vault-relative path rel
// (forward slashes) inside the vault folder root, or an error wrapping
// ErrUnsafePath when rel is refused (see ErrUnsafePath). The file need not
// exist: the deepest part of the path that does exist is resolved through
// its symlinks, and that real location must be inside the real root. The
// returned path is root joined with rel, not the resolved one.
//
// The check and a later write are not one atomic step: a symlink created
// in between is not seen.
func SafePath(root, rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("path %q: %w: empty", rel, ErrUnsafePath)
	}
	return safeJoin(root, rel)
}

// SafeDir is SafePath for a folder: rel "" is the vault root itself, and a
// trailing slash is allowed.
func SafeDir(root, rel string) (string, error) {
	if len(rel) > 1 {
		rel = strings.TrimSuffix(rel, "/")
	}
	return safeJoin(root, rel)
}

func safeJoin(root, rel string) (string, error) {
	if err := checkRelPath(rel); err != nil {
		return "", fmt.Errorf("path %q: %w: %s", rel, ErrUnsafePath, err)
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("vault root %s: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(absRoot)
	if err != nil {
		return "", fmt.Errorf("vault root: %w", err)
	}
	full := absRoot
	if rel != "" {
		full = filepath.Join(absRoot, filepath.FromSlash(rel))
	}
	real, err := realAncestor(absRoot, full)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", rel, err)
	}
	if !insideDir(realRoot, real) {
		return "", fmt.Errorf("path %q: %w: it leads outside the vault (to %s)", rel, ErrUnsafePath, real)
	}
	return full, nil
}

// checkRelPath applies the lexical rules of SafePath to a non-empty rel;
// "" passes (the root).
func checkRelPath(rel string) error {
	if strings.IndexByte(rel, 0) >= 0 {
		return errors.New("NUL byte")
	}
	if strings.IndexByte(rel, '\\') >= 0 {
		return errors.New(`backslash (use "/" between folders)`)
	}
	if strings.HasPrefix(rel, "/") || hasDriveLetter(rel) {
		return errors.New("absolute path; give a path relative to the vault")
	}
	if rel == "" {
		return nil
	}
	if len(rel) > MaxPathBytes {
		return fmt.Errorf("path of %d bytes, over %d", len(rel), MaxPathBytes)
	}
	for _, seg := range strings.Split(rel, "/") {
		if err := checkName(seg); err != nil {
			return err
		}
	}
	return nil
}

// checkName applies the rules for one file or folder name.
func checkName(seg string) error {
	switch {
	case seg == "":
		return errors.New("empty folder name (double or trailing slash)")
	case seg == "..":
		return errors.New(`".." leaves the folder`)
	case seg == ".":
		return errors.New(`"." is not a name`)
	case len(seg) > MaxNameBytes:
		return fmt.Errorf("name of %d bytes, over %d", len(seg), MaxNameBytes)
	case strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, " "):
		return fmt.Errorf("name %q ends in a dot or a space", seg)
	case isReservedName(seg):
		return fmt.Errorf("name %q is reserved on Windows", seg)
	case runtime.GOOS == "windows" && strings.IndexByte(seg, ':') >= 0:
		return fmt.Errorf("name %q holds ':' (a Windows stream)", seg)
	}
	return nil
}

// hasDriveLetter reports whether p starts with a Windows drive ("C:").
func hasDriveLetter(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0]
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// windowsReserved are the device names Windows refuses as file names, with
// any extension.
var windowsReserved = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true,
	"COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"COM¹": true, "COM²": true, "COM³": true,
	"LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true,
	"LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"LPT¹": true, "LPT²": true, "LPT³": true,
}

// isReservedName reports whether name is a Windows device name such as
// "con", "NUL.md" or "com1.tar.gz": the part before the first dot, without
// trailing spaces, in any letter case.
func isReservedName(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.TrimRight(stem, " ")
	if len(stem) < 3 || len(stem) > 8 {
		return false
	}
	return windowsReserved[strings.ToUpper(stem)]
}

// realAncestor resolves the symlinks of the deepest existing path among
// full and its parents up to root, and returns that real path. A symlink
// that points nowhere is refused: where a write through it would land
// cannot be checked.
func realAncestor(root, full string) (string, error) {
	p := full
	for {
		if _, err := os.Lstat(p); err == nil {
			real, err := filepath.EvalSymlinks(p)
			if errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("%w: %s is a broken symlink", ErrUnsafePath, p)
			}
			if err != nil {
				return "", err
			}
			return real, nil
		}
		if p == root || len(p) <= len(root) {
			// root exists (EvalSymlinks succeeded on it); only a race gets here.
			return filepath.EvalSymlinks(root)
		}
		p = filepath.Dir(p)
	}
}

// insideDir reports whether path p is dir or inside it; both are clean
// absolute paths.
func insideDir(dir, p string) bool {
	eq := func(a, b string) bool { return a == b }
	if runtime.GOOS == "windows" {
		eq = strings.EqualFold
	}
	if eq(dir, p) {
		return true
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return len(p) > len(prefix) && eq(p[:len(prefix)], prefix)
}
