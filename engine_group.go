package vaultgraph

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
	"github.com/vaultgraph/vaultgraph/vault/commit"
)

// Concurrent writes are committed as a group. A write that changes one
// file (a create, or an update of a note's content, tags or properties)
// holds e.writeMu for reading, reserves its note's path (so that two
// writes of one note still run one after the other, each against what the
// other wrote), works out its new bytes, then queues them. One of the
// queued writers commits for all: it takes everything queued, writes it
// with commit.ApplyGroup (temporary files synced in parallel, each folder
// synced once, under one hold of the vault's write lock), brings the
// engine and the index up to date in one pass (one SQLite transaction),
// and wakes every writer of the group with its own outcome. Writes that
// touch several files hold e.writeMu alone: no group is under way then.

// groupWrite is one write waiting in the group queue.
type groupWrite struct {
	op    commit.Op
	paths []string // vault paths to bring the engine up to date with
	// what names the write ("create X") and during the kind of change,
	// for its error (commitErr).
	what, during string
	err          error
	turn
}

// writeGroup is the queue of writes waiting for a commit, and the paths
// reserved by writes under way.
type writeGroup struct {
	mu     sync.Mutex
	writes batchQueue[*groupWrite]
	// syncs are the written groups waiting for the engine (syncGroup).
	syncs batchQueue[*groupSync]
	// reserved maps the folded path of each note a write is preparing or
	// committing to a channel closed when it is done.
	reserved map[string]chan struct{}
}

// reserve waits until no other write is under way for the note id and
// claims it; the caller calls the function it returns once its write is
// done (the engine up to date with it).
func (e *Engine) reserve(ctx context.Context, id string) (release func(), err error) {
	g := &e.group
	// Folded as e.index looks IDs up (letter case, NFC), so that two
	// spellings of one note wait for each other.
	key := vault.Fold(id)
	for {
		g.mu.Lock()
		busy, ok := g.reserved[key]
		if !ok {
			if g.reserved == nil {
				g.reserved = map[string]chan struct{}{}
			}
			done := make(chan struct{})
			g.reserved[key] = done
			g.mu.Unlock()
			return func() {
				g.mu.Lock()
				delete(g.reserved, key)
				g.mu.Unlock()
				close(done)
			}, nil
		}
		g.mu.Unlock()
		select {
		case <-busy:
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for another write of %s: %w", id, ctx.Err())
		}
	}
}

// writesBusy reports whether group writes are queued, being written or
// being indexed: background work (the embedder) waits for a gap.
func (e *Engine) writesBusy() bool {
	g := &e.group
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.writes.busy || g.syncs.busy || len(g.writes.queue) > 0
}

// commitGrouped writes op (one file, no Remove) in the next group commit
// and brings the engine up to date with paths; what and during name the
// write for its error (see commitErr). The caller holds e.writeMu for
// reading and has reserved the note the op writes.
func (e *Engine) commitGrouped(op commit.Op, paths []string, what, during string) error {
	w := &groupWrite{op: op, paths: paths, what: what, during: during, turn: newTurn()}
	var written *groupSync
	e.group.writes.run(&e.group.mu, w, func(batch []*groupWrite) {
		stand, paths := e.writeBatch(batch)
		written = &groupSync{stand: stand, paths: paths, turn: newTurn()}
	}, func([]*groupWrite) {
		// The first writer queued meanwhile writes the next group's files
		// while this one's are indexed.
		e.syncGroup(written)
	})
	return w.err
}

// groupSync is a group whose files are written, or paths the watcher
// saw change (no stand), waiting for the engine to take them in.
type groupSync struct {
	stand []*groupWrite
	paths []string
	err   error // the error of the pass that took them in
	turn
}

// syncGroup brings the engine up to date with a written group. Groups
// and watcher changes that wait meanwhile (the engine was busy with the
// previous one) are taken in together, in one pass and one index
// transaction, by the first of their leaders.
func (e *Engine) syncGroup(s *groupSync) {
	e.group.syncs.run(&e.group.mu, s, func(groups []*groupSync) {
		var stand []*groupWrite
		var paths []string
		for _, o := range groups {
			stand = append(stand, o.stand...)
			paths = append(paths, o.paths...)
		}
		err := e.syncBatch(stand, paths)
		for _, o := range groups {
			o.err = err
		}
	}, nil)
}

// groupWriting reports whether a group's files are being written (caller
// holds e.group.mu). The leader of the next sync waits for that group
// (batchQueue.coming), at most gatherFor, so that both are indexed in
// one pass: a pass costs CPU besides its notes (the commit, the
// full-text merge step, the statements).
func (e *Engine) groupWriting() bool { return e.group.writes.busy }

