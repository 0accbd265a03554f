package vaultgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// planHeadingCanvas adds to plan the canvas f with the links of its text
// nodes to the heading h of the renamed note id rewritten to name link, as
// a note's links are, and the "subpath" of its file nodes showing id too;
// only those JSON strings' bytes change (Canvas.RewriteTexts,
// RenameCanvasSubpaths), and the canvas is read again to check it. A
// canvas that is not valid JSON, or a text node whose escapes cannot be
// mapped, is left as it is (no link of it is known to point at the
// heading, or it could not be written): a warning.
func (e *Engine) planHeadingCanvas(plan *writePlan, check vault.HeadingCheck, f vault.File, id string, h int, link string, toID func(string, vault.Link) bool) error {
	data, ok, err := readScanned(f.ID, f.Path)
	if !ok {
		return err
	}
	c, err := vault.ParseCanvas(data)
	if err != nil {
		plan.warnings = append(plan.warnings, fmt.Sprintf("%s was left as it is: %v; if its text links to the heading, fix it by hand", f.ID, err))
		return nil
	}
	rw, err := c.RewriteTexts(f.ID, data, func(t vault.CanvasString) ([]vault.Edit, []byte, []LinkChange, error) {
		where := fmt.Sprintf("a text node of %s (line %d)", f.ID, t.Line)
		return e.headingLinkEdits(check, f.ID, where, []byte(t.Value), h, link, toID)
	})
	if err != nil {
		return err
	}
	plan.warnings = append(plan.warnings, rw.Warnings...)
	subEdits, subChanges := vault.RenameCanvasSubpaths(c, id, check.Before, h, link)
	edits := append(rw.Edits, subEdits...)
	if len(edits) == 0 {
		return nil
	}
	out, err := vault.ApplyEdits(data, edits)
	if err != nil {
		return fmt.Errorf("rewrite %s: %w", f.ID, err)
	}
	// The canvas read again: the same nodes, the text nodes as meant.
	got, err := vault.ParseCanvas(out)
	if err != nil || len(got.Texts) != len(c.Texts) || len(got.Files) != len(c.Files) {
		return fmt.Errorf("%w: %s would not read as the same canvas after the heading rename; nothing was written", ErrInvalid, f.ID)
	}
	if t, have, want, ok := c.TextMismatch(got, rw.NewTexts); ok {
		return fmt.Errorf("%w: %s line %d: a text node would read %q instead of %q; nothing was written", ErrInvalid, f.ID, t.Line, have, want)
	}
	if subpathsNaming(got, id, check.After, h) != subpathsNaming(c, id, check.Before, h) {
		return fmt.Errorf("%w: %s: its file nodes' subpaths would not name the renamed heading; nothing was written", ErrInvalid, f.ID)
	}
	plan.rewrite(f.ID, f.Path, data, out, append(rw.Changes, subChanges...))
	return nil
}

// subpathsNaming counts the file nodes of c showing the note id whose
// subpath names the heading h of a.
func subpathsNaming(c *vault.Canvas, id string, a *vault.Anchors, h int) int {
	n := 0
	for _, f := range c.Files {
		if f.Subpath != nil && f.Names(id) && slices.Contains(a.Headings(strings.TrimPrefix(f.Subpath.Value, "#")), h) {
			n++
		}
	}
	return n
}
