package vaultgraph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// RepairRequest says which pending rename repairs RepairLinks works on.
type RepairRequest struct {
	// From picks the repairs of the note that was at this path (any
	// letter case, with or without .md, or its bare name); empty means
	// every pending repair.
	From string
	// To picks one candidate of an ambiguous repair: the note's new path.
	To string
	// Apply rewrites the links; without it RepairLinks is a dry run.
	Apply bool
}

// RepairResult is what RepairLinks did or would do.
type RepairResult struct {
	// Repairs are the repairs worked on: applied, or with Apply false,
	// pending.
	Repairs []RenameRepair `json:"repairs"`
	// Files lists every file rewritten (or that would be), with its links.
	Files []FileChange `json:"files"`
	// DryRun is set when nothing was written.
	DryRun bool `json:"dryRun,omitempty"`
	// Warnings name repairs skipped (ambiguous ones when applying all)
	// and links that cannot be rewritten.
	Warnings []string `json:"warnings,omitempty"`
}

// RepairLinks lists or applies the pending repairs of renames made
// outside vaultgraph: each rewrites the links that still point at the
// note's old path, in every note, excluded note and canvas, exactly as
// UpdateNode does for a rename (same styles, verified, all files or
// none). Without req.Apply it is a dry run listing the changes. Applying
// every repair skips the ambiguous ones (with a warning); an ambiguous
// one is applied by naming it with From and To.
func (e *Engine) RepairLinks(ctx context.Context, req RepairRequest) (*RepairResult, error) {
	unlock, err := e.lockWrite(req.Apply)
	if err != nil {
		return nil, err
	}
	defer unlock()
	picked, err := e.pickRepairs(req)
	if err != nil {
		return nil, err
	}
	res := &RepairResult{Repairs: []RenameRepair{}, Files: []FileChange{}, DryRun: !req.Apply}
	together := e.sureRepairs()
	for _, r := range picked {
		if req.Apply && r.Ambiguous && req.To == "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s -> %s skipped: ambiguous (another candidate fits); apply it with from and to", r.From, r.To))
			continue
		}
		files, warnings, err := e.repairOne(ctx, r, together, req.Apply)
		if err != nil {
			if len(picked) == 1 {
				return nil, err
			}
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s -> %s not repaired: %v", r.From, r.To, err))
			continue
		}
		res.Repairs = append(res.Repairs, r)
		res.Files = append(res.Files, files...)
		res.Warnings = append(res.Warnings, warnings...)
	}
	return res, nil
}

// pickRepairs returns the pending repairs req names (caller holds
// e.writeMu).
func (e *Engine) pickRepairs(req RepairRequest) ([]RenameRepair, error) {
	all, err := e.PendingRenames()
	if err != nil {
		return nil, err
	}
	from, to := strings.TrimSpace(req.From), strings.TrimSpace(req.To)
	if from == "" && to == "" {
		return all, nil
	}
	picked := slices.DeleteFunc(all, func(r RenameRepair) bool {
		return (from != "" && !namesNote(from, r.From)) || (to != "" && !namesNote(to, r.To))
	})
	switch {
	case len(picked) == 0:
		return nil, fmt.Errorf("%w: no pending repair matches from %q to %q: list them without from", ErrNotFound, from, to)
	case req.Apply && to == "" && len(picked) > 1 && picked[0].Ambiguous:
		var tos []string
		for _, r := range picked {
			tos = append(tos, r.To)
		}
		return nil, fmt.Errorf("%w: %s may have become any of %s: give to", ErrInvalid, picked[0].From, strings.Join(tos, ", "))
	}
	return picked, nil
}

// namesNote reports whether what a caller wrote names the note id: its
// path in any letter case, with or without .md, or its bare name.
func namesNote(given, id string) bool {
	g := vault.Fold(vault.TrimMD(strings.TrimPrefix(given, "/")))
	return g == vault.Fold(vault.TrimMD(id)) || g == vault.Fold(vault.BaseName(id))
}

