package vaultgraph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// UpdateNode changes a note: its body, tags and properties, and with a
// new title or directory its file name and folder. A rename or move
// rewrites every link to the note in every other note (wikilinks, embeds,
// markdown links, frontmatter links), using the byte ranges the parser
// recorded, so no other byte of those files changes; the moved note's own
// relative links are fixed too. All files are written, or none.
func (e *Engine) UpdateNode(ctx context.Context, u NoteUpdate) (*WriteResult, error) {
	if err := e.writable(); err != nil {
		return nil, err
	}
	if u.RenameHeading != nil {
		return e.renameHeading(ctx, u)
	}
	if u.Title == nil && u.Directory == nil && u.Content == nil && u.Tags == nil && len(u.Properties) == 0 {
		return nil, fmt.Errorf("%w: nothing to change: give title, directory, content, tags, properties or renameHeading", ErrInvalid)
	}
	if u.Title != nil {
		if err := checkTitle(*u.Title); err != nil {
			return nil, err
		}
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	id, warnings, err := e.find(u.ID)
	if err != nil {
		return nil, err
	}
	src, abs, err := e.current(id, u.IfMatch)
	if errors.Is(err, ErrNotFound) {
		if err := e.Sync(ctx, id); err != nil { // gone from disk: forget it now
			e.log.Warn("sync a note gone from disk", "id", id, "err", err)
		}
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", id, err)
	}

	// The note's own new bytes.
	props := slices.Clone(u.Properties)
	newID, newAbs := id, abs
	if u.Title != nil || u.Directory != nil {
		title, dir := vault.BaseName(id), vault.Dir(id)
		if u.Title != nil {
			title = strings.TrimSpace(*u.Title)
		}
		if u.Directory != nil {
			dir = *u.Directory
		}
		if newID, newAbs, err = e.notePath(dir, title); err != nil {
			return nil, err
		}
		if u.Title != nil && (vault.BaseName(newID) != title || e.hasTitleProperty(id)) {
			props = append(props, vault.Property{Key: "title", Value: title})
		}
		if newID != id && e.exists(newID, id) {
			return nil, fmt.Errorf("%w: %s already exists: choose another title or folder", ErrExists, newID)
		}
		if newID != id && !strings.EqualFold(newAbs, abs) {
			if _, err := os.Lstat(newAbs); err == nil {
				return nil, fmt.Errorf("%w: %s already exists on disk: choose another title or folder", ErrExists, newID)
			}
		}
	}
	out, textWarnings, err := noteText(id, src, u.Content, u.Tags, props)
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, textWarnings...)
	if u.Tags != nil {
		warnings = append(warnings, e.inlineTagWarnings(id, out, *u.Tags)...)
	}

	if newID != id {
		if err := e.learnExcluded(); err != nil {
			return nil, fmt.Errorf("update %s: %w", id, err)
		}
	}
	plan, err := e.planRename(id, newID, out)
	if err != nil {
		return nil, err
	}
	res := &WriteResult{Warnings: append(warnings, plan.warnings...), Files: []FileChange{}}
	if u.Content != nil {
		res.Warnings = append(res.Warnings, e.lostAnchors(id, src, plan.self)...)
	}
	self := FileChange{Path: newID, Action: ActionUpdate, Links: plan.selfLinks}
	if newID != id {
		self.Action, self.From = ActionMove, id
	}
	if newID != id || !bytes.Equal(plan.self, src) {
		res.Files = append(res.Files, self)
	}
	res.Files = append(res.Files, plan.changes...)
	if u.DryRun {
		res.DryRun = true
		return res, nil
	}

	// Every op says what its file held when it was read (or that the
	// new path is free): vault.Commit checks that under the vault's
	// write lock, so an edit made meanwhile, by a user or by another
	// process, is CONFLICT rather than overwritten.
	var ops []vault.FileOp
	caseOnly := newID != id && strings.EqualFold(newAbs, abs)
	switch {
	case newID != id && !caseOnly:
		ops = append(ops, vault.FileOp{Path: newAbs, Data: plan.self, Perm: fi.Mode().Perm(), IfAbsent: true},
			vault.FileOp{Path: abs, Remove: true, CheckOld: true, Old: src})
	case !bytes.Equal(plan.self, src):
		ops = append(ops, vault.FileOp{Path: abs, Data: plan.self, CheckOld: true, Old: src})
	}
	ops = append(ops, plan.ops...)
	if len(ops) > 0 {
		during := "update"
		switch {
		case u.Title != nil && newID != id:
			during = "rename"
		case newID != id:
			during = "move"
		}
		if err := vault.Commit(ops, e.commitOpts); err != nil {
			return nil, e.commitErr(err, "update "+id, during)
		}
	}
	if caseOnly {
		// Same file on a case-insensitive disk: only its name's case changes.
		if err := os.Rename(abs, newAbs); err != nil {
			return nil, fmt.Errorf("rename %s to %s: %w", id, newID, err)
		}
	}
	paths := []string{id, newID}
	for _, c := range plan.changes {
		paths = append(paths, c.Path)
	}
	paths = append(paths, e.linkTargets(ops)...)
	return e.afterWrite(ctx, newID, paths, res)
}

