package vault

import (
	"fmt"
	"strings"
)

// CanvasRewrite is what RewriteTexts makes of a canvas's text nodes.
type CanvasRewrite struct {
	// Edits are the edits of the canvas's bytes.
	Edits []Edit
	// NewTexts holds each rewritten text node's new text, by its index in
	// Canvas.Texts.
	NewTexts map[int]string
	// Changes are the links changed, each with the line of its node.
	Changes []LinkChange
	// Warnings name the text nodes left as they are.
	Warnings []string
}

// RewriteTexts rewrites the links of the text nodes of c, the canvas id
// read from data: rewrite gives the edits of one node's text, its new
// text (nil when nothing changes) and the links changed, or an error that
// stops the rewrite. Only those JSON strings' bytes change
// (CanvasTextEdits); a node whose edits cannot be mapped back through its
// JSON escapes is left as it is, with a warning.
func (c *Canvas) RewriteTexts(id string, data []byte, rewrite func(t CanvasString) ([]Edit, []byte, []LinkChange, error)) (*CanvasRewrite, error) {
	rw := &CanvasRewrite{NewTexts: map[int]string{}}
	for i, t := range c.Texts {
		ted, newText, changes, err := rewrite(t)
		if err != nil {
			return nil, err
		}
		if newText == nil {
			continue
		}
		mapped, err := CanvasTextEdits(data, t, ted)
		if err != nil {
			rw.Warnings = append(rw.Warnings, fmt.Sprintf("%s: the links of a text node (line %d) were left as they are: %v", id, t.Line, err))
			continue
		}
		rw.Edits = append(rw.Edits, mapped...)
		rw.NewTexts[i] = string(newText)
		for _, ch := range changes {
			ch.Line = t.Line
			rw.Changes = append(rw.Changes, ch)
		}
	}
	return rw, nil
}

// TextMismatch compares got, the canvas read again after RewriteTexts,
// with c: it returns the first text node of c whose text in got is not
// newTexts[i] (or, when absent, its old text), with what got holds and
// what was wanted; ok is false when every one matches. got must have as
// many text nodes as c.
func (c *Canvas) TextMismatch(got *Canvas, newTexts map[int]string) (t CanvasString, have, want string, ok bool) {
	for i, t := range c.Texts {
		want, changed := newTexts[i]
		if !changed {
			want = t.Value
		}
		if got.Texts[i].Value != want {
			return t, got.Texts[i].Value, want, true
		}
	}
	return CanvasString{}, "", "", false
}

// RenameCanvasSubpaths returns the edits that make the "subpath" of every
// file node of c showing the vault path note name the heading h of a
// (Anchors of that note) by text instead, as Anchors.Rename rewrites a
// link's fragment, with a change for each; only those JSON strings
// change.
func RenameCanvasSubpaths(c *Canvas, note string, a *Anchors, h int, text string) ([]Edit, []LinkChange) {
	var edits []Edit
	var changes []LinkChange
	for _, f := range c.Files {
		sp := f.Subpath
		if sp == nil || !f.Names(note) {
			continue
		}
		frag, ok := strings.CutPrefix(sp.Value, "#")
		if !ok {
			continue
		}
		renamed, ok := a.Rename(frag, h, text)
		if !ok || renamed == frag {
			continue
		}
		quoted := QuoteJSON("#" + renamed)
		edits = append(edits, Edit{Start: sp.Start, End: sp.End, Text: quoted})
		changes = append(changes, LinkChange{Line: sp.Line, Old: QuoteJSON(sp.Value), New: quoted})
	}
	return edits, changes
}
