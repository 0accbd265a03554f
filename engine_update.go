package vaultgraph

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
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
	u, err := checkUpdate(u)
	if err != nil {
		return nil, err
	}
	oneFile := u.Title == nil && u.Directory == nil && u.RenameHeading == nil
	id, warnings, src, abs, done, err := e.openForUpdate(ctx, u, oneFile)
	if err != nil {
		return nil, err
	}
	defer done()
	if u.RenameHeading != nil {
		return e.renameHeading(ctx, u, id, warnings, src, abs)
	}
	up, err := e.prepareUpdate(id, abs, src, warnings, u)
	if err != nil {
		return nil, err
	}
	if u.DryRun {
		up.res.DryRun = true
		return up.res, nil
	}
	if ops := up.ops(); oneFile && len(ops) == 1 && !ops[0].Remove {
		// The one file a change of content, tags or properties writes goes
		// through the group commit.
		if err := e.commitGrouped(ops[0], []string{id}, "update "+id, "update"); err != nil {
			return nil, err
		}
		return e.answerWrite(ctx, id, up.res)
	}
	return e.commitUpdate(ctx, up, u)
}

// openForUpdate finds the note u changes and reads it, checking u.IfMatch
// (see current); a note gone from disk is forgotten now. It holds
// e.writeMu until done is called: shared for a change of one file
// (oneFile: content, tags or properties), with the note reserved so that
// the group commit writes other notes meanwhile; exclusive for a rename,
// move or heading rename, whose rewrites reach other notes.
func (e *Engine) openForUpdate(ctx context.Context, u NoteUpdate, oneFile bool) (id string, warnings []string, src []byte, abs string, done func(), err error) {
	unlock := e.writeMu.Unlock
	if oneFile {
		e.writeMu.RLock()
		unlock = e.writeMu.RUnlock
	} else {
		e.writeMu.Lock()
	}
	done = unlock
	id, warnings, err = e.find(u.ID)
	if err == nil && oneFile {
		var release func()
		if release, err = e.reserve(ctx, id); err == nil {
			done = func() { release(); unlock() }
		}
	}
	if err == nil {
		src, abs, err = e.openFound(ctx, id, u.IfMatch)
	}
	if err != nil {
		done()
		return "", nil, nil, "", nil, err
	}
	return id, warnings, src, abs, done, nil
}

// checkUpdate refuses an update that changes nothing, gives a bad title,
// or renames a heading along with other changes or to a bad text; it
// returns u with the heading's new text trimmed.
func checkUpdate(u NoteUpdate) (NoteUpdate, error) {
	others := u.Title != nil || u.Directory != nil || u.Content != nil || u.Tags != nil || len(u.Properties) > 0
	switch {
	case u.RenameHeading != nil && others:
		return u, fmt.Errorf("%w: renameHeading cannot be combined with title, directory, content, tags or properties: rename the heading in one call and make the other changes in another", ErrInvalid)
	case u.RenameHeading != nil:
		to, err := checkHeadingText(u.RenameHeading.To)
		u.RenameHeading = &HeadingRename{From: u.RenameHeading.From, To: to}
		return u, err
	case !others:
		return u, fmt.Errorf("%w: nothing to change: give title, directory, content, tags, properties or renameHeading", ErrInvalid)
	case u.Title != nil:
		return u, checkTitle(*u.Title)
	}
	return u, nil
}

// update is an UpdateNode worked out: the note's place and bytes before
// and after, and every other file a move rewrites (plan).
type update struct {
	id, newID   string
	abs, newAbs string
	src         []byte
	perm        fs.FileMode // the note's permission bits, for its new path
	plan        *writePlan
	res         *WriteResult
}

