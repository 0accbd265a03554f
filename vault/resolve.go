package vault

import (
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
)

// Status says what a link target turned out to be.
type Status string

// The outcomes of resolving a link.
const (
	// Resolved: the link points at a note of the vault.
	Resolved Status = "resolved"
	// Broken: no note has that name or path (yet).
	Broken Status = "broken"
	// Attachment: the link points at a non-markdown file (image, PDF,
	// canvas, base...), present or not; it is not an edge and not broken.
	Attachment Status = "attachment"
	// Self: the link points at a heading or block of its own note.
	Self Status = "self"
)

// attachmentExts are the file types Obsidian opens itself, so a link to
// one of them is an attachment reference even when the file is missing.
var attachmentExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".bmp": true, ".svg": true,
	".webp": true, ".avif": true, ".ico": true, ".tif": true, ".tiff": true, ".heic": true,
	".mp3": true, ".wav": true, ".m4a": true, ".ogg": true, ".flac": true, ".3gp": true,
	".mp4": true, ".webm": true, ".ogv": true, ".mov": true, ".mkv": true,
	".pdf": true, ".canvas": true, ".base": true, ".excalidraw": true,
	".csv": true, ".json": true, ".txt": true, ".zip": true, ".docx": true, ".xlsx": true, ".pptx": true,
}

// IsAttachmentName reports whether a link target names a file type that
// Obsidian treats as an attachment rather than a note.
func IsAttachmentName(target string) bool {
	return attachmentExts[strings.ToLower(path.Ext(target))]
}

// Index knows the path of every note and attachment in a vault and
// resolves link targets the way Obsidian does. It is not safe for
// concurrent mutation; the Engine guards it.
type Index struct {
	notes  map[string]string   // Fold(path without .md) -> ID
	byName map[string][]string // Fold(base name without .md) -> IDs, best first
	files  map[string]string   // Fold(path) -> attachment path
	fnames map[string][]string // Fold(base name with extension) -> attachment paths
}

// NewIndex returns an empty Index.
func NewIndex() *Index { return NewIndexFor(0, 0) }

// NewIndexFor returns an empty Index with room for the given numbers of
// notes and attachments: filled at once, it need not grow.
func NewIndexFor(notes, files int) *Index {
	return &Index{
		notes:  make(map[string]string, notes),
		byName: make(map[string][]string, notes),
		files:  make(map[string]string, files),
		fnames: make(map[string][]string, files),
	}
}

// Clone returns an independent copy of the index, for working out how
// links would resolve after a rename without touching the live index.
func (x *Index) Clone() *Index {
	return &Index{
		notes:  maps.Clone(x.notes),
		byName: cloneLists(x.byName),
		files:  maps.Clone(x.files),
		fnames: cloneLists(x.fnames),
	}
}

// cloneLists copies m and each of its lists.
func cloneLists(m map[string][]string) map[string][]string {
	c := make(map[string][]string, len(m))
	for k, v := range m {
		c[k] = slices.Clone(v)
	}
	return c
}

// AddNote adds a note ID (a vault path ending in .md).
func (x *Index) AddNote(id string) {
	key := Fold(TrimMD(id))
	if _, ok := x.notes[key]; ok {
		return
	}
	x.notes[key] = id
	// Fold(BaseName(id)), cut from key: folding keeps each "/" and works
	// within the parts between them.
	name := key[strings.LastIndexByte(key, '/')+1:]
	x.byName[name] = insertSorted(x.byName[name], id)
}

// RemoveNote removes a note ID.
func (x *Index) RemoveNote(id string) {
	key := Fold(TrimMD(id))
	if x.notes[key] != id {
		return
	}
	delete(x.notes, key)
	removeFrom(x.byName, Fold(BaseName(id)), id)
}

// AddFile adds an attachment (a vault path of a non-markdown file).
func (x *Index) AddFile(p string) {
	x.files[Fold(p)] = p
	name := Fold(path.Base(p))
	x.fnames[name] = insertSorted(x.fnames[name], p)
}

// RemoveFile removes an attachment path.
func (x *Index) RemoveFile(p string) {
	delete(x.files, Fold(p))
	removeFrom(x.fnames, Fold(path.Base(p)), p)
}

// FileCount returns the number of attachments known.
func (x *Index) FileCount() int { return len(x.files) }

// HasFile reports whether the attachment path p (exact spelling) is known.
func (x *Index) HasFile(p string) bool { return x.files[Fold(p)] == p }

// Files returns every attachment path, sorted.
func (x *Index) Files() []string { return slices.Sorted(maps.Values(x.files)) }

// Note returns the ID of the note at vault path p (with or without .md,
// any letter case).
func (x *Index) Note(p string) (string, bool) {
	id, ok := x.notes[Fold(TrimMD(strings.TrimPrefix(p, "/")))]
	return id, ok
}

