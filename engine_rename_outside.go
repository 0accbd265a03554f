package vaultgraph

import (
	"bytes"
	"fmt"
	"os"
	"slices"

	"github.com/vaultgraph/vaultgraph/vault"
)

// planOutside adds to plan the files beyond the graph's notes that the
// move of oldID to newID changes, as Obsidian rewrites them: notes the
// user's filters exclude (their links, by the same rules as any note's)
// and canvases (file nodes showing oldID, and links in text nodes). A
// canvas that is not valid JSON is left as it is, with a warning. Caller
// holds e.mu for reading.
func (e *Engine) planOutside(plan *writePlan, m *vault.Move) error {
	for _, f := range e.outsideFiles() {
		if !vault.IsCanvas(f.ID) && !e.exclRefs.mayLink(e.parser, f, refKey(m.From), refKey(m.To)) {
			continue
		}
		data, ok, err := readScanned(f.ID, f.Path)
		if err != nil {
			return err
		}
		if !ok {
			continue // gone since the scan
		}
		var out []byte
		var changes []LinkChange
		if vault.IsCanvas(f.ID) {
			var warnings []string
			out, changes, warnings, err = retargetCanvas(m, f.ID, data)
			plan.warnings = append(plan.warnings, warnings...)
		} else {
			_, out, changes, err = m.Note(f.ID, data)
			err = invalidLink(err)
		}
		if err != nil {
			return err
		}
		if out == nil {
			continue
		}
		plan.rewrite(f.ID, f.Path, data, out, changes)
	}
	return nil
}

// retargetCanvas works out the new bytes of the canvas id (data, as read)
// while a note moves (m): its file nodes showing m.From show m.To, and
// the links of its text nodes keep pointing where they did. Only those
// JSON strings' bytes change. out is nil when nothing does; a
// canvas that cannot be read as JSON Canvas is a warning, not an error.
func retargetCanvas(m *vault.Move, id string, data []byte) (out []byte, changes []LinkChange, warnings []string, err error) {
	c, err := vault.ParseCanvas(data)
	if err != nil {
		return nil, nil, []string{fmt.Sprintf("%s was left as it is: %v; if it shows %s, fix it by hand", id, err, m.From)}, nil
	}
	edits := vault.RetargetCanvasFiles(c, m.From, m.To)
	for _, ed := range edits {
		line := 1 + bytes.Count(data[:ed.Start], []byte("\n"))
		changes = append(changes, LinkChange{Line: line, Old: string(data[ed.Start:ed.End]), New: ed.Text})
	}
	rw, err := c.RewriteTexts(id, data, func(t vault.CanvasString) ([]vault.Edit, []byte, []LinkChange, error) {
		ted, newText, tch, err := m.Note(id, []byte(t.Value))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: a text node (line %d): %w", id, t.Line, invalidLink(err))
		}
		return ted, newText, tch, nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	edits, changes, warnings = append(edits, rw.Edits...), append(changes, rw.Changes...), rw.Warnings
	if len(edits) == 0 {
		return nil, nil, warnings, nil
	}
	if out, err = vault.ApplyEdits(data, edits); err != nil {
		return nil, nil, nil, fmt.Errorf("rewrite %s: %w", id, err)
	}
	if err := verifyCanvas(id, out, c, m.From, m.To, rw.NewTexts); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: nothing was written", err)
	}
	slices.SortStableFunc(changes, func(a, b LinkChange) int { return a.Line - b.Line })
	return out, changes, warnings, nil
}

// verifyCanvas reads the rewritten canvas out again and checks that it
// is still a canvas with the same nodes as before (c): the file nodes
// that showed oldID show newID, the others what they did, and each text
// node holds its new text (newTexts, by index) or its old one. The last
// guard before any byte is written.
func verifyCanvas(id string, out []byte, c *vault.Canvas, oldID, newID string, newTexts map[int]string) error {
	got, err := vault.ParseCanvas(out)
	if err != nil {
		return fmt.Errorf("%s after rewriting: %w", id, err)
	}
	if len(got.Files) != len(c.Files) || len(got.Texts) != len(c.Texts) {
		return fmt.Errorf("%s after rewriting has %d file and %d text nodes, not %d and %d", id, len(got.Files), len(got.Texts), len(c.Files), len(c.Texts))
	}
	for i, f := range c.Files {
		want := f.Value
		if f.Names(oldID) {
			want = newID
		}
		if got.Files[i].Value != want {
			return fmt.Errorf("%s line %d: the file node would show %q instead of %q", id, f.Line, got.Files[i].Value, want)
		}
	}
	if t, have, want, ok := c.TextMismatch(got, newTexts); ok {
		return fmt.Errorf("%s line %d: a text node would read %q instead of %q", id, t.Line, have, want)
	}
	return nil
}

// outsideIncoming finds what beyond the graph's notes shows or links the
// note id, for the warnings of its deletion: the links of excluded notes
// and of canvas text nodes that resolve to it, and a warning per canvas
// whose file nodes show it.
func (e *Engine) outsideIncoming(id string) (links []incoming, warnings []string) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	resolving := func(source string, line int, text []byte) {
		n, err := e.parser.Parse(source, text)
		if err != nil {
			return
		}
		for _, l := range n.Links {
			if to, st := e.index.Resolve(source, l); st == vault.Resolved && to == id {
				if line > 0 {
					l.Line = line
				}
				links = append(links, incoming{source: source, line: l.Line, text: l.Brief(), link: l})
			}
		}
	}
	for _, f := range e.outsideFiles() {
		if !vault.IsCanvas(f.ID) && !e.exclRefs.mayLink(e.parser, f, refKey(id)) {
			continue
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			continue
		}
		if !vault.IsCanvas(f.ID) {
			resolving(f.ID, 0, data)
			continue
		}
		c, err := vault.ParseCanvas(data)
		if err != nil {
			continue
		}
		if vault.CanvasShows(c, id) {
			warnings = append(warnings, fmt.Sprintf("%s shows this note; it will show a missing file", f.ID))
		}
		for _, t := range c.Texts {
			resolving(f.ID, t.Line, []byte(t.Value))
		}
	}
	return links, warnings
}