// repairOne works out the repair r and, with apply, writes it, all files
// or none, and brings the engine up to date; it returns the files changed
// (caller holds e.writeMu). together are the notes moved at the same time
// as r (old ID -> new ID), such as the other notes of a folder moved.
func (e *Engine) repairOne(ctx context.Context, r RenameRepair, together map[string]string, apply bool) ([]FileChange, []string, error) {
	abs, ok := e.pathOf(r.To)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %s is no longer a note", ErrNotFound, r.To)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", r.To, err)
	}
	if err := e.learnExcluded(); err != nil {
		return nil, nil, fmt.Errorf("repair links to %s: %w", r.From, err)
	}
	plan, err := e.planRepair(r, src, together)
	if err != nil {
		return nil, nil, err
	}
	files, ops := plan.withSelf(r.To, r.From, abs, src)
	if !apply {
		return files, plan.warnings, nil
	}
	if err := e.applyOps(ops, "repair links to "+r.From, "repair"); err != nil {
		return nil, nil, err
	}
	e.dropRepair(r)
	e.log.Info("repaired the links of a rename made outside vaultgraph", "from", r.From, "to", r.To, "files", len(files))
	if _, err := e.afterPlan(ctx, "", plan, ops, &WriteResult{}, r.To); err != nil {
		return nil, nil, err
	}
	return files, plan.warnings, nil
}

// planRepair plans the rewrite of the links that still mean r.From so
// that they point at r.To, where the note (holding src) now is: a move
// whose index before has the note at From, and the other notes moved
// with it (together) at their old paths, and after is the engine's.
func (e *Engine) planRepair(r RenameRepair, src []byte, together map[string]string) (*writePlan, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if _, ok := e.index.Note(r.From); ok {
		return nil, fmt.Errorf("%w: %s is a note again: nothing to repair", ErrNotFound, r.From)
	}
	also := map[string]string{}
	for from, to := range together {
		_, gone := e.index.Note(from)
		if _, here := e.notes[to]; from != r.From && to != r.To && here && !gone {
			also[from] = to
		}
	}
	old := e.index.Clone()
	old.RemoveNote(r.To)
	for _, to := range also {
		old.RemoveNote(to)
	}
	old.AddNote(r.From)
	for from := range also {
		old.AddNote(from)
	}
	return e.planMove(&vault.Move{Parser: e.parser, Old: old, New: e.index, From: r.From, To: r.To, Also: also}, src)
}

// sureRepairs are the pending repairs that are not ambiguous and the
// moves found lately, as old ID -> new ID: the notes taken to have moved
// together (planRepair keeps those still moved).
func (e *Engine) sureRepairs() map[string]string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := map[string]string{}
	for _, m := range e.renames.moves {
		out[m.from] = m.to
	}
	for _, r := range e.renames.pending {
		if !r.Ambiguous {
			out[r.From] = r.To
		}
	}
	return out
}

// dropRepair removes r from the pending repairs, with the other
// candidates of the same note (its other Tos) and of the same new note
// (its other Froms); the next pass stores the list.
func (e *Engine) dropRepair(r RenameRepair) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.renames.pending = slices.DeleteFunc(e.renames.pending, func(o RenameRepair) bool {
		return o.From == r.From || o.To == r.To
	})
	e.renames.dirty = true
}

// followRenames applies every pending repair that is not ambiguous
// (Options.FollowRenames); a failure is logged and the repair stays
// pending.
func (e *Engine) followRenames(ctx context.Context) {
	if !e.opts.FollowRenames || e.opts.ReadOnly {
		return
	}
	pending, err := e.PendingRenames()
	if err != nil || !slices.ContainsFunc(pending, func(r RenameRepair) bool { return !r.Ambiguous }) {
		return
	}
	res, err := e.RepairLinks(ctx, RepairRequest{Apply: true})
	if err != nil {
		if !errors.Is(err, ErrClosed) && ctx.Err() == nil {
			e.log.Error("follow renames", "err", err)
		}
		return
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w, "ambiguous") {
			e.log.Warn("follow renames", "warning", w)
		}
	}
}