// syncChanged brings the engine up to date with paths changed outside
// it (the watcher's) in the next pass of the group syncs: with the
// groups written meanwhile, in one index transaction, rather than
// alternating with them for e.syncMu.
func (e *Engine) syncChanged(paths []string) error {
	s := &groupSync{paths: paths, turn: newTurn()}
	e.syncGroup(s)
	return s.err
}

// turn is an item's place in a batchQueue.
type turn struct {
	// wake is closed when the item's batch is done, or when the item is
	// to lead the next batch (lead).
	wake chan struct{}
	lead bool
}

func newTurn() turn { return turn{wake: make(chan struct{})} }

// place gives the turn of an item that embeds it.
func (t *turn) place() *turn { return t }

// batchQueue takes items in batches: while one batch is under way, the
// items that arrive wait, and when it is done the first of them leads
// the next batch, which takes them all. Its lock is the caller's.
type batchQueue[T interface{ place() *turn }] struct {
	queue []T
	busy  bool // a batch is under way
	// coming, when not nil, reports (under the caller's lock) that more
	// items are on their way: a leader waits for them, at most
	// gatherFor, before it takes the batch (see syncGather).
	coming func() bool
}

// gatherFor bounds how long a batch's leader waits for the items
// batchQueue.coming announces; gatherPoll is how often it looks again.
const (
	gatherFor  = 10 * time.Millisecond
	gatherPoll = 500 * time.Microsecond
)

// run queues x and waits for its batch. If x leads the batch, run calls
// work with every item queued, hands the queue to the next leader, calls
// then with the batch (unless it is nil) and wakes the batch's other
// items; otherwise it returns once the batch's leader woke it. mu guards
// q.
func (q *batchQueue[T]) run(mu *sync.Mutex, x T, work, then func(batch []T)) {
	mu.Lock()
	q.queue = append(q.queue, x)
	if q.busy {
		mu.Unlock()
		<-x.place().wake
		if !x.place().lead {
			return
		}
		mu.Lock()
	}
	q.busy = true
	if q.coming != nil {
		for until := time.Now().Add(gatherFor); q.coming() && time.Now().Before(until); {
			mu.Unlock()
			time.Sleep(gatherPoll)
			mu.Lock()
		}
	}
	batch := q.queue
	q.queue = nil
	mu.Unlock()

	work(batch)

	mu.Lock()
	if len(q.queue) > 0 {
		next := q.queue[0].place()
		next.lead = true
		close(next.wake)
	} else {
		q.busy = false
	}
	mu.Unlock()
	if then != nil {
		then(batch)
	}
	for _, o := range batch {
		if o.place() != x.place() {
			close(o.place().wake)
		}
	}
}

// writeBatch writes the files of one group, setting the error of each
// write that fails; it returns the writes that stand and the vault paths
// to bring the engine up to date with.
func (e *Engine) writeBatch(batch []*groupWrite) (stand []*groupWrite, paths []string) {
	ops := make([]commit.Op, len(batch))
	for i, w := range batch {
		ops[i] = w.op
	}
	errs := commit.ApplyGroup(ops, e.commitOpts)
	for i, w := range batch {
		if errs[i] != nil {
			w.err = e.commitErr(errs[i], w.what, w.during)
		}
		if errs[i] == nil || errors.Is(errs[i], commit.ErrCommitted) {
			stand = append(stand, w)
			paths = append(paths, w.paths...)
			paths = append(paths, e.linkTargets(ops[i:i+1])...)
		}
	}
	return stand, paths
}

// syncBatch brings the engine up to date with paths, those the writes
// stand wrote and those the watcher saw change, in one pass (one index
// transaction), and returns its error.
func (e *Engine) syncBatch(stand []*groupWrite, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	// The files are written: the engine follows whatever the writers'
	// contexts say now.
	err := e.Sync(context.Background(), paths...)
	if err != nil {
		for _, w := range stand {
			if w.err == nil {
				w.err = fmt.Errorf("index after write: %w", err)
			}
		}
	}
	return err
}

// heavyPerCore bounds the searches that run at once, per core: with one
// per core, searches waited in line while writers waited on their fsync
// with a core idle. The bound keeps a burst of searches' memory bounded.
const heavyPerCore = 16

// heavyRead waits until fewer CPU-bound reads (searches) run than
// heavyPerCore times the cores, and returns the function that ends this
// one.
func (e *Engine) heavyRead(ctx context.Context) (done func(), err error) {
	select {
	case e.heavy <- struct{}{}:
		return func() { <-e.heavy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
