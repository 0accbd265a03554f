package vaultgraph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// writePlan is every file a rename, a move or a heading rename changes:
// the note's own new bytes and the new versions of the other files.
type writePlan struct {
	self      []byte // the note's new bytes, links fixed
	selfLinks []LinkChange
	ops       []commit.Op // the other files' new versions
	changes   []FileChange
	warnings  []string
}

// rewrite adds to p the file id (at path on disk) rewritten from old to
// out, with the links that changed. Its op says what the file held when
// it was read, so an edit made meanwhile is CONFLICT.
func (p *writePlan) rewrite(id, path string, old, out []byte, links []LinkChange) {
	p.ops = append(p.ops, commit.Op{Path: path, Data: out, CheckOld: true, Old: old})
	p.changes = append(p.changes, FileChange{Path: id, Action: ActionUpdate, Links: links})
}

// withSelf returns the file changes and ops of p with those of the note
// itself first, when its bytes change: id (from: its old ID, if any),
// at abs on disk, holding src when read.
func (p *writePlan) withSelf(id, from, abs string, src []byte) ([]FileChange, []commit.Op) {
	files, ops := []FileChange{}, []commit.Op(nil)
	if !bytes.Equal(p.self, src) {
		files = append(files, FileChange{Path: id, From: from, Action: ActionUpdate, Links: p.selfLinks})
		ops = append(ops, commit.Op{Path: abs, Data: p.self, CheckOld: true, Old: src})
	}
	return append(files, p.changes...), append(ops, p.ops...)
}

// readScanned reads the file id (at path on disk) that a scan found; ok
// is false when it is gone since.
func readScanned(id, path string) (data []byte, ok bool, err error) {
	data, ok, err = readFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", id, err)
	}
	return data, ok, nil
}

// readFile reads the file at p; ok is false, with no error, when it is
// gone (a note deleted since the engine learnt of it). Other errors are
// os.ReadFile's, for the caller to wrap.
func readFile(p string) (data []byte, ok bool, err error) {
	data, err = os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// openFound reads the note id for an update, checking ifMatch (see
// current). A note gone from disk is forgotten now.
func (e *Engine) openFound(ctx context.Context, id, ifMatch string) (src []byte, abs string, err error) {
	src, abs, err = e.current(id, ifMatch)
	if errors.Is(err, ErrNotFound) {
		if err := e.Sync(ctx, id); err != nil { // gone from disk: forget it now
			e.log.Warn("sync a note gone from disk", "id", id, "err", err)
		}
	}
	return src, abs, err
}

// applyOps writes ops, all or none; what names the write (e.g. "update
// "+id) and during the kind of change, for the error.
func (e *Engine) applyOps(ops []commit.Op, what, during string) error {
	if len(ops) == 0 {
		return nil
	}
	if err := commit.Apply(ops, e.commitOpts); err != nil {
		return e.commitErr(err, what, during)
	}
	return nil
}

// afterPlan brings the engine up to date with the files of plan once ops
// are written (ids: the note's paths before and after, then every file
// plan changed and the targets of ops' links) and answers res with the
// note id.
func (e *Engine) afterPlan(ctx context.Context, id string, plan *writePlan, ops []commit.Op, res *WriteResult, ids ...string) (*WriteResult, error) {
	paths := ids
	for _, c := range plan.changes {
		paths = append(paths, c.Path)
	}
	paths = append(paths, e.linkTargets(ops)...)
	return e.afterWrite(ctx, id, paths, res)
}
