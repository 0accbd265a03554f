package commit

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
)

// maxParallelSyncs bounds the temporary files a group writes and syncs at
// once: concurrent fsyncs share the file system's journal commits, so a
// group of writes costs about one fsync, not one per file.
const maxParallelSyncs = 32

// ApplyGroup applies independent single-file writes (Ops without Remove)
// together, under one hold of the vault's write lock (with a Root), and
// returns one error per op, nil for each write that stands. It is what
// many concurrent writers would get from one Apply each, for the price of
// about one: the temporary files are written and synced in parallel, then
// each op is checked (CheckOld, IfAbsent) and renamed into place, then
// every folder touched is synced once.
//
// Each op is its own commit: one that fails (a *ChangedError for a file
// changed since it was read, or any other error) is undone alone, and the
// others still go ahead. A crash at any point leaves each file old or new,
// never a part of one, and at most temporary files, which Recover removes:
// a write that replaces one file needs no journal, since its rename is
// atomic. A caller acknowledges a write only once ApplyGroup returned, so
// the folders holding it are synced by then.
//
// An error met after an op's rename (syncing its folder) wraps
// ErrCommitted: that write stands. A Remove, a relative path, a path
// outside Root or one given twice fails that op only; an error taking the
// lock fails them all.
func ApplyGroup(ops []Op, opts Options) []error {
	g := newGroup(ops, opts)
	g.run()
	return g.errs
}

// group is an ApplyGroup under way: one single-op txn per op (nil once
// the op has failed).
type group struct {
	txns   []*txn
	errs   []error
	opts   Options
	mu     sync.Mutex // guards counts: temporary files are written in parallel
	counts map[string]int
	// crash is for tests: a step that fails stops the group where it is,
	// nothing undone, as a killed process would.
	crash   bool
	stopped bool
}

func newGroup(ops []Op, opts Options) *group {
	g := &group{txns: make([]*txn, len(ops)), errs: make([]error, len(ops)), opts: opts, counts: map[string]int{}}
	for i, op := range ops {
		if op.Remove {
			g.errs[i] = fmt.Errorf("commit: %s: a group takes writes only; remove files with Apply", op.Path)
			continue
		}
		if err := checkOps([]Op{op}, opts.Root); err != nil {
			g.errs[i] = err
			continue
		}
		c := newTxn([]Op{op}, Options{Root: opts.Root})
		c.failAt = func(step string, _ int) error { return g.step(step) }
		g.txns[i] = c
	}
	return g
}

// step asks the FailAt hook about a step, counted over the whole group.
func (g *group) step(name string) error {
	if g.opts.FailAt == nil {
		return nil
	}
	g.mu.Lock()
	g.counts[name]++
	n := g.counts[name]
	g.mu.Unlock()
	if err := g.opts.FailAt(name, n); err != nil {
		if g.crash {
			g.stopped = true
		}
		return err
	}
	return nil
}

// fail undoes the op i and records its error.
func (g *group) fail(i int, err error) {
	g.errs[i] = g.txns[i].undo(err)
	g.txns[i] = nil
}

// live lists the ops still under way.
func (g *group) live() []int {
	var out []int
	for i, c := range g.txns {
		if c != nil {
			out = append(out, i)
		}
	}
	return out
}

func (g *group) run() {
	if len(g.live()) == 0 {
		return
	}
	if g.opts.Root != "" {
		lk, err := lockForCommit(g.opts.Root, g.opts.LockWait)
		if err != nil {
			for _, i := range g.live() { // nothing was done
				g.txns[i], g.errs[i] = nil, err
			}
			return
		}
		defer func() { _ = lk.Unlock() }()
	}
	g.resolve()
	for _, i := range g.live() {
		c := g.txns[i]
		if err := c.mkdirAll(filepath.Dir(c.ops[0].Path)); err != nil {
			if g.stopped {
				return
			}
			g.fail(i, err)
		}
	}
	g.writeTemps()
	if g.stopped {
		return
	}
	for _, i := range g.live() {
		c := g.txns[i]
		err := c.checkAll()
		if err == nil {
			err = c.install()
		}
		if g.stopped {
			return
		}
		if err != nil {
			g.fail(i, err)
		}
	}
	g.syncFolders()
}

// resolve follows the symlinks of the ops' paths (see Apply); an op whose
// file another op of the group also writes fails.
func (g *group) resolve() {
	seen := map[string]int{}
	for _, i := range g.live() {
		c := g.txns[i]
		if err := c.followLinks(); err != nil {
			g.fail(i, err)
			continue
		}
		p := filepath.Clean(c.ops[0].Path)
		if j, ok := seen[p]; ok {
			g.fail(i, fmt.Errorf("%s: the group already writes this file (as %s): write it again once that write is done", c.ops[0].given, g.txns[j].ops[0].given))
			continue
		}
		seen[p] = i
	}
}

// writeTemps writes and syncs every op's temporary file, in parallel (one
// at a time under a FailAt hook, so that its steps come in order).
func (g *group) writeTemps() {
	live := g.live()
	errs := make([]error, len(g.txns))
	if g.opts.FailAt != nil {
		for _, i := range live {
			if errs[i] = g.txns[i].writeTemp(&g.txns[i].ops[0]); g.stopped {
				return
			}
		}
	} else {
		var wg sync.WaitGroup
		sem := make(chan struct{}, maxParallelSyncs)
		for _, i := range live {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				errs[i] = g.txns[i].writeTemp(&g.txns[i].ops[0])
			})
		}
		wg.Wait()
	}
	for _, i := range live {
		if errs[i] != nil {
			g.fail(i, errs[i])
		}
	}
}

// syncFolders syncs once each folder that an op's file went into, and the
// parent of each folder made; an error fails the ops in that folder with
// ErrCommitted (their files are in place).
func (g *group) syncFolders() {
	byDir := map[string][]int{}
	for _, i := range g.live() {
		for _, d := range g.txns[i].folders() {
			byDir[d] = append(byDir[d], i)
		}
	}
	syncEach(slices.Collect(maps.Keys(byDir)), func(d string, err error) {
		for _, i := range byDir[d] {
			if g.errs[i] == nil {
				g.errs[i] = fmt.Errorf("commit: %w: sync %s: %w", ErrCommitted, d, err)
			}
		}
	})
}
