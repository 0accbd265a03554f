package vaultgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// HeadingRename renames a heading of a note (NoteUpdate.RenameHeading).
type HeadingRename struct {
	// From names the heading as a link's heading part does: its text,
	// compared as Obsidian compares it (vault.HeadingKey: letter case,
	// punctuation and spacing aside), or "Parent#Child" for the first
	// deeper heading after another; else it is matched as a heading's
	// whole text ("C# tips"). A text several headings have is refused.
	From string `json:"from"`
	// To is the heading's new text.
	To string `json:"to"`
}

// renameHeading is UpdateNode with RenameHeading: it writes the new text
// over the heading's text (its level and closing '#'s kept) and rewrites
// the heading part of every link to it, in the note and in every other
// note, keeping each link's style. All files are written, or none. u is
// checked (checkUpdate) and the note id opened (openForUpdate) under e.writeMu.
func (e *Engine) renameHeading(ctx context.Context, u NoteUpdate, id string, warnings []string, src []byte, abs string) (*WriteResult, error) {
	plan, err := e.planHeadingRename(id, src, u.RenameHeading.From, u.RenameHeading.To)
	if err != nil {
		return nil, err
	}
	files, ops := plan.withSelf(id, "", abs, src)
	res := &WriteResult{Warnings: append(warnings, plan.warnings...), Files: files}
	if u.DryRun {
		res.DryRun = true
		return res, nil
	}
	if err := e.applyOps(ops, "update "+id, "heading rename"); err != nil {
		return nil, err
	}
	return e.afterPlan(ctx, id, plan, ops, res, id)
}

// checkHeadingText checks the new text of a heading and returns it
// trimmed.
func checkHeadingText(to string) (string, error) {
	to = strings.TrimSpace(to)
	switch {
	case to == "":
		return "", fmt.Errorf("%w: renameHeading.to is empty: give the heading's new text", ErrInvalid)
	case strings.ContainsAny(to, "\r\n\x00"):
		return "", fmt.Errorf("%w: renameHeading.to holds a line break or NUL: a heading is one line", ErrInvalid)
	case vault.HeadingKey(vault.HeadingLinkText(to)) == "":
		return "", fmt.Errorf("%w: renameHeading.to %q has no letter or digit, so no link could name the heading", ErrInvalid, to)
	}
	return to, nil
}

// planHeadingRename works out the new bytes of the note id (src) with
// its heading from renamed to, and of every note linking to that heading.
// Each file is parsed again from disk, so the byte ranges are those of the
// bytes rewritten, and each result is parsed once more and checked before
// anything is written.
func (e *Engine) planHeadingRename(id string, src []byte, from, to string) (*writePlan, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	n, err := e.parser.ParseForRewrite(id, src)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", id, err)
	}
	h, err := pickHeading(id, n, from)
	if err != nil {
		return nil, err
	}
	link := vault.HeadingLinkText(to)
	for j, o := range n.Headings {
		if j != h && vault.HeadingKey(o.Text) == vault.HeadingKey(link) {
			return nil, fmt.Errorf("%w: %s already has the heading %q at line %d: links to %q would find that one instead; choose another text",
				ErrInvalid, id, o.Text, o.Line, link)
		}
	}
	toID := func(source string, l vault.Link) bool {
		if l.IsSelf() {
			return source == id
		}
		got, st := e.index.Resolve(source, l)
		return st == vault.Resolved && got == id
	}
	plan, check, err := e.planHeadingSelf(id, src, n, h, to, toID)
	if err != nil {
		return nil, err
	}
	// Every other note that may link to it, the notes the user's filters
	// exclude and the text nodes of canvases (Obsidian rewrites those too).
	for _, source := range e.refSources(id) {
		if source != id {
			if err := e.planHeadingLinks(plan, check, source, e.notes[source].path, h, link, toID); err != nil {
				return nil, err
			}
		}
	}
	for _, f := range e.outsideFiles() {
		var err error
		switch {
		case vault.IsCanvas(f.ID):
			err = e.planHeadingCanvas(plan, check, f, id, h, link, toID)
		case e.exclRefs.mayLink(e.parser, f, refKey(id)):
			err = e.planHeadingLinks(plan, check, f.ID, f.Path, h, link, toID)
		}
		if err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// planHeadingLinks adds to plan the new bytes of the note source (at
// path on disk) with its links to the heading h of the renamed note
// (check.Before) rewritten to name link, checked by check; a note with
// no such link is left out.
func (e *Engine) planHeadingLinks(plan *writePlan, check vault.HeadingCheck, source, path string, h int, link string, toID func(string, vault.Link) bool) error {
	data, ok, err := readScanned(source, path)
	if !ok {
		return err
	}
	edits, out, changes, err := e.headingLinkEdits(check, source, source, data, h, link, toID)
	if err != nil || len(edits) == 0 {
		return err
	}
	plan.rewrite(source, path, data, out, changes)
	return nil
}

// headingLinkEdits works out the edits of text (of the note or canvas
// id; where names it in errors) that make its links to the heading h of
// the renamed note name link, and its new text, checked by check. Text
// with no such link gives no edits and no error.
func (e *Engine) headingLinkEdits(check vault.HeadingCheck, id, where string, text []byte, h int, link string, toID func(string, vault.Link) bool) ([]vault.Edit, []byte, []LinkChange, error) {
	m, err := e.parser.ParseForRewrite(id, text)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("parse %s: %w", where, err)
	}
	edits, changes, want, err := check.Before.HeadingEdits(id, text, m.Links, h, link, toID)
	if err != nil || len(edits) == 0 {
		return nil, nil, nil, invalidLink(err)
	}
	out, err := vault.ApplyEdits(text, edits)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("rewrite links of %s: %w", where, err)
	}
	if err := check.Verify(e.parser, id, out, m.Links, want, nil); err != nil {
		return nil, nil, nil, invalidLink(err)
	}
	return edits, out, changes, nil
}

