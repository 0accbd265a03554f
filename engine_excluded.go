package vaultgraph

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// excludedSet is what the engine knows of the files outside its graph
// whose links a rename still rewrites, as Obsidian does: the folders and
// the notes and canvases that the user's filters (userIgnoreFilters)
// exclude. Full scans replace it; Sync adds and drops the paths it is
// given. The folders are walked again at each rename (ListExcluded), so a
// note added to an excluded folder is found even though the watcher does
// not follow excluded folders.
type excludedSet struct {
	dirs, files map[string]struct{}
}

// add records excluded folders and files.
func (s *excludedSet) add(dirs, files []string) {
	if s.dirs == nil {
		s.dirs, s.files = map[string]struct{}{}, map[string]struct{}{}
	}
	for _, d := range dirs {
		s.dirs[d] = struct{}{}
	}
	for _, f := range files {
		s.files[f] = struct{}{}
	}
}

// forget drops rel and everything below it.
func (s *excludedSet) forget(rel string) {
	for _, m := range []map[string]struct{}{s.dirs, s.files} {
		for p := range m {
			if p == rel || strings.HasPrefix(p, rel+"/") {
				delete(m, p)
			}
		}
	}
}

// applyExcluded brings the engine's excluded set up to date with d
// (caller holds e.mu): a full scan's set replaces it; otherwise paths are
// added and dropped, once a full scan has made the set.
func (e *Engine) applyExcluded(d diff, full bool) {
	if full {
		set := d.exclAdd
		e.excluded = &set
		return
	}
	if e.excluded == nil {
		return // learnExcluded makes it when a write needs it
	}
	for _, rel := range d.exclGone {
		e.excluded.forget(rel)
	}
	e.excluded.add(slices.Collect(maps.Keys(d.exclAdd.dirs)), slices.Collect(maps.Keys(d.exclAdd.files)))
}

// learnExcluded makes the excluded set with a scan of the vault when no
// full scan made it (an engine that trusted its index on Open). Caller
// holds e.writeMu.
func (e *Engine) learnExcluded() error {
	e.mu.RLock()
	known, root, ig := e.excluded != nil, e.root, e.ignore
	e.mu.RUnlock()
	if known {
		return nil
	}
	scan, err := vault.Scan(root, ig)
	if err != nil {
		return err
	}
	set := &excludedSet{}
	set.add(scan.ExcludedDirs, scan.ExcludedFiles)
	e.mu.Lock()
	if e.excluded == nil {
		e.excluded = set
	}
	e.mu.Unlock()
	return nil
}

// outsideFiles lists the files beyond the graph's notes that a rename
// must read (caller holds e.mu): every canvas the index knows (among the
// attachments) and the excluded notes and canvases, sorted by ID.
func (e *Engine) outsideFiles() []vault.File {
	var out []vault.File
	for _, p := range e.index.Files() {
		if vault.IsCanvas(p) {
			out = append(out, vault.File{ID: p, Path: filepath.Join(e.root, filepath.FromSlash(p))})
		}
	}
	var dirs, files []string
	if e.excluded != nil {
		dirs, files = slices.Sorted(maps.Keys(e.excluded.dirs)), slices.Sorted(maps.Keys(e.excluded.files))
	}
	// A folder a filter names that was made since the last scan.
	for _, d := range e.ignore.FilterFolders() {
		if fi, err := os.Stat(filepath.Join(e.root, filepath.FromSlash(d))); err == nil && fi.IsDir() &&
			!vault.Hidden(d) && e.ignore.Filtered(d, true) && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	out = append(out, vault.ListExcluded(e.root, dirs, files)...)
	slices.SortFunc(out, func(a, b vault.File) int { return strings.Compare(a.ID, b.ID) })
	return slices.CompactFunc(out, func(a, b vault.File) bool { return a.ID == b.ID })
}

// excludedRefs remembers, per excluded note, the names its links target
// (refKey, as Engine.refs files the graph's notes), with the size and
// modification time of the bytes they were read from: so that a rename
// parses again only the excluded notes that changed or may link the note,
// not a large excluded archive each time. Safe for concurrent use.
type excludedRefs struct {
	mu     sync.Mutex
	m      map[string]excludedRef
	parses int // notes parsed to learn their links (for tests)
}

type excludedRef struct {
	size int64
	mod  time.Time
	keys map[string]struct{}
}

// mayLink reports whether the excluded note f may have a link filed under
// one of keys: true when it does, or when its file changed since it was
// last read (or cannot be read). It parses the note when it must.
func (x *excludedRefs) mayLink(p *vault.Parser, f vault.File, keys ...string) bool {
	x.mu.Lock()
	r, ok := x.m[f.ID]
	x.mu.Unlock()
	if !ok || r.size != f.Size || !r.mod.Equal(f.ModTime) || f.ModTime.IsZero() {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return true // the caller reads it again and reports
		}
		n, err := p.Parse(f.ID, data)
		if err != nil {
			return true
		}
		r = excludedRef{size: f.Size, mod: f.ModTime, keys: map[string]struct{}{}}
		for _, l := range n.Links {
			r.keys[refKey(l.Target)] = struct{}{}
		}
		x.mu.Lock()
		if x.m == nil {
			x.m = map[string]excludedRef{}
		}
		x.m[f.ID] = r
		x.parses++
		x.mu.Unlock()
	}
	return slices.ContainsFunc(keys, func(k string) bool { _, ok := r.keys[k]; return ok })
}