// hasTitleProperty reports whether a note's title comes from its
// frontmatter.
func (e *Engine) hasTitleProperty(id string) bool {
	e.mu.RLock()
	defer e.mu.RUnlock()
	ns, ok := e.notes[id]
	if !ok {
		return false
	}
	_, has := ns.note.Property("title")
	return has
}

// renamePlan is every file a rename or move changes.
type renamePlan struct {
	self      []byte // the note's new bytes, links fixed
	selfLinks []LinkChange
	ops       []vault.FileOp // the other notes' new versions
	changes   []FileChange
	warnings  []string
}

// planRename works out the new bytes of the note (self, already with its
// other edits) moving from oldID to newID, and of every note whose links
// would otherwise resolve differently after the move. Each file is parsed
// again from disk, so the byte ranges are those of the bytes rewritten.
func (e *Engine) planRename(oldID, newID string, self []byte) (*renamePlan, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	oldIdx, newIdx := e.index, e.index
	if newID != oldID {
		newIdx = e.index.Clone()
		newIdx.RemoveNote(oldID)
		newIdx.AddNote(newID)
	}
	mapID := func(id string) string {
		if id == oldID {
			return newID
		}
		return id
	}
	plan := &renamePlan{}

	// The note itself: its links are meant as they resolve from where it is.
	// ParseForRewrite gives reference-style links their definition's range.
	n, err := e.parser.ParseForRewrite(oldID, self)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", oldID, err)
	}
	edits, changes, err := retargetAll(self, n.Links, oldIdx, newIdx, oldID, newID, mapID)
	if err != nil {
		return nil, err
	}
	if plan.self, err = vault.ApplyEdits(self, edits); err != nil {
		return nil, fmt.Errorf("rewrite links of %s: %w", oldID, err)
	}
	if err := verifyLinks(e.parser, n.Links, plan.self, oldIdx, newIdx, oldID, newID, mapID); err != nil {
		return nil, fmt.Errorf("%w: nothing was written", err)
	}
	plan.selfLinks = changes
	if newID == oldID {
		return plan, nil
	}

	// Every note that names the old or the new base name in a link.
	cands := map[string]bool{}
	for _, key := range []string{refKey(oldID), refKey(newID)} {
		for src := range e.refs[key] {
			if src != oldID {
				cands[src] = true
			}
		}
	}
	for _, src := range slices.Sorted(maps.Keys(cands)) {
		ns, ok := e.notes[src]
		if !ok {
			continue
		}
		data, err := os.ReadFile(ns.path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		out, changes, err := e.retargetNote(src, data, oldIdx, newIdx, mapID)
		if err != nil {
			return nil, err
		}
		if out == nil {
			continue
		}
		plan.ops = append(plan.ops, vault.FileOp{Path: ns.path, Data: out, CheckOld: true, Old: data})
		plan.changes = append(plan.changes, FileChange{Path: src, Action: ActionUpdate, Links: changes})
	}
	// Excluded notes and canvases: Obsidian rewrites them too.
	if err := e.planOutside(plan, oldIdx, newIdx, oldID, newID, mapID); err != nil {
		return nil, err
	}
	return plan, nil
}

