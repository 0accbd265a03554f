package vault

import (
	"fmt"
	"slices"
)

// HeadingEdits finds the links (of the note source, whose bytes are src)
// that point at the heading h of the note a indexes (toID says whether a
// link points at that note), and the edits that make their heading part
// read text. want is, for each link, its fragment once the edits are
// made. A link that cannot be rewritten is a *LinkError: a heading rename
// never breaks a link.
func (a *Anchors) HeadingEdits(source string, src []byte, links []Link, h int, text string, toID func(string, Link) bool) ([]Edit, []LinkChange, []string, error) {
	want := make([]string, len(links))
	set := newLinkEdits(src)
	for i, l := range links {
		want[i] = l.Fragment
		if l.Fragment == "" || !toID(source, l) {
			continue
		}
		frag, ok := a.Rename(l.Fragment, h, text)
		if !ok {
			continue
		}
		want[i] = frag
		ed, err := FragmentEdit(src, l, frag)
		if err != nil {
			return nil, nil, nil, linkErrorf("the link %s in %s (line %d) cannot be made to name the heading %q, so the rename would break it; nothing was written: %v",
				l.BriefAnchor(), source, l.Line, text, err)
		}
		if !set.add(l, ed) {
			return nil, nil, nil, linkErrorf("%s line %d: links sharing one reference definition would need different headings; nothing was written",
				source, l.Line)
		}
	}
	return set.edits, set.changes, want, nil
}

// HeadingCheck checks a note after a heading rename: Before and After
// index the renamed note, ToID says whether a link points at it.
type HeadingCheck struct {
	Before, After *Anchors
	ToID          func(string, Link) bool
}

// Verify parses out, the new bytes of the note source, and checks that it
// has the links before had (less those skip drops), each with the same
// kind, target and alias, with the fragment want gives, and, for a link to
// the renamed note, naming the same headings: the last guard before any
// byte is written. A link that would change otherwise is a *LinkError.
func (c HeadingCheck) Verify(p *Parser, source string, out []byte, before []Link, want []string, skip func(Link) bool) error {
	m, err := p.Parse(source, out)
	if err != nil {
		return fmt.Errorf("parse %s after rewriting: %w", source, err)
	}
	links := m.Links
	if skip != nil {
		links = slices.DeleteFunc(slices.Clone(links), skip)
	}
	if len(links) != len(before) {
		return linkErrorf("%s would have %d links after the heading rename, not %d; nothing was written", source, len(links), len(before))
	}
	for i, l := range before {
		g := links[i]
		if g.Kind != l.Kind || g.Target != l.Target || g.Alias != l.Alias || g.Fragment != want[i] {
			return linkErrorf("%s line %d: the link %s would read %s after the heading rename; nothing was written",
				source, l.Line, l.BriefAnchor(), g.BriefAnchor())
		}
		if l.Fragment != "" && c.ToID(source, l) && !slices.Equal(c.After.Headings(g.Fragment), c.Before.Headings(l.Fragment)) {
			return linkErrorf("%s line %d: the link %s would point at another heading after the rename; nothing was written",
				source, l.Line, g.BriefAnchor())
		}
	}
	return nil
}

// linkEdits collects the edits of a note's links (src), each byte range
// once: a reference definition serves several links, which must then
// agree on its new text.
type linkEdits struct {
	src     []byte
	done    map[[2]int]string // ranges edited, with their new text
	edits   []Edit
	changes []LinkChange
}

func newLinkEdits(src []byte) *linkEdits {
	return &linkEdits{src: src, done: map[[2]int]string{}}
}

// add records the edit ed of link l, unless its range is already edited
// the same way or ed changes nothing; false when the range is already
// edited otherwise.
func (s *linkEdits) add(l Link, ed Edit) bool {
	key := [2]int{ed.Start, ed.End}
	if prev, ok := s.done[key]; ok {
		return prev == ed.Text
	}
	s.done[key] = ed.Text
	if string(s.src[ed.Start:ed.End]) == ed.Text {
		return true
	}
	s.edits = append(s.edits, ed)
	s.changes = append(s.changes, editChange(s.src, l, ed))
	return true
}

// BriefAnchor is Brief for a message about a link's heading part: a
// markdown link keeps its text and fragment, [text](Target#Fragment).
func (l Link) BriefAnchor() string {
	if l.Kind == KindMarkdown {
		return fmt.Sprintf("[%s](%s#%s)", l.Alias, l.Target, l.Fragment)
	}
	return l.Brief()
}
