package vaultgraph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// NewNote is what CreateNode writes.
type NewNote struct {
	// Title names the file: Directory/Title.md, with the characters
	// Obsidian forbids in file names removed. When that changes the title,
	// the title is also kept in the frontmatter.
	Title string
	// Content is the body, written as given. Content that begins with a
	// frontmatter block is the whole text: Tags and Properties are set in
	// its frontmatter, and the result's warnings name each of its values
	// they replace.
	Content string
	// Tags go into the frontmatter.
	Tags []string
	// Properties go into the frontmatter, in order.
	Properties []vault.Property
	// Directory is the vault folder ("" or RootDirectory = the root);
	// missing folders are created.
	Directory string
}

// RootDirectory is the directory that names the vault root in CreateNode
// and UpdateNode: the tools read a "" parameter as not given, so "/" is
// how a caller moves a note to the root.
const RootDirectory = "/"

// NoteUpdate is what UpdateNode changes; nil fields stay as they are.
type NoteUpdate struct {
	// ID is the note: a path or name as Lookup takes them (not a title,
	// alias or pasted link, which only reads fall back to).
	ID string
	// Title renames the note (its file name).
	Title *string
	// Directory moves the note to this folder ("" or RootDirectory = the
	// root).
	Directory *string
	// Content replaces the body; the frontmatter is kept. Content that
	// begins with a frontmatter block (vault.ReplaceContent) is the whole
	// text instead: its frontmatter replaces the note's, Tags and
	// Properties are set on top of it, and the result's warnings name
	// each of its values they replace.
	Content *string
	// Tags replace the frontmatter tags. Inline #tags in the body stay;
	// the result's warnings name those not among Tags.
	Tags *[]string
	// Properties are merged into the frontmatter; a nil value removes the
	// key.
	Properties []vault.Property
	// RenameHeading renames a heading of the note and rewrites every
	// link to it (see HeadingRename); it cannot be combined with the
	// changes above.
	RenameHeading *HeadingRename
	// IfMatch, when set, is the hash a read returned: the update is
	// refused with ErrConflict if the file has changed since.
	IfMatch string
	// DryRun works out every change without writing anything.
	DryRun bool
}

// WriteResult is the outcome of a write.
type WriteResult struct {
	// Node is the note after the write (nil after a delete or a dry run).
	Node *Node `json:"node,omitempty"`
	// Files lists every file written, moved or deleted (or that would
	// be, in a dry run), with the links rewritten in it.
	Files []FileChange `json:"files"`
	// Deleted is set by DeleteNode when a note was removed.
	Deleted bool `json:"deleted,omitempty"`
	// DryRun is set when nothing was written.
	DryRun bool `json:"dryRun,omitempty"`
	// Warnings are links that are now broken, links that could not be
	// rewritten, and similar.
	Warnings []string `json:"warnings,omitempty"`
}

// FileChange is one file a write touches.
type FileChange struct {
	// Path is the file's vault path after the write.
	Path string `json:"path"`
	// From is its path before, for the moved note.
	From string `json:"from,omitempty"`
	// Action is create, update, move or delete.
	Action string `json:"action"`
	// Links are the links rewritten in this file.
	Links []LinkChange `json:"links,omitempty"`
}

// LinkChange is one rewritten link: its line and its text before and after.
type LinkChange = vault.LinkChange

// File actions of a FileChange.
const (
	ActionCreate = "create"
	ActionUpdate = "update"
	ActionMove   = "move"
	ActionDelete = "delete"
)

// writable reports ErrReadOnly and ErrClosed.
func (e *Engine) writable() error {
	if e.opts.ReadOnly {
		return fmt.Errorf("%w: this server was started with --read-only", ErrReadOnly)
	}
	if err := e.readLock(); err != nil {
		return err
	}
	e.mu.RUnlock()
	return nil
}

// lockWrite takes e.writeMu alone, for a change that may touch several
// files, after checking that the engine may write (writable) when check
// is set (a dry run of repair_links may run read-only). The caller defers
// the unlock it returns.
func (e *Engine) lockWrite(check bool) (unlock func(), err error) {
	if check {
		if err := e.writable(); err != nil {
			return nil, err
		}
	}
	e.writeMu.Lock()
	return e.writeMu.Unlock, nil
}