// prepareUpdate works out the update u of the note id (abs on disk,
// holding src) and its answer, with warnings first; it writes nothing.
func (e *Engine) prepareUpdate(id, abs string, src []byte, warnings []string, u NoteUpdate) (*update, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", id, err)
	}
	up := &update{id: id, newID: id, abs: abs, newAbs: abs, src: src, perm: fi.Mode().Perm()}
	props := slices.Clone(u.Properties)
	if u.Title != nil || u.Directory != nil {
		if props, err = e.moveTarget(up, u, props); err != nil {
			return nil, err
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
	if up.newID != id {
		if err := e.learnExcluded(); err != nil {
			return nil, fmt.Errorf("update %s: %w", id, err)
		}
	}
	if up.plan, err = e.planRename(id, up.newID, out); err != nil {
		return nil, err
	}
	up.res = &WriteResult{Warnings: append(warnings, up.plan.warnings...), Files: []FileChange{}}
	if u.Content != nil {
		up.res.Warnings = append(up.res.Warnings, e.lostAnchors(id, src, up.plan.self)...)
	}
	self := FileChange{Path: up.newID, Action: ActionUpdate, Links: up.plan.selfLinks}
	if up.newID != id {
		self.Action, self.From = ActionMove, id
	}
	if up.newID != id || !bytes.Equal(up.plan.self, src) {
		up.res.Files = append(up.res.Files, self)
	}
	up.res.Files = append(up.res.Files, up.plan.changes...)
	return up, nil
}

// moveTarget sets up.newID and up.newAbs from the new title and folder of
// u, refusing a path another note or file has, and returns props with the
// title kept in the frontmatter when the file name cannot hold it (or the
// note's title came from there).
func (e *Engine) moveTarget(up *update, u NoteUpdate, props []vault.Property) ([]vault.Property, error) {
	id := up.id
	title, dir := vault.BaseName(id), vault.Dir(id)
	if u.Title != nil {
		title = strings.TrimSpace(*u.Title)
	}
	if u.Directory != nil {
		dir = *u.Directory
	}
	var err error
	if up.newID, up.newAbs, err = e.notePath(dir, title); err != nil {
		return nil, err
	}
	if u.Title != nil && (vault.BaseName(up.newID) != title || e.hasTitleProperty(id)) {
		props = append(props, vault.Property{Key: "title", Value: title})
	}
	if found := e.existingNote(up.newID, id); up.newID != id && found != "" {
		return nil, fmt.Errorf("%w: %s already exists: choose another title or folder", ErrExists, found)
	}
	if up.newID != id && !strings.EqualFold(up.newAbs, up.abs) {
		if _, err := os.Lstat(up.newAbs); err == nil {
			return nil, fmt.Errorf("%w: %s already exists on disk: choose another title or folder", ErrExists, up.newID)
		}
	}
	return props, nil
}

// caseOnly reports a rename that changes only the letter case of the
// file's path, on a disk where both spellings are the same file.
func (up *update) caseOnly() bool {
	return up.newID != up.id && strings.EqualFold(up.newAbs, up.abs)
}

// ops are the file changes of up. Every op says what its file held when
// it was read (or that the new path is free): commit.Apply checks that
// under the vault's write lock, so an edit made meanwhile, by a user or
// by another process, is CONFLICT rather than overwritten.
func (up *update) ops() []commit.Op {
	var ops []commit.Op
	switch {
	case up.newID != up.id && !up.caseOnly():
		ops = append(ops, commit.Op{Path: up.newAbs, Data: up.plan.self, Perm: up.perm, IfAbsent: true},
			commit.Op{Path: up.abs, Remove: true, CheckOld: true, Old: up.src})
	case !bytes.Equal(up.plan.self, up.src):
		ops = append(ops, commit.Op{Path: up.abs, Data: up.plan.self, CheckOld: true, Old: up.src})
	}
	return append(ops, up.plan.ops...)
}

// commitUpdate writes the files of up, all or none, and brings the
// engine up to date with them.
func (e *Engine) commitUpdate(ctx context.Context, up *update, u NoteUpdate) (*WriteResult, error) {
	ops := up.ops()
	during := "update"
	switch {
	case u.Title != nil && up.newID != up.id:
		during = "rename"
	case up.newID != up.id:
		during = "move"
	}
	if err := e.applyOps(ops, "update "+up.id, during); err != nil {
		return nil, err
	}
	if up.caseOnly() {
		// Same file on a case-insensitive disk: only its name's case changes.
		if err := os.Rename(up.abs, up.newAbs); err != nil {
			return nil, fmt.Errorf("rename %s to %s: %w", up.id, up.newID, err)
		}
	}
	return e.afterPlan(ctx, up.newID, up.plan, ops, up.res, up.id, up.newID)
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
