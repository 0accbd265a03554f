package vaultgraph

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/vault"
)

// parsed is the outcome of reading and parsing one file.
type parsed struct {
	file vault.File
	note *vault.Note
	err  error
}

// load scans the vault, parses every note on all workers and replaces the
// engine's state in one step.
func (e *Engine) load(ctx context.Context) error {
	start := time.Now()
	ig, err := vault.LoadIgnore(e.root)
	if err != nil {
		e.log.Warn("ignore filters", "err", err)
	}
	scan, err := vault.Scan(e.root, ig)
	if err != nil {
		return err
	}
	results, err := e.parseAll(ctx, scan.Notes)
	if err != nil {
		return err
	}

	notes := make(map[string]*noteState, len(results))
	problems := map[string]vault.Problem{}
	for _, p := range scan.Problems {
		problems[p.Path] = p
	}
	index := vault.NewIndex()
	for _, a := range scan.Attachments {
		index.AddFile(a)
	}
	for _, r := range results {
		if r.err != nil {
			problems[r.file.ID] = vault.Problem{Path: r.file.ID, Reason: r.err.Error()}
			continue
		}
		notes[r.note.ID] = &noteState{note: r.note, path: r.file.Path}
		index.AddNote(r.note.ID)
	}
	refs := map[string]map[string]struct{}{}
	g := graph.New()
	g.Update(func(tx *graph.Tx) {
		for id, ns := range notes {
			tx.PutNode(id, ns.note.Tags)
		}
		for id, ns := range notes {
			resolveLinks(index, ns)
			addRefs(refs, ns)
			tx.SetOut(id, ns.resolved)
		}
	})

	e.mu.Lock()
	e.notes, e.index, e.graph, e.refs = notes, index, g, refs
	e.ignore, e.problems = ig, problems
	e.lastSync = time.Now()
	e.loadTime = time.Since(start)
	e.open = true
	e.mu.Unlock()
	e.log.Info("vault loaded", "notes", len(notes), "problems", len(problems), "took", e.loadTime.Round(time.Millisecond))
	return nil
}

// notePath returns the path on disk of the note id, or "".
func (e *Engine) notePath(id string) string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if ns, ok := e.notes[id]; ok {
		return ns.path
	}
	return ""
}

// parseAll reads and parses files on e.opts.Workers goroutines. The result
// keeps the order of files.
func (e *Engine) parseAll(ctx context.Context, files []vault.File) ([]parsed, error) {
	out := make([]parsed, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range e.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = e.parseFile(files[i])
			}
		}()
	}
	var err error
feed:
	for i := range files {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("parse vault: %w", err)
	}
	return out, nil
}

// parseFile reads and parses one note file.
func (e *Engine) parseFile(f vault.File) parsed {
	src, err := os.ReadFile(f.Path)
	if err != nil {
		return parsed{file: f, err: fmt.Errorf("unreadable: %w", err)}
	}
	n, err := e.parser.Parse(f.ID, src)
	if err != nil {
		return parsed{file: f, err: err}
	}
	n.ModTime = f.ModTime
	for _, w := range n.Warnings {
		e.log.Warn("note", "id", f.ID, "warning", w)
	}
	return parsed{file: f, note: n}
}

// resolveLinks resolves every link of ns against index.
func resolveLinks(index *vault.Index, ns *noteState) {
	links := ns.note.Links
	ns.resolved = make([]string, len(links))
	ns.status = make([]vault.Status, len(links))
	for i, l := range links {
		ns.resolved[i], ns.status[i] = index.Resolve(ns.note.ID, l)
	}
}

// refKey is the key under which a link is filed in Engine.refs: the folded
// base name of its target, without a ".md" extension in any letter case (as
// the resolver matches it). A link's resolution can only change when a note
// or file with that base name appears or goes.
func refKey(target string) string {
	return vault.Fold(vault.BaseName(strings.TrimSuffix(target, "/")))
}

func addRefs(refs map[string]map[string]struct{}, ns *noteState) {
	for _, l := range ns.note.Links {
		if l.IsSelf() {
			continue
		}
		k := refKey(l.Target)
		if refs[k] == nil {
			refs[k] = map[string]struct{}{}
		}
		refs[k][ns.note.ID] = struct{}{}
	}
}

