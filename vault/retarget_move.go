package vault

import (
	"bytes"
	"fmt"
	"path"
	"strings"
)

// LinkChange is one rewritten link: its line and its text before and after.
type LinkChange struct {
	Line int    `json:"line"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// LinkError is the error of a link that a rewrite cannot keep pointing
// where it did, so the change would break it: the change is refused and
// nothing is written. It is the caller's request that is at fault.
type LinkError struct{ msg string }

// Error says which link, where, and why.
func (e *LinkError) Error() string { return e.msg }

// linkErrorf makes a *LinkError.
func linkErrorf(format string, args ...any) *LinkError {
	return &LinkError{msg: fmt.Sprintf(format, args...)}
}

// Move is the move (rename) of one note, From to To, as the links of the
// vault see it: Old is the index before the move and New the index after
// (the same index when From is To). Its methods work out the new bytes of
// a note whose links must keep pointing where they did; they read no file
// and change nothing.
type Move struct {
	Parser   *Parser
	Old, New *Index
	From, To string
	// Also are other notes that moved at the same time (old ID -> new ID),
	// as a folder moved outside vaultgraph moves several: Old has them at
	// their old paths, and the links written in them are read from there.
	Also map[string]string
	back map[string]string // Also inverted, made on first use
}

// mapID gives where the note id lives after the move.
func (m *Move) mapID(id string) string {
	if id == m.From {
		return m.To
	}
	if to, ok := m.Also[id]; ok {
		return to
	}
	return id
}

// oldSource gives where the note id, as it is now, was before the move:
// its old path when it is one of Also, else id.
func (m *Move) oldSource(id string) string {
	if len(m.Also) == 0 {
		return id
	}
	if m.back == nil {
		m.back = make(map[string]string, len(m.Also))
		for from, to := range m.Also {
			m.back[to] = from
		}
	}
	if from, ok := m.back[id]; ok {
		return from
	}
	return id
}

// Self works out the new bytes of the moved note itself (data, with its
// other edits already made): its links are meant as they resolved from
// From and must resolve the same from To. The result is always checked
// (verifyLinks), even when no link changes.
func (m *Move) Self(data []byte) ([]byte, []LinkChange, error) {
	_, out, changes, err := m.rewrite(m.From, m.To, data, true)
	return out, changes, err
}

// Note works out the new bytes of the note source (data, as read from
// disk; source is not the moved note) whose links must keep pointing
// where they did: out is nil when none changes. A source among Also is
// read as written at its old path.
func (m *Move) Note(source string, data []byte) (edits []Edit, out []byte, changes []LinkChange, err error) {
	return m.rewrite(m.oldSource(source), source, data, false)
}

// rewrite is Self and Note: ParseForRewrite gives reference-style links
// their definition's range, and each link is checked again after the
// rewrite (verifyLinks). Without always, a note with no edit gives nil.
func (m *Move) rewrite(oldSource, newSource string, data []byte, always bool) ([]Edit, []byte, []LinkChange, error) {
	n, err := m.Parser.ParseForRewrite(oldSource, data)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", oldSource, err)
	}
	edits, changes, err := m.retargetLinks(data, n.Links, oldSource, newSource)
	if err != nil || len(edits) == 0 && !always {
		return nil, nil, nil, err
	}
	out, err := ApplyEdits(data, edits)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("rewrite links of %s: %w", oldSource, err)
	}
	if err := m.verifyLinks(n.Links, out, oldSource, newSource); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: nothing was written", err)
	}
	return edits, out, changes, nil
}

// verifyLinks parses a rewritten note again and checks that each of its
// links resolves, under New from newSource, to the note (or the
// attachment) it meant before (as before, under Old from oldSource):
// the last guard before any byte is written.
func (m *Move) verifyLinks(before []Link, out []byte, oldSource, newSource string) error {
	n, err := m.Parser.Parse(newSource, out)
	if err != nil {
		return fmt.Errorf("parse %s after rewriting: %w", newSource, err)
	}
	if len(n.Links) != len(before) {
		return fmt.Errorf("%s would have %d links after rewriting, not %d", newSource, len(n.Links), len(before))
	}
	for i, l := range before {
		was, st := m.Old.Resolve(oldSource, l) // Self for a link to its own note
		if st == Attachment {
			f, _ := m.Old.ResolveFile(oldSource, l)
			if g, ok := m.New.ResolveFile(newSource, n.Links[i]); !ok || !g.Same(f) {
				return fmt.Errorf("%s line %d: the link would point at %q instead of the file %q", newSource, l.Line, g.Path, f.Path)
			}
			continue
		}
		if st != Resolved {
			continue
		}
		if now, _ := m.New.Resolve(newSource, n.Links[i]); now != m.mapID(was) {
			return fmt.Errorf("%s line %d: the link would point at %q instead of %q", newSource, l.Line, now, m.mapID(was))
		}
	}
	return nil
}

// retargetLinks finds the links of a note (src, written at oldSource,
// living at newSource after the move) that would resolve differently
// under New than they meant under Old, and the edits that keep them
// pointing at the same note. A link it cannot rewrite is a *LinkError: a
// rename never breaks a link.
func (m *Move) retargetLinks(src []byte, links []Link, oldSource, newSource string) ([]Edit, []LinkChange, error) {
	set := newLinkEdits(src)
	for _, l := range links {
		ed, ok, err := m.retargetLink(src, l, oldSource, newSource)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			continue
		}
		if !set.add(l, ed) {
			return nil, nil, linkErrorf("%s line %d: links sharing one reference definition would need different targets; nothing was written",
				newSource, l.Line)
		}
	}
	return set.edits, set.changes, nil
}

// retargetLink is the edit that keeps link l of src pointing at what it
// meant (see retargetLinks); ok is false for a link that needs none.
func (m *Move) retargetLink(src []byte, l Link, oldSource, newSource string) (ed Edit, ok bool, err error) {
	var want string
	var file *FileTarget
	was, st := m.Old.Resolve(oldSource, l)
	switch st {
	case Resolved:
		want = m.mapID(was)
		// A link that named its note by path must still name it by path
		// (resolving by name alone would leave a stale path that other
		// markdown tools cannot follow).
		if now, _ := m.New.Resolve(newSource, l); now == want && (!pathOK(oldSource, l, was) || pathOK(newSource, l, want)) {
			return Edit{}, false, nil
		}
	case Attachment:
		// Attachments do not move, but a moved note's relative links to
		// them must follow it; the same rule of names and paths holds.
		f, _ := m.Old.ResolveFile(oldSource, l)
		if now, ok := m.New.ResolveFile(newSource, l); ok && now.Same(f) && (f.ByName || !now.ByName) {
			return Edit{}, false, nil
		}
		want, file = f.Path, &f
	default:
		return Edit{}, false, nil // broken links stay as written, links to their own note too
	}
	if l.TargetStart < 0 || l.TargetEnd > len(src) || l.TargetStart > l.TargetEnd {
		return Edit{}, false, linkErrorf("%s line %d: %s is a reference-style link whose definition was not found, so it cannot be rewritten: change it to a [[wikilink]] or an inline link first; nothing was written",
			newSource, l.Line, l.Brief())
	}
	switch {
	case file != nil:
		ed, err = RetargetFileEdit(m.New, newSource, src, l, *file)
	case l.Kind.Markdown() && !strings.Contains(l.Target, "/") && !pathOK(oldSource, l, was):
		ed, err = RetargetEditByName(m.New, newSource, src, l, want) // Obsidian's shortest-path style
	default:
		ed, err = RetargetEdit(m.New, newSource, src, l, want)
	}
	if err != nil {
		return Edit{}, false, linkErrorf("the link %s in %s (line %d) could not be rewritten to point at %s, so the change would break it; nothing was written: %v",
			l.Brief(), newSource, l.Line, want, err)
	}
	return ed, true, nil
}

// pathOK reports whether link l, written in note source, names id by its
// path: a markdown link by its path from the source's folder or the vault
// root, a relative wikilink (./, ../) from the source's folder, a wikilink
// with a folder by a path suffix. A bare name names any note by name, so it
// is always OK.
func pathOK(source string, l Link, id string) bool {
	t := l.Target
	same := func(p string) bool { return Fold(TrimMD(p)) == Fold(TrimMD(id)) }
	switch {
	case l.Kind.Markdown():
		if strings.HasPrefix(t, "/") {
			return same(t[1:])
		}
		return same(path.Join(Dir(source), t)) || same(t)
	case strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../"):
		return same(path.Join(Dir(source), t))
	case strings.Contains(t, "/"):
		want, suffix := Fold(TrimMD(id)), Fold(TrimMD(strings.TrimPrefix(t, "/")))
		return want == suffix || strings.HasSuffix(want, "/"+suffix)
	}
	return true
}

// editChange describes the edit ed of link l of src: the link before and
// after or, for a reference-style link whose definition is rewritten, the
// definition's line.
func editChange(src []byte, l Link, ed Edit) LinkChange {
	if l.Start <= ed.Start && ed.End <= l.End {
		return LinkChange{
			Line: l.Line,
			Old:  string(src[l.Start:l.End]),
			New:  string(src[l.Start:ed.Start]) + ed.Text + string(src[ed.End:l.End]),
		}
	}
	start, end := lineStart(src, ed.Start), lineStop(src, ed.End)
	for end > ed.End && src[end-1] == '\r' {
		end--
	}
	return LinkChange{
		Line: 1 + bytes.Count(src[:ed.Start], []byte("\n")),
		Old:  string(src[start:end]),
		New:  string(src[start:ed.Start]) + ed.Text + string(src[ed.End:end]),
	}
}

// Brief is a short rendering of a link for messages: "(target)" for a
// markdown link or image, "[[target#fragment]]" for the others.
func (l Link) Brief() string {
	if l.Kind.Markdown() {
		return "(" + l.Target + ")"
	}
	t := l.Target
	if l.Fragment != "" {
		t += "#" + l.Fragment
	}
	return "[[" + t + "]]"
}
