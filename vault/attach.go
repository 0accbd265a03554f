package vault

import (
	"path"
	"strings"
)

// FileTarget is the attachment a link points at.
type FileTarget struct {
	// Path is the vault path of the file the link finds or, when there is
	// no such file, the path the link names: joined to the note's folder
	// for a relative link ("./x.png", "../x.png"), else as written.
	Path string
	// Exists reports whether the file is in the index.
	Exists bool
	// ByName reports whether the link finds the file by a lookup that
	// ignores where the note is, not by the path it spells: by its name
	// alone, anywhere in the vault (![[pic.png]]), or, for a relative path
	// that leads nowhere from the note's folder, by what is left of it
	// without the "./" and "../".
	ByName bool
}

// Same reports whether f and g are the same file (letter case aside),
// present or missing alike.
func (f FileTarget) Same(g FileTarget) bool {
	return f.Exists == g.Exists && Fold(f.Path) == Fold(g.Path)
}

// ResolveFile returns the attachment that link l of the note source points
// at, looked up in the order Resolve looks: ok is false when Resolve does
// not give Attachment. Among files sharing a name, a bare name finds the
// one in the source's folder, else the one with the shortest path.
func (x *Index) ResolveFile(source string, l Link) (f FileTarget, ok bool) {
	if _, st := x.Resolve(source, l); st != Attachment {
		return FileTarget{}, false
	}
	t := strings.TrimSpace(l.Target)
	if l.Kind.Markdown() && !strings.HasPrefix(t, "/") {
		if f, ok := x.fileAt(source, path.Join(Dir(source), t)); ok {
			return f, true
		}
	}
	t = strings.TrimPrefix(t, "/")
	missing, relative := "", dotRelative(t)
	if relative {
		joined := path.Join(Dir(source), t)
		if f, ok := x.fileAt(source, joined); ok {
			return f, true
		}
		if joined != ".." && !strings.HasPrefix(joined, "../") {
			missing = joined
		}
		t = strings.TrimLeft(path.Clean("/"+t), "/")
	}
	if f, ok := x.fileAt(source, t); ok {
		f.ByName = f.ByName || relative
		return f, true
	}
	if missing != "" {
		return FileTarget{Path: missing}, true
	}
	return FileTarget{Path: t, ByName: !strings.Contains(t, "/")}, true
}

// fileAt looks p up: the attachment at vault path p or, for a bare name,
// the one of that name pick chooses for source.
func (x *Index) fileAt(source, p string) (FileTarget, bool) {
	if f, ok := x.files[Fold(strings.TrimPrefix(p, "/"))]; ok {
		return FileTarget{Path: f, Exists: true}, true
	}
	if strings.Contains(p, "/") {
		return FileTarget{}, false
	}
	if f, ok := pick(source, x.fnames[Fold(p)]); ok {
		return FileTarget{Path: f, Exists: true, ByName: true}, true
	}
	return FileTarget{}, false
}