func dropRefs(refs map[string]map[string]struct{}, ns *noteState) {
	for _, l := range ns.note.Links {
		k := refKey(l.Target)
		delete(refs[k], ns.note.ID)
		if len(refs[k]) == 0 {
			delete(refs, k)
		}
	}
}

// Sync brings the engine up to date with the given vault-relative paths
// (forward slashes), which were created, changed or deleted on disk: each
// is re-read or dropped, and only the notes whose links could resolve
// differently are resolved again. The graph changes in one step.
func (e *Engine) Sync(ctx context.Context, paths ...string) error {
	type change struct {
		rel  string
		res  parsed
		gone bool
		file bool // an attachment, not a note
	}
	var changes []change
	for _, given := range paths {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("sync: %w", err)
		}
		given = path.Clean(filepath.ToSlash(given))
		if given == "." || given == ".." || strings.HasPrefix(given, "../") || path.IsAbs(given) {
			continue // not a path inside the vault
		}
		rel := vault.NFC(given) // the ID; the disk may spell the name decomposed
		if e.ignore.Skip(rel, false) {
			continue
		}
		abs := filepath.Join(e.root, filepath.FromSlash(given))
		fi, err := os.Stat(abs)
		if errors.Is(err, fs.ErrNotExist) {
			// The caller gave the ID's spelling of a file the disk spells
			// otherwise: stat the file the note was read from.
			if known := e.notePath(rel); known != "" && known != abs {
				abs = known
				fi, err = os.Stat(abs)
			}
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, change{rel: rel, gone: true, file: !strings.HasSuffix(strings.ToLower(rel), ".md")})
			continue
		case err != nil:
			changes = append(changes, change{rel: rel, res: parsed{file: vault.File{ID: rel}, err: err}})
			continue
		case fi.IsDir() || !fi.Mode().IsRegular():
			continue
		}
		if !strings.HasSuffix(strings.ToLower(rel), ".md") {
			changes = append(changes, change{rel: rel, file: true})
			continue
		}
		f := vault.File{ID: rel, Path: abs, Size: fi.Size(), ModTime: fi.ModTime()}
		changes = append(changes, change{rel: rel, res: e.parseFile(f)})
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.open {
		return ErrClosed
	}
	touched := map[string]struct{}{} // notes whose links must be resolved again
	names := map[string]struct{}{}   // base names that appeared or went
	for _, c := range changes {
		_, existed := e.notes[c.rel]
		if c.file || c.gone || !existed || c.res.err != nil {
			names[refKey(c.rel)] = struct{}{}
		}
		if c.file {
			if c.gone {
				e.index.RemoveFile(c.rel)
			} else {
				e.index.AddFile(c.rel)
			}
			continue
		}
		if old, ok := e.notes[c.rel]; ok {
			dropRefs(e.refs, old)
			delete(e.notes, c.rel)
			e.index.RemoveNote(c.rel)
		}
		delete(e.problems, c.rel)
		if c.gone {
			continue
		}
		if c.res.err != nil {
			e.problems[c.rel] = vault.Problem{Path: c.rel, Reason: c.res.err.Error()}
			continue
		}
		e.notes[c.rel] = &noteState{note: c.res.note, path: c.res.file.Path}
		e.index.AddNote(c.rel)
		touched[c.rel] = struct{}{}
	}
	for name := range names {
		for id := range e.refs[name] {
			touched[id] = struct{}{}
		}
	}
	e.graph.Update(func(tx *graph.Tx) {
		for _, c := range changes {
			if _, ok := e.notes[c.rel]; !ok && !c.file {
				tx.Remove(c.rel)
			}
		}
		for id := range touched {
			if ns, ok := e.notes[id]; ok {
				tx.PutNode(id, ns.note.Tags)
			}
		}
		for id := range touched {
			ns, ok := e.notes[id]
			if !ok {
				continue
			}
			resolveLinks(e.index, ns)
			dropRefs(e.refs, ns)
			addRefs(e.refs, ns)
			tx.SetOut(id, ns.resolved)
		}
	})
	e.lastSync = time.Now()
	return nil
}
