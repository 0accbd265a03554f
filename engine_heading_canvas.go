package vaultgraph

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/vaultgraph/vaultgraph/vault"
)

// planHeadingCanvas adds to plan the canvas f with the links of its text
// nodes to the heading h of the renamed note rewritten to name link, as a note's links
// are; only those JSON strings' bytes change, and each text node is read
// again to check it. A canvas that is not valid JSON, or a text node whose
// escapes cannot be mapped, is left as it is (no link of it is known to
// point at the heading, or it could not be written): a warning.
func (e *Engine) planHeadingCanvas(plan *headingPlan, check anchorCheck, f vault.File, h int, link string, toID func(string, vault.Link) bool) error {
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // gone since the scan
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", f.ID, err)
	}
	c, err := vault.ParseCanvas(data)
	if err != nil {
		plan.warnings = append(plan.warnings, fmt.Sprintf("%s was left as it is: %v; if its text links to the heading, fix it by hand", f.ID, err))
		return nil
	}
	var edits []vault.Edit
	var changes []LinkChange
	newTexts := map[int]string{}
	for i, t := range c.Texts {
		text := []byte(t.Value)
		m, err := e.parser.ParseForRewrite(f.ID, text)
		if err != nil {
			return fmt.Errorf("parse a text node of %s (line %d): %w", f.ID, t.Line, err)
		}
		ted, tch, want, err := anchorEdits(f.ID, text, m.Links, check.before, h, link, toID)
		if err != nil {
			return err
		}
		if len(ted) == 0 {
			continue
		}
		out, err := vault.ApplyEdits(text, ted)
		if err != nil {
			return fmt.Errorf("rewrite a text node of %s (line %d): %w", f.ID, t.Line, err)
		}
		if err := check.verify(e.parser, f.ID, out, m.Links, want, nil); err != nil {
			return err
		}
		mapped, err := vault.CanvasTextEdits(data, t, ted)
		if err != nil {
			plan.warnings = append(plan.warnings, fmt.Sprintf("%s: the links of a text node (line %d) were left as they are: %v", f.ID, t.Line, err))
			continue
		}
		edits = append(edits, mapped...)
		newTexts[i] = string(out)
		for _, ch := range tch {
			ch.Line = t.Line
			changes = append(changes, ch)
		}
	}
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
	for i, t := range c.Texts {
		want, ok := newTexts[i]
		if !ok {
			want = t.Value
		}
		if got.Texts[i].Value != want {
			return fmt.Errorf("%w: %s line %d: a text node would read %q instead of %q; nothing was written", ErrInvalid, f.ID, t.Line, got.Texts[i].Value, want)
		}
	}
	plan.ops = append(plan.ops, vault.FileOp{Path: f.Path, Data: out, CheckOld: true, Old: data})
	plan.changes = append(plan.changes, FileChange{Path: f.ID, Action: ActionUpdate, Links: changes})
	return nil
}
