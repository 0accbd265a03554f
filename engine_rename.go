package vaultgraph

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/vaultgraph/vaultgraph/vault"
)

// planRename works out the new bytes of the note (self, already with its
// other edits) moving from oldID to newID, and of every note whose links
// would otherwise resolve differently after the move (vault.Move says
// how). Each file is read again from disk, so the byte ranges are those
// of the bytes rewritten.
func (e *Engine) planRename(oldID, newID string, self []byte) (*writePlan, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	m := &vault.Move{Parser: e.parser, Old: e.index, New: e.index, From: oldID, To: newID}
	if newID != oldID {
		m.New = e.index.Clone()
		m.New.RemoveNote(oldID)
		m.New.AddNote(newID)
	}
	return e.planMove(m, self)
}

// planMove is planRename for the move m, whose indexes are set up by the
// caller (who holds e.mu for reading): the new bytes of the moved note
// (self) and of every other file whose links must follow it.
func (e *Engine) planMove(m *vault.Move, self []byte) (*writePlan, error) {
	plan := &writePlan{}
	var err error
	if plan.self, plan.selfLinks, err = m.Self(self); err != nil {
		return nil, invalidLink(err)
	}
	if m.To == m.From {
		return plan, nil
	}
	// Every note that names the old or the new base name in a link.
	cands := map[string]bool{}
	for _, key := range []string{refKey(m.From), refKey(m.To)} {
		for _, src := range e.refIndex()[key] {
			if src != m.From && src != m.To {
				cands[src] = true
			}
		}
	}
	for _, src := range slices.Sorted(maps.Keys(cands)) {
		ns, ok := e.notes[src]
		if !ok {
			continue
		}
		data, err := os.ReadFile(ns.path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", src, err)
		}
		_, out, changes, err := m.Note(src, data)
		if err != nil {
			return nil, invalidLink(err)
		}
		if out == nil {
			continue
		}
		plan.rewrite(src, ns.path, data, out, changes)
	}
	// Excluded notes and canvases: Obsidian rewrites them too.
	if err := e.planOutside(plan, m); err != nil {
		return nil, err
	}
	return plan, nil
}

// invalidLink reports a link that a rewrite would break (a
// *vault.LinkError) as ErrInvalid: the request is at fault.
func invalidLink(err error) error {
	if le := (*vault.LinkError)(nil); errors.As(err, &le) {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return err
}
