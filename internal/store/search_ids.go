package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"
)

// The note IDs of a search's hits are kept by doc (docIDs): a note's doc
// never names another note (notes.id is never updated, and docs are
// AUTOINCREMENT), so a hit whose doc is kept needs no read, provided its
// note exists, as it does for a hit found in fts's own rows in the
// transaction it was ranked in (a note's fts row goes with its notes row).

// maxDocIDs bounds the IDs docIDs keeps in each of its two generations
// (at most twice as many in all, about 1.5 MB with their map).
const maxDocIDs = 8192

// docIDs keeps note IDs by doc: a hot and a cold generation, the cold
// one dropped when the hot one is full.
type docIDs struct {
	mu        sync.Mutex
	hot, cold map[int64]string
	reads     int // IDs read (hitIDs), for tests
}

// get returns the ID of doc, if kept.
func (c *docIDs) get(doc int64) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, ok := c.hot[doc]; ok {
		return id, true
	}
	id, ok := c.cold[doc]
	if ok {
		c.put(doc, id)
	}
	return id, ok
}

// put keeps id as the ID of doc; c.mu is held.
func (c *docIDs) put(doc int64, id string) {
	if c.hot == nil || len(c.hot) >= maxDocIDs {
		c.cold, c.hot = c.hot, make(map[int64]string, 256)
	}
	c.hot[doc] = id
}

// forget drops every ID kept.
func (c *docIDs) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hot, c.cold = nil, nil
}

// hitIDs sets the ID of the hits whose notes exist for certain in conn's
// state (live, found in fts's own rows) from those kept, and reads and
// keeps the others of them by doc; the hits found by anchor text alone
// are left without (details reads them).
func (s *Store) hitIDs(ctx context.Context, conn *readTx, hits []hit, fts *tableHits) error {
	var todo []int64
	for i := range hits {
		h := &hits[i]
		if _, ok := fts.row(h.rowid); !ok {
			continue
		}
		if id, ok := s.ranks.ids.get(h.rowid); ok {
			h.ID = id
		} else {
			todo = append(todo, h.rowid)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	found, err := noteIDs(ctx, conn, todo)
	if err != nil {
		return err
	}
	s.ranks.ids.mu.Lock()
	defer s.ranks.ids.mu.Unlock()
	s.ranks.ids.reads += len(todo)
	for i := range hits {
		if id, ok := found[hits[i].rowid]; ok && hits[i].ID == "" {
			hits[i].ID = id
			s.ranks.ids.put(hits[i].rowid, id)
		}
	}
	return nil
}

// noteIDs returns the IDs of the notes of docs that exist, by doc.
func noteIDs(ctx context.Context, q querier, docs []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(docs) == 0 {
		return out, nil
	}
	list, _ := json.Marshal(docs) // numbers always marshal
	rows, err := q.QueryContext(ctx, `SELECT rowid, id FROM notes WHERE rowid IN (SELECT value FROM json_each(?))`, string(list))
	err = eachRow(rows, err, func(rows *sql.Rows) error {
		var doc int64
		var id string
		err := rows.Scan(&doc, &id)
		out[doc] = id
		return err
	})
	return out, wrapKeyword(err)
}

// plainDetails is details without snippets: the hits whose ID rankTopK
// set (hitIDs) keep it, the others' are read in rt; a hit whose note row
// is gone is dropped.
func plainDetails(ctx context.Context, rt *readTx, terms []Term, hits []hit) ([]KeywordHit, error) {
	var todo []int64
	for _, h := range hits {
		if h.ID == "" {
			todo = append(todo, h.rowid)
		}
	}
	found, err := noteIDs(ctx, rt, todo)
	if err != nil {
		return nil, err
	}
	out := make([]KeywordHit, 0, len(hits))
	for _, h := range hits {
		if h.ID == "" {
			id, ok := found[h.rowid]
			if !ok {
				continue
			}
			h.ID = id
		}
		h.Snippet, h.terms, h.doc = "", terms, h.rowid
		out = append(out, h.KeywordHit)
	}
	SortByRelevance(out) // as details: ties by ID
	return out, nil
}
