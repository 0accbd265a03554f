package vault

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ListExcluded returns the notes and canvases a rename must rewrite
// although the user's filters exclude them: every .md and .canvas file
// in the excluded folders dirs (walked now, so that files added since
// the scan that found the folders are found too) and the excluded files
// that still exist, sorted by ID, each once. Dot-folders, dot-files and
// symlinks are skipped (Obsidian does not rewrite a dot-folder, and a
// symlink's target is a file of its own). Unreadable folders are
// skipped.
func ListExcluded(root string, dirs, files []string) []File {
	seen := map[string]bool{}
	var out []File
	add := func(rel, p string, fi fs.FileInfo) {
		if seen[rel] || Hidden(rel) || !fi.Mode().IsRegular() || (!HasMD(rel) && !IsCanvas(rel)) {
			return
		}
		seen[rel] = true
		out = append(out, File{ID: rel, Path: p, Size: fi.Size(), ModTime: fi.ModTime()})
	}
	for _, dir := range dirs {
		start := filepath.Join(root, filepath.FromSlash(dir))
		_ = filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable or gone: skipped
			}
			rel, rerr := filepath.Rel(root, p)
			if rerr != nil || !filepath.IsLocal(rel) {
				return nil
			}
			rel = NFC(filepath.ToSlash(rel))
			if d.IsDir() {
				if p != start && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			if fi, err := d.Info(); err == nil {
				add(rel, p, fi)
			}
			return nil
		})
	}
	for _, rel := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if fi, err := os.Lstat(p); err == nil {
			add(rel, p, fi)
		}
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.ID, b.ID) })
	return out
}