// retargetNote works out the new bytes of the note src (data, as read
// from disk) whose links must keep pointing where they did while a note
// moves (mapID): nil when none changes. Each link is checked again after
// the rewrite (verifyLinks).
func (e *Engine) retargetNote(src string, data []byte, oldIdx, newIdx *vault.Index, mapID func(string) string) ([]byte, []LinkChange, error) {
	_, out, changes, err := e.retargetEdits(src, data, oldIdx, newIdx, mapID)
	return out, changes, err
}

// retargetEdits is retargetNote with the edits it made of data.
func (e *Engine) retargetEdits(src string, data []byte, oldIdx, newIdx *vault.Index, mapID func(string) string) ([]vault.Edit, []byte, []LinkChange, error) {
	n, err := e.parser.ParseForRewrite(src, data)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", src, err)
	}
	edits, changes, err := retargetAll(data, n.Links, oldIdx, newIdx, src, src, mapID)
	if err != nil || len(edits) == 0 {
		return nil, nil, nil, err
	}
	out, err := vault.ApplyEdits(data, edits)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("rewrite links of %s: %w", src, err)
	}
	if err := verifyLinks(e.parser, n.Links, out, oldIdx, newIdx, src, src, mapID); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: nothing was written", err)
	}
	return edits, out, changes, nil
}

// verifyLinks parses a rewritten note again and checks that each of its
// links resolves, under newIdx from newSource, to the note (or the
// attachment) it meant before (as before, under oldIdx from oldSource):
// the last guard before any byte is written.
func verifyLinks(p *vault.Parser, before []vault.Link, out []byte, oldIdx, newIdx *vault.Index, oldSource, newSource string, mapID func(string) string) error {
	n, err := p.Parse(newSource, out)
	if err != nil {
		return fmt.Errorf("parse %s after rewriting: %w", newSource, err)
	}
	if len(n.Links) != len(before) {
		return fmt.Errorf("%s would have %d links after rewriting, not %d", newSource, len(n.Links), len(before))
	}
	for i, l := range before {
		if l.IsSelf() {
			continue
		}
		was, st := oldIdx.Resolve(oldSource, l)
		if st == vault.Attachment {
			f, _ := oldIdx.ResolveFile(oldSource, l)
			if g, ok := newIdx.ResolveFile(newSource, n.Links[i]); !ok || !g.Same(f) {
				return fmt.Errorf("%s line %d: the link would point at %q instead of the file %q", newSource, l.Line, g.Path, f.Path)
			}
			continue
		}
		if st != vault.Resolved {
			continue
		}
		if now, _ := newIdx.Resolve(newSource, n.Links[i]); now != mapID(was) {
			return fmt.Errorf("%s line %d: the link would point at %q instead of %q", newSource, l.Line, now, mapID(was))
		}
	}
	return nil
}

// pathOK reports whether link l, written in note source, names id by its
// path: a markdown link by its path from the source's folder or the vault
// root, a relative wikilink (./, ../) from the source's folder, a wikilink
// with a folder by a path suffix. A bare name names any note by name, so it
// is always OK.
func pathOK(source string, l vault.Link, id string) bool {
	t := l.Target
	same := func(p string) bool { return vault.Fold(vault.TrimMD(p)) == vault.Fold(vault.TrimMD(id)) }
	switch {
	case l.Kind == vault.KindMarkdown || l.Kind == vault.KindImage:
		if strings.HasPrefix(t, "/") {
			return same(t[1:])
		}
		return same(path.Join(vault.Dir(source), t)) || same(t)
	case strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../"):
		return same(path.Join(vault.Dir(source), t))
	case strings.Contains(t, "/"):
		want, suffix := vault.Fold(vault.TrimMD(id)), vault.Fold(vault.TrimMD(strings.TrimPrefix(t, "/")))
		return want == suffix || strings.HasSuffix(want, "/"+suffix)
	}
	return true
}

