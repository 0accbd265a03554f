package vault

import (
	"path"
	"slices"
	"strings"
)

// wikiCandidates lists the targets a wikilink could take to point at want,
// best first: first in raw's style, then the same with ".md" if raw had
// none (for names that only resolve with it). A name or path suffix that
// more than one note has is left out (it would find want only by the
// tie-break), unless it is want's vault path.
func wikiCandidates(idx *Index, source, core, want string) []string {
	noExt, ext := splitMD(want)
	p, anchor := anchored(core, Dir(source), noExt, false)
	paths := []string{p}
	switch {
	case anchor:
	case strings.Contains(core, "/"):
		// Keep as many folders as the user wrote, where the new path has
		// them (a rename and its reverse then give the bytes back); then
		// the others, shortest first.
		paths = suffixes(noExt, true)
		if n := strings.Count(strings.Trim(core, "/"), "/"); n > 0 {
			if i := slices.IndexFunc(paths, func(p string) bool { return strings.Count(p, "/") == n }); i > 0 {
				p := paths[i]
				paths = slices.Insert(slices.Delete(paths, i, i+1), 0, p)
			}
			if strings.Count(paths[0], "/") != n && strings.Count(noExt, "/") < n {
				paths = append([]string{noExt}, paths...) // fewer folders exist now: the full path
			}
		}
	default:
		paths = suffixes(noExt, false)
	}
	if !anchor {
		paths = slices.DeleteFunc(paths, func(p string) bool { return !uniqueTarget(idx, p, want) })
	}
	return withExt(paths, ext, HasMD(core))
}

// uniqueTarget reports whether the wikilink target p (a path suffix of the
// note want, without ".md") finds want alone: want is at vault path p, or
// no other note's path ends with p.
func uniqueTarget(idx *Index, p, want string) bool {
	if id, ok := idx.Note(p); ok {
		return id == want
	}
	fp := Fold(TrimMD(p))
	return !slices.ContainsFunc(idx.Named(path.Base(fp)), func(id string) bool {
		f := Fold(TrimMD(id))
		return id != want && (f == fp || strings.HasSuffix(f, "/"+fp))
	})
}

// fileCandidates lists the targets (markdown ones not yet encoded) a link
// could take to point at the attachment want, best first, in the style
// of the link: see RetargetFileEdit.
func fileCandidates(source string, l Link, core string, want FileTarget) []string {
	t := l.Target
	if !l.Kind.Markdown() {
		t = core
	}
	dir := Dir(source)
	if p, ok := anchored(t, dir, want.Path, l.Kind.Markdown()); ok {
		return []string{p}
	}
	var out []string
	if want.ByName && !strings.Contains(t, "/") {
		out = append(out, path.Base(want.Path))
	}
	if l.Kind.Markdown() {
		return append(out, relativeTo(dir, want.Path, false), want.Path)
	}
	return append(out, want.Path)
}

// markdownCandidates lists the destinations (not yet encoded) a markdown
// link could take to point at want, best first.
func markdownCandidates(idx *Index, source string, l Link, core, want string, byName bool) []string {
	noExt, ext := splitMD(want)
	// The style is read from the decoded target; raw may hold escapes.
	t := l.Target
	dir := Dir(source)
	rel := relativeTo(dir, noExt, false)
	var paths []string
	if p, ok := anchored(t, dir, noExt, true); ok {
		paths = []string{p}
	} else {
		// A bare file name is a path relative to source's folder: it stays
		// bare only when want is in that folder, so that the link still
		// works in any markdown tool, not only by Obsidian's name lookup.
		bare := !strings.Contains(t, "/")
		if bare && (Dir(want) == dir || byName && len(idx.Named(path.Base(noExt))) == 1) {
			paths = append(paths, path.Base(noExt))
		}
		if bare || writtenRelative(idx, dir, t, want) {
			paths = append(paths, rel, noExt)
		} else {
			paths = append(paths, noExt, rel)
		}
	}
	return withExt(paths, ext, HasMD(t) || HasMD(core))
}

// anchored returns the vault path p written as the link target t is
// anchored: from the vault root ("/..."), or from the folder dir ("./",
// "../"; a markdown link keeps "./" only where t had it); ok is false when
// t is neither.
func anchored(t, dir, p string, markdown bool) (string, bool) {
	switch {
	case strings.HasPrefix(t, "/"):
		return "/" + p, true
	case !dotRelative(t):
		return "", false
	case !markdown || strings.HasPrefix(t, "./"):
		return relativeTo(dir, p, true), true
	}
	return relativeTo(dir, p, false), true
}

// writtenRelative guesses whether a markdown destination t without a
// leading "/", "./" or "../", written in a note of folder dir, is relative
// to that folder rather than to the vault root.
func writtenRelative(idx *Index, dir, t, want string) bool {
	if dir == "" {
		return false // the same thing
	}
	ft, fw := Fold(TrimMD(t)), Fold(TrimMD(want))
	switch {
	case ft == fw:
		return false // t is want's vault path
	case strings.Contains(ft, "/") && strings.HasSuffix(fw, "/"+ft):
		return true // t names want from a folder: the link's
	}
	if _, ok := idx.Note(path.Join(dir, t)); ok {
		return true
	}
	if _, ok := idx.Note(t); ok {
		return false
	}
	first, _, _ := strings.Cut(t, "/")
	return folderInIndex(idx, path.Join(dir, first))
}

// folderInIndex reports whether some note or attachment of x lies under
// folder.
func folderInIndex(x *Index, folder string) bool {
	prefix := Fold(folder) + "/"
	for key := range x.notes {
		if strings.HasPrefix(key, prefix) {
			return true
		}
	}
	for key := range x.files {
		if strings.HasPrefix(key, prefix) {
			return true
		}
	}
	return false
}

// splitMD splits a note ID into the path without ".md" and the extension
// as the ID spells it.
func splitMD(id string) (noExt, ext string) {
	noExt = TrimMD(id)
	return noExt, id[len(noExt):]
}

// withExt appends ext to each path if keep, and then, for names that only
// resolve with their extension, every path with ext when it was not kept.
func withExt(paths []string, ext string, keep bool) []string {
	out := make([]string, 0, 2*len(paths))
	for _, p := range paths {
		if keep {
			p += ext
		}
		out = append(out, p)
	}
	if !keep && ext != "" {
		for _, p := range paths {
			out = append(out, p+ext)
		}
	}
	return out
}

// suffixes returns the path suffixes of p made of whole elements,
// shortest first: "a/b/C" gives "C", "b/C", "a/b/C". With slashed, only
// those holding a '/' (or p itself when it has none).
func suffixes(p string, slashed bool) []string {
	var out []string
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			out = append(out, p[i+1:])
		}
	}
	out = append(out, p)
	if slashed && len(out) > 1 {
		out = out[1:]
	}
	return out
}

// relativeTo returns the path of the vault path to as seen from the folder
// dir: "../x/y" or "y", with "./" in front of the latter if dotted.
// Folders are compared as link resolution matches them, ignoring case.
func relativeTo(dir, to string, dotted bool) string {
	var from []string
	if dir != "" {
		from = strings.Split(dir, "/")
	}
	parts := strings.Split(to, "/")
	i := 0
	for i < len(from) && i < len(parts)-1 && Fold(from[i]) == Fold(parts[i]) {
		i++
	}
	rest := strings.Join(parts[i:], "/")
	if up := len(from) - i; up > 0 {
		return strings.Repeat("../", up) + rest
	}
	if dotted {
		return "./" + rest
	}
	return rest
}