// Named returns every note whose base name is name (without .md),
// best candidate for a link from the vault root first.
func (x *Index) Named(name string) []string {
	return x.byName[Fold(TrimMD(name))]
}

// Resolve resolves a link written in the note source.
func (x *Index) Resolve(source string, l Link) (string, Status) {
	if l.IsSelf() {
		return "", Self
	}
	if l.Kind.Markdown() {
		return x.resolveMarkdown(source, l.Target)
	}
	return x.ResolveName(source, l.Target)
}

// ResolveName resolves a wikilink target written in the note source
// (source may be "" for the vault root):
//  1. a relative path ("./x", "../x") against the source's folder;
//  2. the note at exactly that vault path ("Note" finds "Note.md" at the
//     root, "a/b/Note" finds "a/b/Note.md");
//  3. a path with a folder: the notes whose path ends with it ("b/Note"
//     finds "a/b/Note.md");
//  4. a bare name: the notes with that base name;
//
// and when several notes match, the one in the source's own folder, else
// the one with the shortest path. Matching ignores letter case. Aliases
// never resolve links.
func (x *Index) ResolveName(source, target string) (string, Status) {
	t := strings.TrimPrefix(strings.TrimSpace(target), "/")
	if t == "" {
		return "", Self
	}
	if dotRelative(t) {
		joined := path.Join(Dir(source), t)
		if id, ok := x.Note(joined); ok {
			return id, Resolved
		}
		if _, ok := x.fileAt(source, joined); ok {
			return "", Attachment
		}
		t = strings.TrimLeft(path.Clean("/"+t), "/")
	}
	if id, ok := x.byNameOrSuffix(source, t); ok {
		return id, Resolved
	}
	if _, ok := x.fileAt(source, t); ok || IsAttachmentName(t) {
		return "", Attachment
	}
	return "", Broken
}

// resolveMarkdown resolves a percent-decoded markdown link destination:
// relative to the source's folder first, then from the vault root, then by
// name as a wikilink would.
func (x *Index) resolveMarkdown(source, target string) (string, Status) {
	t := strings.TrimSpace(target)
	if t == "" {
		return "", Self
	}
	if !strings.HasPrefix(t, "/") {
		rel := path.Join(Dir(source), t)
		if HasMD(t) || !IsAttachmentName(t) {
			if id, ok := x.Note(rel); ok {
				return id, Resolved
			}
		}
		if _, ok := x.fileAt(source, rel); ok {
			return "", Attachment
		}
	}
	return x.ResolveName(source, t)
}

func (x *Index) byNameOrSuffix(source, t string) (string, bool) {
	noExt := TrimMD(t)
	// A note at exactly that vault path wins, even over a note of that
	// name beside the source: Obsidian looks the path up first.
	if id, ok := x.notes[Fold(noExt)]; ok {
		return id, true
	}
	if strings.Contains(noExt, "/") {
		suffix := "/" + Fold(noExt)
		var cands []string
		for _, id := range x.byName[Fold(path.Base(noExt))] {
			if strings.HasSuffix(Fold(TrimMD(id)), suffix) {
				cands = append(cands, id)
			}
		}
		return pick(source, cands)
	}
	return pick(source, x.byName[Fold(noExt)])
}

// pick chooses among notes sharing a name: the one in the source's folder,
// else the first (candidates are kept shortest path first).
func pick(source string, cands []string) (string, bool) {
	switch len(cands) {
	case 0:
		return "", false
	case 1:
		return cands[0], true
	}
	dir := Fold(Dir(source))
	if i := slices.IndexFunc(cands, func(id string) bool { return Fold(Dir(id)) == dir }); i >= 0 {
		return cands[i], true
	}
	return cands[0], true
}

// lessPath orders notes sharing a name as Obsidian prefers them: the
// shorter path (as a string: "a/b/Note.md" before "zzzz/Note.md"), then
// alphabetically.
func lessPath(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func insertSorted(list []string, id string) []string {
	i := sort.Search(len(list), func(i int) bool { return !lessPath(list[i], id) })
	if i < len(list) && list[i] == id {
		return list
	}
	return slices.Insert(list, i, id)
}

// removeFrom removes id from the list m[key] (into a new array: the old
// one may be shared), and the key with its last id.
func removeFrom(m map[string][]string, key, id string) {
	i := slices.Index(m[key], id)
	switch {
	case i < 0:
	case len(m[key]) == 1:
		delete(m, key)
	default:
		m[key] = append(m[key][:i:i], m[key][i+1:]...)
	}
}

// dotRelative reports whether the link target t starts with "./" or
// "../": a path from the linking note's folder.
func dotRelative(t string) bool { return strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") }
