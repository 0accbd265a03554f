package vault

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// File is one markdown file found by Scan.
type File struct {
	// ID is the note ID: vault-relative, forward slashes, NFC.
	ID string
	// Path is the file's path on disk (as the OS spells it).
	Path    string
	Size    int64
	ModTime time.Time
}

// Problem is a file or folder that could not be indexed, and why.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// ScanResult is what Scan found.
type ScanResult struct {
	Notes       []File    // markdown notes, in walk order
	Attachments []string  // vault paths of other files
	Problems    []Problem // unreadable folders, broken symlinks, ...
	// ExcludedDirs and ExcludedFiles are the folders, and the notes and
	// canvases outside them, that the user's filters exclude
	// (Ignore.Filtered): not walked, not notes, but a rename must still
	// rewrite their links (see ListExcluded).
	ExcludedDirs  []string
	ExcludedFiles []string
	// Marked are the entries met whose names start with WritePrefix, and
	// Unwalked the folders not walked (dot-folders and excluded ones),
	// as paths on disk: together, where an interrupted write may have
	// left files (commit.Interrupted).
	Marked   []string
	Unwalked []string
}

// Scan walks the vault at root and lists its notes and attachments,
// skipping what ig ignores. Symlinked files are followed when their target
// stays inside the vault; symlinked folders are not followed (they would
// repeat notes or leave the vault) and are reported. Scan fails only when
// root itself cannot be read.
func Scan(root string, ig *Ignore) (ScanResult, error) {
	return ScanUnder(root, "", ig)
}

// relFunc returns the function that gives a walked path's vault path
// (NFC, slashes) under realRoot, and false for one outside it.
func relFunc(realRoot string) func(string) (string, bool) {
	prefix := realRoot + string(filepath.Separator)
	return func(p string) (string, bool) {
		// The walk joins (and so cleans) every path from its start, under
		// realRoot (clean: EvalSymlinks): what follows the prefix is what
		// filepath.Rel would give.
		if rest, ok := strings.CutPrefix(p, prefix); ok && rest != "" {
			return NFC(filepath.ToSlash(rest)), true
		}
		rel, err := filepath.Rel(realRoot, p)
		return NFC(filepath.ToSlash(rel)), err == nil
	}
}

// ScanUnder is Scan limited to the folder sub of the vault (a
// vault-relative path; "" is the whole vault). IDs stay relative to root.
func ScanUnder(root, sub string, ig *Ignore) (ScanResult, error) {
	var res ScanResult
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return res, fmt.Errorf("open vault: %w", err)
	}
	info, err := os.Stat(realRoot)
	if err != nil {
		return res, fmt.Errorf("open vault: %w", err)
	}
	if !info.IsDir() {
		return res, fmt.Errorf("open vault %s: not a folder", root)
	}
	start := filepath.Join(realRoot, filepath.FromSlash(sub))
	relOf := relFunc(realRoot)
	descend := func(dir string) bool {
		rel, ok := relOf(dir)
		return ok && !ig.Skip(rel, true)
	}
	err = walkAhead(start, func(p string, d fs.DirEntry, walkErr error) error {
		rel, ok := relOf(p)
		if !ok {
			return nil
		}
		if walkErr != nil {
			if rel == "." {
				return walkErr
			}
			res.Problems = append(res.Problems, Problem{Path: rel, Reason: walkErr.Error()})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), WritePrefix) {
			res.Marked = append(res.Marked, p)
		}
		if ig.Skip(rel, d.IsDir()) {
			res.excluded(ig, rel, d.IsDir())
			if d.IsDir() {
				res.Unwalked = append(res.Unwalked, p)
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
		case d.Type()&fs.ModeSymlink != 0:
			res.symlink(realRoot, p, rel)
		case d.Type().IsRegular():
			res.file(rel, p, d)
		}
		return nil
	}, descend, HasMD)
	if err != nil {
		return res, fmt.Errorf("scan vault: %w", err)
	}
	return res, nil
}

// file records the regular file rel (at p): a note with its metadata,
// taken when its folder was read; any other file needs none.
func (res *ScanResult) file(rel, p string, d fs.DirEntry) {
	if !HasMD(rel) {
		res.Attachments = append(res.Attachments, rel)
		return
	}
	fi, err := d.Info()
	if err != nil {
		res.Problems = append(res.Problems, Problem{Path: rel, Reason: err.Error()})
		return
	}
	res.add(rel, p, fi)
}

func (res *ScanResult) add(rel, p string, fi fs.FileInfo) {
	if HasMD(rel) {
		if len(res.Notes) == cap(res.Notes) {
			// Doubled: append grows a long slice by a quarter, which
			// writes about five times its final size in all.
			res.Notes = slices.Grow(res.Notes, max(len(res.Notes), 64))
		}
		res.Notes = append(res.Notes, File{ID: rel, Path: p, Size: fi.Size(), ModTime: fi.ModTime()})
		return
	}
	res.Attachments = append(res.Attachments, rel)
}

// excluded records rel, skipped by ig, when the user's filters exclude
// it (not a dot-path) and it is a folder, a note or a canvas.
func (res *ScanResult) excluded(ig *Ignore, rel string, isDir bool) {
	switch {
	case Hidden(rel) || !ig.Filtered(rel, isDir):
	case isDir:
		res.ExcludedDirs = append(res.ExcludedDirs, rel)
	case HasMD(rel) || IsCanvas(rel):
		res.ExcludedFiles = append(res.ExcludedFiles, rel)
	}
}

// symlink follows a symlinked file if it stays in the vault.
func (res *ScanResult) symlink(realRoot, p, rel string) {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		res.Problems = append(res.Problems, Problem{Path: rel, Reason: fmt.Sprintf("broken symlink: %v", err)})
		return
	}
	if !Within(realRoot, target) {
		res.Problems = append(res.Problems, Problem{Path: rel, Reason: "symlink leaves the vault, not followed"})
		return
	}
	fi, err := os.Stat(target)
	if err != nil {
		res.Problems = append(res.Problems, Problem{Path: rel, Reason: err.Error()})
		return
	}
	if fi.IsDir() {
		res.Problems = append(res.Problems, Problem{Path: rel, Reason: "symlinked folder not followed (its notes would be indexed twice)"})
		return
	}
	if fi.Mode().IsRegular() {
		res.add(rel, p, fi)
	}
}

// Within reports whether path p is root or inside it. Both must be
// absolute or both relative, already cleaned of symlinks by the caller.
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}
