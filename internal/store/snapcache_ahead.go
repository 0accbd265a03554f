package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// A cold index ends with a transaction that rewrites the anchor text of
// every note and finishes the full-text merges, on one core. A batch
// with Keep set writes the snapshot cache during that transaction, on
// the other core while the merges run, and the graph cache right after
// its commit, rather than KeepCache doing it on one core as the process
// closes.
//
// That is exact because of what such a batch writes. It writes no notes
// row (keepsAhead), so the notes the keeper reads, on a connection of its
// own in a read transaction taken while the batch's is under way, are
// those the batch commits; and once the batch made its last change to
// the tables a Snapshot holds (refreshAnchorsAfter), the rest of its
// transaction writes only the full-text tables, so the key it will
// commit is known: the keeper encodes the cache under that key while the
// transaction goes on. The attachments, problems and meta are read
// after the commit, in a read transaction that must still see that key;
// the cache file is put in place only then. A VACUUM after the commit
// changes only the key's schema version: the cache is written again
// behind the new key (rekey). A failed or different commit leaves no
// cache: Close keeps it as before (KeepCache). A process killed
// meanwhile leaves a temporary file, which a later encoder removes
// (snapcache_file.go).

// Keep asks Apply to write the snapshot cache, and the graph cache,
// for the state the batch commits, while its transaction runs.
type Keep struct {
	// Links answers for the notes' links as KeepCache's links does. It
	// is called on another goroutine while Apply runs.
	Links func(id string) (NoteLinks, bool)
	// Graph, when not nil, returns the bytes to store in the graph cache
	// under the same key (WriteGraphCache), on that goroutine too.
	Graph func() []byte
}

// keepAhead is a Keep under way in the transaction of one Apply.
type keepAhead struct {
	s    *Store
	ctx  context.Context
	keep *Keep
	last cacheKey // the key of the store's last commit: the notes the keeper reads
	// committed gets the key Apply committed (zero: it failed) and done
	// closes when the keeper ends; both only once start ran.
	committed chan cacheKey
	done      chan struct{}
}

// keepsAhead returns the keepAhead of batch b, nil when b asks for none,
// writes notes rows, or the store could not keep a cache (KeepCache).
// The caller holds s.wmu.
func (s *Store) keepsAhead(ctx context.Context, b *Batch) *keepAhead {
	if b.Keep == nil || len(b.Upserts)+len(b.Touches)+len(b.Deletes)+len(b.Reserve) > 0 ||
		s.keep.failed || s.keep.last == (cacheKey{}) {
		return nil
	}
	return &keepAhead{s: s, ctx: context.WithoutCancel(ctx), keep: b.Keep, last: s.keep.last}
}

// start begins keeping the caches, once the transaction of w made its
// last change to the tables a Snapshot holds, under the key it has now.
// The keeper's read transaction begins here, before w's can commit, so
// that it reads the notes as the store's last commit left them.
func (ka *keepAhead) start(w *writer) {
	if ka == nil || ka.done != nil {
		return
	}
	s, ctx := ka.s, ka.ctx
	k, ok := s.cacheKey(w.ctx, w.tx)
	if !ok {
		return
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return
	}
	// The keeper reads every notes row once, in order: a small page
	// cache does, and the pages a full one holds would add to the peak
	// RSS of the cold index while the writer merges. The connection goes
	// back to the pool with the usual cache.
	if _, err := conn.ExecContext(ctx, "PRAGMA cache_size("+keeperCachePages+")"); err != nil {
		conn.Close()
		return
	}
	release := func() {
		conn.ExecContext(context.Background(), "PRAGMA shrink_memory")
		conn.ExecContext(context.Background(), "PRAGMA cache_size("+poolCachePages+")")
		conn.Close()
	}
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		release()
		return
	}
	if last, ok := s.cacheKey(ctx, conn); !ok || last != ka.last {
		conn.ExecContext(ctx, "ROLLBACK")
		release()
		return // not the notes this store's last write left
	}
	ka.committed, ka.done = make(chan cacheKey, 1), make(chan struct{})
	go func() {
		defer close(ka.done)
		defer release()
		_ = ka.run(conn, k)
	}()
}

// end tells the keeper the key Apply committed (zero when it did not)
// and waits for it to end.
func (ka *keepAhead) end(k cacheKey) {
	if ka == nil || ka.done == nil {
		return
	}
	ka.committed <- k
	<-ka.done
}

// run keeps the caches for the key want: the notes and links, read in
// the transaction start began on conn, then, once the transaction
// committed want, the rest, then the graph. It returns why it kept nothing,
// nil when it kept both.
func (ka *keepAhead) run(conn *sql.Conn, want cacheKey) error {
	s, ctx := ka.s, ka.ctx
	rd := s.keepReader(want)
	defer rd.enc.discard()
	err := rd.keepNotes(ctx, conn, ka.keep.Links)
	if _, rerr := conn.ExecContext(ctx, "ROLLBACK"); err == nil && rerr != nil {
		err = fmt.Errorf("keep snapshot cache: %w", rerr)
	}
	if err != nil {
		return err
	}
	switch k := <-ka.committed; {
	case k == want:
	case k.id == want.id && k.n == want.n && k != (cacheKey{}): // vacuumed
		rd.enc.rekey(want, k)
		want = k
	default:
		return errNotKept
	}
	err = inReadTx(ctx, conn, "keep snapshot cache", func() error {
		if k, ok := s.cacheKey(ctx, conn); !ok || k != want {
			return errNotKept
		}
		return rd.readRest(ctx, conn)
	})
	if err = cmp.Or(err, rd.enc.err); err != nil {
		return err
	}
	s.writeCache(want, rd.enc)
	if k := s.cachedKey.Load(); k == nil || *k != want {
		return errNotKept // the file could not be written
	}
	// The graph is encoded once the transaction ended, not while its
	// anchor text is in memory, which would raise a cold index's peak RSS.
	if ka.keep.Graph != nil {
		s.WriteGraphCache(want.String(), ka.keep.Graph())
	}
	return nil
}

// errNotKept says a cache was not kept: the index is not in the state
// the cache would describe.
var errNotKept = errors.New("cache not kept: the index changed")

// inReadTx runs fn in a read transaction on conn, rolled back after;
// what names the read in an error of BEGIN.
func inReadTx(ctx context.Context, conn *sql.Conn, what string, fn func() error) error {
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK") // a read: nothing to keep
	return fn()
}