// checkTitle refuses a title with NUL or other control characters.
func checkTitle(title string) error {
	if strings.TrimSpace(title) == "" {
		return fmt.Errorf("%w: title is empty", ErrInvalid)
	}
	for _, r := range title {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%w: title %q contains a control character", ErrInvalid, title)
		}
	}
	return nil
}

// notePath checks a vault folder and a title and returns the new note's
// ID and its path on disk.
func (e *Engine) notePath(dir, title string) (id, abs string, err error) {
	name, err := vault.FileName(title)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrInvalid, err) // err names the title
	}
	if dir = strings.TrimSpace(dir); dir == RootDirectory {
		dir = ""
	}
	if absPath(dir) {
		return "", "", fmt.Errorf("%w: directory %q is an absolute path: give a folder relative to the vault", ErrInvalid, dir)
	}
	dir = strings.TrimSuffix(filepath.ToSlash(dir), "/")
	if dir == "." {
		dir = ""
	}
	if _, err := vault.SafeDir(e.root, dir); err != nil {
		return "", "", fmt.Errorf("%w: directory %q: %v", ErrInvalid, dir, err)
	}
	for p := dir; p != ""; p = vault.Dir(p) {
		if fi, err := os.Stat(filepath.Join(e.root, filepath.FromSlash(p))); err == nil && !fi.IsDir() {
			return "", "", fmt.Errorf("%w: directory %q: %s is a file, not a folder", ErrInvalid, dir, p)
		}
	}
	id = vault.NFC(path.Join(dir, name+".md"))
	if e.ignore.Skip(id, false) {
		return "", "", fmt.Errorf("%w: %s is in a folder vaultgraph ignores (dot-folder or userIgnoreFilters)", ErrInvalid, id)
	}
	abs, err = vault.SafePath(e.root, id)
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrInvalid, id, err)
	}
	return id, abs, nil
}

// CreateNode writes a new note and indexes it at once. A note or file
// already at that path (in any letter case) is ErrExists.
func (e *Engine) CreateNode(ctx context.Context, n NewNote) (*WriteResult, error) {
	if err := e.writable(); err != nil {
		return nil, err
	}
	if err := checkTitle(n.Title); err != nil {
		return nil, err
	}
	e.writeMu.RLock()
	defer e.writeMu.RUnlock()
	id, abs, err := e.notePath(n.Directory, n.Title)
	if err != nil {
		return nil, err
	}
	release, err := e.reserve(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	if found := e.existingNote(id, ""); found != "" {
		return nil, fmt.Errorf("%w: %s already exists: choose another title or update it", ErrExists, found)
	}
	if _, err := os.Lstat(abs); err == nil {
		return nil, fmt.Errorf("%w: %s already exists on disk: choose another title or update it", ErrExists, id)
	}
	props := slices.Clone(n.Properties)
	if name := vault.BaseName(id); name != strings.TrimSpace(n.Title) {
		props = append([]vault.Property{{Key: "title", Value: strings.TrimSpace(n.Title)}}, props...)
	}
	var tags *[]string
	if len(n.Tags) > 0 {
		tags = &n.Tags
	}
	src, warnings, err := noteText(id, nil, &n.Content, tags, props)
	if err != nil {
		return nil, err
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		src = append(src, '\n') // a text file ends its last line
	}
	// IfAbsent: a file made at that path meanwhile (by another process)
	// is NODE_EXISTS, checked under the vault's write lock.
	op := commit.Op{Path: abs, Data: src, Perm: 0o644, IfAbsent: true}
	if err := e.commitGrouped(op, []string{id}, "create "+id, "creation"); err != nil {
		return nil, err
	}
	return e.answerWrite(ctx, id, &WriteResult{Files: []FileChange{{Path: id, Action: ActionCreate}}, Warnings: warnings})
}

// existingNote returns the ID, as its file is named, of a note other than
// except that has ID id in any letter case; "" when there is none.
func (e *Engine) existingNote(id, except string) string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if found, ok := e.index.Note(id); ok && found != except {
		return found
	}
	return ""
}