// planHeadingSelf works out the new bytes of the note id (src, parsed as
// n) with the text of its heading h replaced by to, and its own links to
// that heading rewritten (but those written in the heading's text, which
// goes), and checks them. It returns the check for the other notes too.
func (e *Engine) planHeadingSelf(id string, src []byte, n *vault.Note, h int, to string, toID func(string, vault.Link) bool) (*writePlan, vault.HeadingCheck, error) {
	hd := n.Headings[h]
	inHeading := func(l vault.Link) bool { return l.Start < hd.End && l.End > hd.Start }
	selfLinks := slices.DeleteFunc(slices.Clone(n.Links), inHeading)
	before := vault.NewAnchors(n)
	edits, changes, want, err := before.HeadingEdits(id, src, selfLinks, h, vault.HeadingLinkText(to), toID)
	if err != nil {
		return nil, vault.HeadingCheck{}, invalidLink(err)
	}
	plan := &writePlan{selfLinks: changes}
	if plan.self, err = vault.ApplyEdits(src, append(edits, vault.Edit{Start: hd.Start, End: hd.End, Text: to})); err != nil {
		return nil, vault.HeadingCheck{}, fmt.Errorf("rename the heading of %s: %w", id, err)
	}
	renamed, err := e.parser.Parse(id, plan.self)
	if err != nil {
		return nil, vault.HeadingCheck{}, fmt.Errorf("parse %s after renaming its heading: %w", id, err)
	}
	if len(renamed.Headings) != len(n.Headings) || renamed.Headings[h].Text != to {
		return nil, vault.HeadingCheck{}, fmt.Errorf("%w: %q cannot be written as the text of the heading at line %d of %s: markdown would not read it back as that heading (a closing '#', a line of '=' or '-'?); choose another text",
			ErrInvalid, to, hd.Line, id)
	}
	nh := renamed.Headings[h]
	newInHeading := func(l vault.Link) bool { return l.Start < nh.End && l.End > nh.Start }
	check := vault.HeadingCheck{Before: before, After: vault.NewAnchors(renamed), ToID: toID}
	if err := check.Verify(e.parser, id, plan.self, selfLinks, want, newInHeading); err != nil {
		return nil, vault.HeadingCheck{}, invalidLink(err)
	}
	return plan, check, nil
}

// pickHeading finds the heading of n that from names, as a link's heading
// part would, or else as the whole text of a heading ("C# tips", whose
// '#' a link cannot hold). A text that several headings have is refused:
// links find the first, but the caller may mean another.
func pickHeading(id string, n *vault.Note, from string) (int, error) {
	parts := vault.SplitAnchor(from)
	if len(parts) == 0 {
		return -1, fmt.Errorf("%w: renameHeading.from is empty: give the text of the heading to rename", ErrInvalid)
	}
	if strings.HasPrefix(strings.TrimSpace(parts[len(parts)-1]), "^") {
		return -1, fmt.Errorf("%w: renameHeading.from %q names a block, not a heading", ErrInvalid, from)
	}
	idx := vault.NewAnchors(n).Headings(from)
	h, text := idx[len(idx)-1], parts[0]
	if len(parts) > 1 {
		text = ""
		if h < 0 {
			h, text = slices.IndexFunc(n.Headings, func(hd vault.Heading) bool { return vault.HeadingKey(hd.Text) == vault.HeadingKey(from) }), from
		}
	}
	if h < 0 {
		var list []string
		for i, hd := range n.Headings {
			if i == 20 {
				list = append(list, "...")
				break
			}
			list = append(list, fmt.Sprintf("%q (line %d)", hd.Text, hd.Line))
		}
		if len(list) == 0 {
			return -1, fmt.Errorf("%w: %s has no headings, so none is %q", ErrInvalid, id, from)
		}
		return -1, fmt.Errorf("%w: %s has no heading %q; its headings are %s", ErrInvalid, id, from, strings.Join(list, ", "))
	}
	if text != "" {
		var lines []string
		for _, hd := range n.Headings {
			if vault.HeadingKey(hd.Text) == vault.HeadingKey(text) {
				lines = append(lines, fmt.Sprint(hd.Line))
			}
		}
		if len(lines) > 1 {
			return -1, fmt.Errorf("%w: %q matches the headings at lines %s of %s: name the one to rename by the heading before it, as a link would (\"Parent#%s\"); links without one go to the first",
				ErrInvalid, from, strings.Join(lines, ", "), id, vault.HeadingLinkText(text))
		}
	}
	return h, nil
}
