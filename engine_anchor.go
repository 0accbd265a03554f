package vaultgraph

import (
	"fmt"

	"github.com/vaultgraph/vaultgraph/vault"
)

// A broken anchor is a link whose note exists but whose "#Heading",
// "#H1#H2" or "#^block" does not (vault.Note.AnchorProblem). It is worked
// out when asked, from the notes as they are now, so that an edit of the
// linked note (watcher, Sync or a write) changes the answer for every note
// linking to it at once, with nothing to keep up to date.

// brokenAnchor is one broken anchor of a note.
type brokenAnchor struct {
	link vault.Link
	// name is the note the link points into, as a message names it: its
	// file name, or "this note" for a same-note link ([[#Nope]]).
	name string
	// problem says what that note lacks: `no heading "Nope"`.
	problem string
}

// brokenAnchors returns the broken anchors of ns in file order (caller
// holds e.mu). Links to attachments (a PDF page, an image) and broken
// links are not anchors to check.
func (e *Engine) brokenAnchors(ns *noteState) []brokenAnchor {
	if ns.lazy != nil && ns.lazy.text.Anchored() == 0 {
		return nil // no link of the note names a heading or block
	}
	var out []brokenAnchor
	for i, l := range ns.eachAnchor() {
		if l.Fragment == "" || l.Kind == vault.KindImage || i >= len(ns.status) {
			continue
		}
		target, name := ns.note, "this note"
		switch ns.status[i] {
		case vault.Self: // [[#Heading]]: the note itself
		case vault.Resolved:
			t := e.notes[ns.resolved[i]]
			if t == nil {
				continue
			}
			target, name = t.note, vault.BaseName(t.note.ID)
		default:
			continue
		}
		if p := target.AnchorProblem(l.Fragment); p != "" {
			out = append(out, brokenAnchor{link: ns.link(i), name: name, problem: p})
		}
	}
	return out
}

// warning is the text of b in a note's warnings:
// `broken anchor [[Beta#Nope]] on line 3: Beta has no heading "Nope"`.
func (b brokenAnchor) warning() string {
	return fmt.Sprintf("broken anchor %s on line %d: %s has %s", b.link.BriefAnchor(), b.link.Line, b.name, b.problem)
}