// cleanTags drops a leading '#' and blank tags.
func cleanTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "#"); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// afterWrite brings the engine up to date with the written paths and
// returns res with the note id as it now is.
func (e *Engine) afterWrite(ctx context.Context, id string, paths []string, res *WriteResult) (*WriteResult, error) {
	if err := e.Sync(ctx, paths...); err != nil {
		return nil, fmt.Errorf("index after write: %w", err)
	}
	return e.answerWrite(ctx, id, res)
}

// answerWrite returns res with the note id as it now is (the engine is up
// to date with the write), and the note's warnings.
func (e *Engine) answerWrite(ctx context.Context, id string, res *WriteResult) (*WriteResult, error) {
	if id != "" {
		n, err := e.GetNode(ctx, id, false)
		if err != nil {
			return nil, err
		}
		res.Node = n
		if n != nil {
			res.Warnings = append(res.Warnings, n.Warnings...)
		}
	}
	return res, nil
}

// commitErr is the error of a failed commit.Apply of the write op
// ("update X"), which was prepared as during ("rename", "update"...): a
// file that changed on disk since it was read (commit.ErrChanged) is
// ErrConflict naming it, or ErrExists for a new file's path taken
// meanwhile; a symlink leading where no write may go is ErrInvalid.
func (e *Engine) commitErr(err error, op, during string) error {
	var ce *commit.ChangedError
	if errors.As(err, &ce) {
		id := ce.Path
		if rel, rerr := filepath.Rel(e.root, ce.Path); rerr == nil && filepath.IsLocal(rel) {
			id = vault.NFC(filepath.ToSlash(rel))
		}
		if ce.Exists {
			return fmt.Errorf("%w: %s: %s appeared on disk while the %s was prepared: choose another title or folder; nothing was changed", ErrExists, op, id, during)
		}
		return fmt.Errorf("%w: %s: %s changed on disk while the %s was prepared; read it again and retry; nothing was changed", ErrConflict, op, id, during)
	}
	if errors.Is(err, vault.ErrUnsafePath) {
		return fmt.Errorf("%w: %s: %v", ErrInvalid, op, err)
	}
	if errors.Is(err, commit.ErrCommitted) {
		return fmt.Errorf("%s: %w", op, err) // the change stands
	}
	return fmt.Errorf("%s: nothing was changed: %w", op, err)
}

// linkTargets returns the vault paths of the files that the written
// ops' paths lead to through a symlink (commit.Apply writes those), so
// that the engine reads them again too.
func (e *Engine) linkTargets(ops []commit.Op) []string {
	var out []string
	for _, op := range ops {
		if op.Remove {
			continue
		}
		if fi, err := os.Lstat(op.Path); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		real, err := filepath.EvalSymlinks(op.Path)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(e.root, real); err == nil && filepath.IsLocal(rel) {
			out = append(out, vault.NFC(filepath.ToSlash(rel)))
		}
	}
	return out
}

// current reads a note's file and checks ifMatch against it. The bytes
// it returns go to commit.Apply as FileOp.Old, which checks them again
// under the vault's write lock: so ifMatch holds against a writer in
// another process too.
func (e *Engine) current(id, ifMatch string) (src []byte, abs string, err error) {
	e.mu.RLock()
	ns, ok := e.notes[id]
	if ok {
		abs = ns.path
	}
	e.mu.RUnlock()
	if !ok {
		return nil, "", fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	src, ok, err = readScanned(id, abs)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", fmt.Errorf("%w: %s is no longer on disk", ErrNotFound, id)
	}
	if ifMatch != "" && vault.Hash(src) != strings.TrimSpace(ifMatch) {
		return nil, "", fmt.Errorf("%w: %s has hash %s now, not %s: read it again and redo the change", ErrConflict, id, vault.Hash(src), ifMatch)
	}
	return src, abs, nil
}

