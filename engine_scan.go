package vaultgraph

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// diff compares a scan with the engine's notes: the files to parse, the
// note IDs gone, the attachments added and removed.
type diff struct {
	parse        []vault.File
	gone         []string
	addFiles     []string
	removeFiles  []string
	goneProblems []string
	scanProblems []vault.Problem
	unchanged    int
	// exclAdd are user-excluded folders and files found (a full scan's
	// replace the engine's set); exclGone are excluded paths now gone.
	exclAdd  excludedSet
	exclGone []string
	// oldHash holds the indexed content hash of files in parse that are
	// known notes, so that a file whose bytes did not change is not parsed.
	oldHash map[string]string
}

// changes reports whether d changes anything in the engine.
func (d *diff) changes() bool {
	return len(d.parse) > 0 || len(d.gone) > 0 || len(d.addFiles) > 0 || len(d.removeFiles) > 0
}

// addParse schedules f for parsing, remembering the hash of the note it
// replaces (if any).
func (d *diff) addParse(f vault.File, old *noteState) {
	d.parse = append(d.parse, f)
	if old != nil {
		if d.oldHash == nil {
			d.oldHash = map[string]string{}
		}
		d.oldHash[f.ID] = old.note.Hash
	}
}

// scanDiff scans the whole vault and compares it with the engine: the
// changes a full pass (Open, Rescan) applies.
func (e *Engine) scanDiff() (diff, error) {
	e.mu.RLock()
	root, ig := e.root, e.ignore
	e.mu.RUnlock()
	scan, err := vault.Scan(root, ig)
	if err != nil {
		return diff{}, err
	}
	return e.diffScan(scan), nil
}

// diffScan compares a scan of the whole vault with the engine's notes.
func (e *Engine) diffScan(scan vault.ScanResult) diff {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.diffScanLocked(scan, "")
}

// diffScanLocked is diffScan for a scan of the folder prefix ("" for the
// whole vault, else ending in "/"); the caller holds e.mu.
func (e *Engine) diffScanLocked(scan vault.ScanResult, prefix string) diff {
	d := diff{scanProblems: scan.Problems}
	d.exclAdd.add(scan.ExcludedDirs, scan.ExcludedFiles)
	// The notes scanned are marked (e.scanMark, under e.syncMu: no
	// reader looks at it), not kept in a set of every ID; the other
	// files found are.
	e.scanMark++
	mark := e.scanMark
	others := map[string]bool{}
	for _, f := range scan.Notes {
		ns, ok := e.notes[f.ID]
		if !ok {
			others[f.ID] = true
		} else {
			ns.scanned = mark
		}
		if ok && !e.reparseAll && ns.note.Size == f.Size && ns.note.ModTime.Equal(f.ModTime) {
			d.unchanged++
			continue
		}
		d.addParse(f, ns)
	}
	for id, ns := range e.notes {
		if ns.scanned != mark && strings.HasPrefix(id, prefix) {
			d.gone = append(d.gone, id)
		}
	}
	// Files that failed to parse are not notes, so they are tried again
	// (above); drop the problems of those that are gone.
	for p := range e.noteProblems {
		ns := e.notes[p]
		if !others[p] && (ns == nil || ns.scanned != mark) && strings.HasPrefix(p, prefix) {
			d.goneProblems = append(d.goneProblems, p)
		}
	}
	files := make(map[string]bool, len(scan.Attachments))
	for _, a := range scan.Attachments {
		files[a] = true
		if !e.index.HasFile(a) {
			d.addFiles = append(d.addFiles, a)
		}
	}
	for _, a := range e.index.Files() {
		if !files[a] && strings.HasPrefix(a, prefix) {
			d.removeFiles = append(d.removeFiles, a)
		}
	}
	return d
}

