package vaultgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

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
		out = append(out, fmt.Sprintf("%s line %d: %s now points at a missing %s", in.source, in.line, l.BriefAnchor(), missingAnchor(now, l.Fragment)))
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