// retargetAll finds the links of a note (written at oldSource, living at
// newSource after the move) that would resolve differently under newIdx
// than they meant under oldIdx, and the edits that keep them pointing at
// the same note (mapID gives where a note now lives). A link it cannot
// rewrite is an error: a rename never breaks a link.
func retargetAll(src []byte, links []vault.Link, oldIdx, newIdx *vault.Index, oldSource, newSource string, mapID func(string) string) ([]vault.Edit, []LinkChange, error) {
	var edits []vault.Edit
	var changes []LinkChange
	done := map[[2]int]string{} // target ranges rewritten: a reference definition serves several links
	for _, l := range links {
		if l.IsSelf() {
			continue
		}
		var want string
		var file *vault.FileTarget
		was, st := oldIdx.Resolve(oldSource, l)
		switch st {
		case vault.Resolved:
			want = mapID(was)
			// A link that named its note by path must still name it by path
			// (resolving by name alone would leave a stale path that other
			// markdown tools cannot follow).
			if now, _ := newIdx.Resolve(newSource, l); now == want && (!pathOK(oldSource, l, was) || pathOK(newSource, l, want)) {
				continue
			}
		case vault.Attachment:
			// Attachments do not move, but a moved note's relative links to
			// them must follow it; the same rule of names and paths holds.
			f, _ := oldIdx.ResolveFile(oldSource, l)
			if now, ok := newIdx.ResolveFile(newSource, l); ok && now.Same(f) && (f.ByName || !now.ByName) {
				continue
			}
			want, file = f.Path, &f
		default:
			continue // broken links stay as written
		}
		if l.TargetStart < 0 || l.TargetEnd > len(src) || l.TargetStart > l.TargetEnd {
			return nil, nil, fmt.Errorf("%w: %s line %d: %s is a reference-style link whose definition was not found, so it cannot be rewritten: change it to a [[wikilink]] or an inline link first; nothing was written",
				ErrInvalid, newSource, l.Line, linkText(l))
		}
		var ed vault.Edit
		var err error
		switch {
		case file != nil:
			ed, err = vault.RetargetFileEdit(newIdx, newSource, src, l, *file)
		case (l.Kind == vault.KindMarkdown || l.Kind == vault.KindImage) && !strings.Contains(l.Target, "/") && !pathOK(oldSource, l, was):
			ed, err = vault.RetargetEditByName(newIdx, newSource, src, l, want) // Obsidian's shortest-path style
		default:
			ed, err = vault.RetargetEdit(newIdx, newSource, src, l, want)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: the link %s in %s (line %d) could not be rewritten to point at %s, so the change would break it; nothing was written: %v",
				ErrInvalid, linkText(l), newSource, l.Line, want, err)
		}
		key := [2]int{ed.Start, ed.End}
		if prev, ok := done[key]; ok {
			if prev != ed.Text {
				return nil, nil, fmt.Errorf("%w: %s line %d: links sharing one reference definition would need different targets; nothing was written",
					ErrInvalid, newSource, l.Line)
			}
			continue
		}
		done[key] = ed.Text
		if string(src[ed.Start:ed.End]) == ed.Text {
			continue
		}
		edits = append(edits, ed)
		changes = append(changes, linkChange(src, l, ed))
	}
	return edits, changes, nil
}

// linkChange describes the edit ed of link l of src: the link before and
// after or, for a reference-style link whose definition is rewritten, the
// definition's line.
func linkChange(src []byte, l vault.Link, ed vault.Edit) LinkChange {
	if l.Start <= ed.Start && ed.End <= l.End {
		return LinkChange{
			Line: l.Line,
			Old:  string(src[l.Start:l.End]),
			New:  string(src[l.Start:ed.Start]) + ed.Text + string(src[ed.End:l.End]),
		}
	}
	text := string(src)
	start := strings.LastIndexByte(text[:ed.Start], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[ed.End:], '\n'); i >= 0 {
		end = ed.End + i
	}
	for end > ed.End && text[end-1] == '\r' {
		end--
	}
	return LinkChange{
		Line: 1 + strings.Count(text[:ed.Start], "\n"),
		Old:  string(src[start:end]),
		New:  string(src[start:ed.Start]) + ed.Text + string(src[ed.End:end]),
	}
}