// expand adds to d what one changed path means (caller holds e.mu for
// reading): a file to parse, a note or attachment gone, or for a folder,
// everything below it.
func (e *Engine) expand(given string, d *diff) {
	rel, clean, abs, ok := e.syncPath(given)
	if !ok {
		return
	}
	if e.ignore.Skip(rel, false) {
		e.expandExcluded(rel, abs, d)
		return
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		if ns, ok := e.notes[rel]; ok && ns.path != abs {
			abs = ns.path // known under another Unicode spelling on disk
			fi, err = os.Stat(abs)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.expandGone(rel, d)
	case err != nil:
		if vault.HasMD(rel) {
			d.parse = append(d.parse, vault.File{ID: rel, Path: abs})
		}
	case fi.IsDir():
		e.expandDir(rel, clean, d)
	case !fi.Mode().IsRegular():
	case vault.HasMD(rel):
		ns, ok := e.notes[rel]
		if ok && ns.note.Size == fi.Size() && ns.note.ModTime.Equal(fi.ModTime()) {
			return // unchanged, e.g. the echo of our own write
		}
		d.addParse(vault.File{ID: rel, Path: abs, Size: fi.Size(), ModTime: fi.ModTime()}, ns)
	default:
		if !e.index.HasFile(rel) {
			d.addFiles = append(d.addFiles, rel)
		}
	}
}

// expandGone records that rel, a file or a whole folder, is no longer on
// disk.
func (e *Engine) expandGone(rel string, d *diff) {
	d.exclGone = append(d.exclGone, rel)
	if _, ok := e.notes[rel]; ok {
		d.gone = append(d.gone, rel)
	}
	if e.index.HasFile(rel) {
		d.removeFiles = append(d.removeFiles, rel)
	}
	if _, ok := e.noteProblems[rel]; ok {
		d.goneProblems = append(d.goneProblems, rel)
	}
	d.merge(e.diffScanLocked(vault.ScanResult{}, rel+"/")) // all it held
}

// expandExcluded records in d what became of rel, a path the ignore
// rules skip (caller holds e.mu for reading): an excluded folder, note or
// canvas now on disk, or gone.
func (e *Engine) expandExcluded(rel, abs string, d *diff) {
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.exclGone = append(d.exclGone, rel)
	case err != nil, vault.Hidden(rel):
	case fi.IsDir() && e.ignore.Filtered(rel, true):
		d.exclAdd.add([]string{rel}, nil)
	case fi.Mode().IsRegular() && e.ignore.Filtered(rel, false) && (vault.HasMD(rel) || vault.IsCanvas(rel)):
		d.exclAdd.add(nil, []string{rel})
	}
}

// expandDir records everything in the folder rel (spelled disk on disk):
// new and changed notes, new attachments, and what the engine knows below
// rel that is gone.
func (e *Engine) expandDir(rel, disk string, d *diff) {
	scan, err := vault.ScanUnder(e.root, disk, e.ignore)
	if err != nil {
		e.log.Warn("sync folder", "path", rel, "err", err)
		return
	}
	d.merge(e.diffScanLocked(scan, rel+"/"))
}

// merge adds to d the changes of sub, the diff of a folder.
func (d *diff) merge(sub diff) {
	d.parse = append(d.parse, sub.parse...)
	if len(sub.oldHash) > 0 && d.oldHash == nil {
		d.oldHash = map[string]string{}
	}
	maps.Copy(d.oldHash, sub.oldHash)
	d.gone = append(d.gone, sub.gone...)
	d.goneProblems = append(d.goneProblems, sub.goneProblems...)
	d.addFiles = append(d.addFiles, sub.addFiles...)
	d.removeFiles = append(d.removeFiles, sub.removeFiles...)
	d.exclAdd.add(slices.Collect(maps.Keys(sub.exclAdd.dirs)), slices.Collect(maps.Keys(sub.exclAdd.files)))
}

// uniqueFiles drops the repeats of a file, keeping the first: a folder and
// the files in it can both be given to Sync (the watcher reports a new
// folder and what it found inside).
func uniqueFiles(files []vault.File) []vault.File {
	seen := make(map[string]bool, len(files))
	return slices.DeleteFunc(files, func(f vault.File) bool {
		if seen[f.ID] {
			return true
		}
		seen[f.ID] = true
		return false
	})
}