// find resolves an ID for a write by the path and name rules only: a
// missing note is ErrNotFound, whose message names the note a read would
// find by its title, an alias or a pasted link.
func (e *Engine) find(raw string) (string, []string, error) {
	if err := e.readLock(); err != nil {
		return "", nil, err
	}
	defer e.mu.RUnlock()
	id, warnings, err := e.lookupExact(raw)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if id == "" {
		if near, _, _ := e.lookup(raw); near != "" {
			return "", nil, fmt.Errorf("%w: no note matches %q by path or name (a write takes only those): did you mean %s?", ErrNotFound, raw, near)
		}
		return "", nil, fmt.Errorf("%w: no note matches %q", ErrNotFound, raw)
	}
	return id, warnings, nil
}

// DeleteNode removes a note's file. A missing note is not an error: the
// result says Deleted false. Links to the note become broken links,
// listed in the warnings; they are never rewritten.
func (e *Engine) DeleteNode(ctx context.Context, raw, ifMatch string) (*WriteResult, error) {
	unlock, err := e.lockWrite(true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	id, warnings, err := e.find(raw)
	if errors.Is(err, ErrNotFound) {
		return &WriteResult{Files: []FileChange{}}, nil
	}
	if err != nil {
		return nil, err
	}
	src, abs, err := e.current(id, ifMatch)
	if errors.Is(err, ErrNotFound) {
		// Gone from disk already: forget it now rather than when the
		// watcher (if any) reports it.
		if err := e.Sync(ctx, id); err != nil {
			return nil, err
		}
		return &WriteResult{Files: []FileChange{}}, nil
	}
	if err != nil {
		return nil, err
	}
	incoming := e.incomingLinks(id)
	if err := e.learnExcluded(); err != nil {
		return nil, fmt.Errorf("delete %s: %w", id, err)
	}
	outside, shown := e.outsideIncoming(id)
	incoming = append(incoming, outside...)
	// CheckOld: an edit made since the read is not deleted with the file.
	if err := commit.Apply([]commit.Op{{Path: abs, Remove: true, CheckOld: true, Old: src}}, e.commitOpts); err != nil {
		return nil, e.commitErr(err, "delete "+id, "delete")
	}
	res := &WriteResult{Deleted: true, Files: []FileChange{{Path: id, Action: ActionDelete}}, Warnings: warnings}
	if _, err := e.afterWrite(ctx, "", []string{id}, res); err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, e.afterDelete(incoming)...)
	res.Warnings = append(res.Warnings, shown...)
	return res, nil
}

// afterDelete says, once the engine knows a note is gone, where each link
// that pointed at it leads now: another note with the same name (the
// link now resolves to it), or nowhere (a broken link).
func (e *Engine) afterDelete(links []incoming) []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []string
	for _, in := range links {
		if to, st := e.index.Resolve(in.source, in.link); st == vault.Resolved && to != "" {
			out = append(out, fmt.Sprintf("now resolves to %s: %s in %s (line %d)", to, in.text, in.source, in.line))
		} else {
			out = append(out, fmt.Sprintf("now a broken link: %s in %s (line %d)", in.text, in.source, in.line))
		}
	}
	return out
}

// incoming is a link to a note, as written in another note.
type incoming struct {
	source string
	line   int
	text   string
	link   vault.Link
}

// incomingLinks lists the links written in other notes that resolve to id.
func (e *Engine) incomingLinks(id string) []incoming {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []incoming
	for _, src := range e.refSources(id) {
		ns := e.notes[src]
		for i, l := range ns.eachLink() {
			if i < len(ns.resolved) && ns.resolved[i] == id && src != id {
				out = append(out, incoming{source: src, line: l.Line, text: l.Brief(), link: l})
			}
		}
	}
	slices.SortFunc(out, func(a, b incoming) int {
		return cmp.Or(strings.Compare(a.source, b.source), a.line-b.line)
	})
	return out
}

// refSources are the notes that may link to id: those with a link whose
// target has id's base name (caller holds e.mu).
func (e *Engine) refSources(id string) []string {
	var out []string
	for _, src := range e.refIndex()[refKey(id)] {
		if _, ok := e.notes[src]; ok {
			out = append(out, src)
		}
	}
	slices.Sort(out)
	return out
}
