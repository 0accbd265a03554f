package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"

	"github.com/vaultgraph/vaultgraph/vault"
)

// A process that wrote the index leaves the snapshot cache stale: without
// more, the next start reads every table again. KeepCache writes the
// cache before the process ends, from the notes table and from the links
// the caller holds in memory, which are what its own last write stored.
//
// That is exact only when nobody else wrote the index since this store's
// last write. Each write transaction records the key it commits (inside
// the transaction, so that it is the key of exactly that state), and
// KeepCache writes nothing unless the index's key is still that one; a
// write that fails spoils keeping for the rest of the store's life.

// keepState is what KeepCache needs to know of this store's writes,
// guarded by Store.wmu.
type keepState struct {
	last      cacheKey // the key this store's last write committed; zero: none
	failed    bool     // a write failed: memory and index may differ
	committed bool     // the write under way committed
}

// commitWrite commits tx, a write transaction from beginWriter, and
// records the key it commits (the caller holds s.wmu).
func (s *Store) commitWrite(ctx context.Context, tx *sql.Tx) error {
	k, ok := s.cacheKey(ctx, tx)
	if err := tx.Commit(); err != nil {
		s.keep.failed = true
		return err
	}
	if !ok {
		k = cacheKey{}
	}
	s.keep.last, s.keep.committed = k, true
	return nil
}

// NoteLinks is what a caller holds of one note's links: the links in
// order and, per link, its resolution (a note ID, "" when none) and
// status, as its last write stored them.
//
// Packed, when set, holds the same links as the cache holds them
// (LinkPacker, or a load from the cache), and Links is not read: each
// link's detail is copied, not decoded and encoded again.
type NoteLinks struct {
	Links    iter.Seq2[int, vault.Link]
	Packed   *LinkText
	Resolved []string
	Status   []vault.Status
}

// KeepCache writes the snapshot cache for the index as this store's last
// write left it, reading the notes, attachments, problems and meta from
// the tables and each note's links from links (by note ID). It returns
// the key the cache was written under, "" when it wrote none: this store
// wrote nothing, a write failed, or the index changed since (another
// process wrote it). links must answer for every note the last write
// left in the index; a note it does not know spoils the cache.
func (s *Store) KeepCache(ctx context.Context, links func(id string) (NoteLinks, bool)) (string, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.keep.failed || s.keep.last == (cacheKey{}) {
		return "", nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("keep snapshot cache: %w", err)
	}
	defer conn.Close()
	var kept string
	err = inReadTx(ctx, conn, "keep snapshot cache", func() error {
		key, ok := s.cacheKey(ctx, conn)
		if k := s.cachedKey.Load(); !ok || key != s.keep.last || k != nil && *k == key {
			return nil // changed, or the cache this store read or wrote is current
		}
		rd := s.keepReader(key)
		defer rd.enc.discard()
		err := rd.keepNotes(ctx, conn, links)
		if err == nil {
			err = rd.readRest(ctx, conn)
		}
		if err != nil || rd.enc.err != nil {
			return err
		}
		s.writeCache(key, rd.enc)
		kept = key.String()
		return nil
	})
	if errors.Is(err, errNotKept) {
		return "", nil
	}
	return kept, err
}

// keepReader returns a reader that encodes the notes rows it reads into
// a snapshot cache for key k, without keeping them. The caller defers
// rd.enc.discard.
func (s *Store) keepReader(k cacheKey) *rowReader {
	return &rowReader{snap: &Snapshot{Meta: map[string]string{}}, byID: map[string]int{}, ids: []string{}, enc: s.newCacheEncoder(k)}
}

// keepNotes encodes the notes rows q reads and each note's links, as
// links answers for it; errNotKept when links spoils the cache.
func (rd *rowReader) keepNotes(ctx context.Context, q querier, links func(id string) (NoteLinks, bool)) error {
	if err := rd.readNotes(ctx, q); err != nil {
		return err
	}
	for i, id := range rd.ids {
		if nl, ok := links(id); !ok || !rd.keepLinks(i, &nl) {
			return errNotKept
		}
	}
	rd.enc.endList()
	return nil
}

// keepLinks encodes the links nl of the note at index i of rd; it
// reports false when nl lacks a link's resolution or status, or a packed
// link does not decode, and the cache is then not to be written.
func (rd *rowReader) keepLinks(i int, nl *NoteLinks) bool {
	if t := nl.Packed; t != nil {
		if t.n > len(nl.Resolved) || t.n > len(nl.Status) {
			return false
		}
		j := 0
		for anchored, detail := range t.details() {
			target, isNote := rd.byID[nl.Resolved[j]]
			rd.enc.linkWithDetail(i, target, isNote, nl.Resolved[j], string(nl.Status[j]), anchored, detail)
			j++
		}
		return j == t.n
	}
	for j, l := range nl.Links {
		if j >= len(nl.Resolved) || j >= len(nl.Status) {
			return false
		}
		row := linkRowOf(&l)
		row.resolved, row.status = nl.Resolved[j], string(nl.Status[j])
		t, isNote := rd.byID[row.resolved]
		rd.enc.link(&row, i, t, isNote)
	}
	return true
}
