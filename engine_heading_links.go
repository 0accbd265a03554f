package vaultgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// anchorEdits finds the links of a note (source, its bytes src) that point
// at the heading n.Headings[h] of the note n (toID says whether a link
// points at n), and the edits that make their heading part read text.
// want is, for each link, its fragment once the edits are made. A link
// that cannot be rewritten is an error: a heading rename never breaks a
// link.
func anchorEdits(source string, src []byte, links []vault.Link, n *vault.Anchors, h int, text string, toID func(string, vault.Link) bool) ([]vault.Edit, []LinkChange, []string, error) {
	want := make([]string, len(links))
	var edits []vault.Edit
	var changes []LinkChange
	done := map[[2]int]string{} // a reference definition serves several links
	for i, l := range links {
		want[i] = l.Fragment
		if l.Fragment == "" || !toID(source, l) {
			continue
		}
		frag, ok := n.Rename(l.Fragment, h, text)
		if !ok {
			continue
		}
		want[i] = frag
		ed, err := vault.FragmentEdit(src, l, frag)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: the link %s in %s (line %d) cannot be made to name the heading %q, so the rename would break it; nothing was written: %v",
				ErrInvalid, anchorLinkText(l), source, l.Line, text, err)
		}
		key := [2]int{ed.Start, ed.End}
		if prev, ok := done[key]; ok {
			if prev != ed.Text {
				return nil, nil, nil, fmt.Errorf("%w: %s line %d: links sharing one reference definition would need different headings; nothing was written",
					ErrInvalid, source, l.Line)
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
	return edits, changes, want, nil
}

// anchorCheck checks a note after a heading rename: before and after are
// the renamed note, toID says whether a link points at it.
type anchorCheck struct {
	before, after *vault.Anchors
	toID          func(string, vault.Link) bool
}

// verify parses out, the new bytes of the note source, and checks that it
// has the links before had (less those skip drops), each with the same
// kind, target and alias, with the fragment want gives, and, for a link to
// the renamed note, naming the same headings: the last guard before any
// byte is written.
func (c anchorCheck) verify(p *vault.Parser, source string, out []byte, before []vault.Link, want []string, skip func(vault.Link) bool) error {
	m, err := p.Parse(source, out)
	if err != nil {
		return fmt.Errorf("parse %s after rewriting: %w", source, err)
	}
	links := m.Links
	if skip != nil {
		links = slices.DeleteFunc(slices.Clone(links), skip)
	}
	if len(links) != len(before) {
		return fmt.Errorf("%w: %s would have %d links after the heading rename, not %d; nothing was written", ErrInvalid, source, len(links), len(before))
	}
	for i, l := range before {
		g := links[i]
		if g.Kind != l.Kind || g.Target != l.Target || g.Alias != l.Alias || g.Fragment != want[i] {
			return fmt.Errorf("%w: %s line %d: the link %s would read %s after the heading rename; nothing was written",
				ErrInvalid, source, l.Line, anchorLinkText(l), anchorLinkText(g))
		}
		if l.Fragment != "" && c.toID(source, l) && !slices.Equal(c.after.Headings(g.Fragment), c.before.Headings(l.Fragment)) {
			return fmt.Errorf("%w: %s line %d: the link %s would point at another heading after the rename; nothing was written",
				ErrInvalid, source, l.Line, anchorLinkText(g))
		}
	}
	return nil
}

// lostAnchors lists, for a content update of the note id from before to
// after, the links of other notes whose heading or block part named a
// heading or block of before that after no longer has. The update goes
// ahead (the text is the user's); the answer names those links.
func (e *Engine) lostAnchors(id string, before, after []byte) []string {
	links := slices.DeleteFunc(e.incomingLinks(id), func(in incoming) bool { return in.link.Fragment == "" })
	if len(links) == 0 {
		return nil
	}
	oldNote, err := e.parser.Parse(id, before)
	if err != nil {
		return nil
	}
	nowNote, err := e.parser.Parse(id, after)
	if err != nil {
		return nil
	}
	old, now := vault.NewAnchors(oldNote), vault.NewAnchors(nowNote)
	var out []string
	for _, in := range links {
		l := in.link
		if !old.Has(l.Fragment) || now.Has(l.Fragment) {
			continue
		}
		out = append(out, fmt.Sprintf("%s line %d: %s now points at a missing %s", in.source, in.line, anchorLinkText(l), missingAnchor(now, l.Fragment)))
	}
	return out
}

// missingAnchor names what fragment asks of n that n does not have:
// `block "^id"` or `heading "Goals"` (the first heading part not found).
func missingAnchor(n *vault.Anchors, fragment string) string {
	parts := vault.SplitAnchor(fragment)
	if len(parts) == 1 && strings.HasPrefix(strings.TrimSpace(parts[0]), "^") {
		return fmt.Sprintf("block %q", strings.TrimSpace(parts[0]))
	}
	for i, h := range n.Headings(fragment) {
		if h < 0 {
			return fmt.Sprintf("heading %q", strings.TrimSpace(parts[i]))
		}
	}
	return fmt.Sprintf("heading %q", fragment)
}
