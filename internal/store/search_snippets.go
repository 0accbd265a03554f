package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
)

// KeywordSnippets returns the snippets of hits (from a Keyword search
// with NoSnippets), as Keyword would have written them (each matched word
// highlighted), keyed by note ID. A note that no longer matches gets
// none.
func (s *Store) KeywordSnippets(ctx context.Context, hits []KeywordHit) (map[string]string, error) {
	var terms []Term
	ids := make([]string, 0, len(hits))
	docs := make([]int64, 0, len(hits))
	for _, h := range hits {
		ids, docs = append(ids, h.ID), append(docs, h.doc)
		if terms == nil {
			terms = h.terms
		}
	}
	if len(terms) == 0 {
		return map[string]string{}, nil
	}
	// The rowids the hits were found at, when all are known, are taken
	// while they hold the same notes (snippetsOf checks), saving a query
	// of notes by ID.
	if !slices.Contains(docs, 0) {
		if out, done, err := s.snippetsOf(ctx, docs, ids, terms, false); err != nil || done {
			return out, err
		}
	}
	list, _ := json.Marshal(ids) // strings always marshal
	rows, err := s.db.QueryContext(ctx, `SELECT rowid FROM notes WHERE id IN (SELECT value FROM json_each(?))`, string(list))
	rowids, err := scanRows(rows, err, func(rows *sql.Rows, r *int64) error { return rows.Scan(r) })
	if err != nil {
		return nil, fmt.Errorf("keyword snippets: %w", err)
	}
	out, _, err := s.snippetsOf(ctx, rowids, ids, terms, true)
	return out, err
}

// snippetsOf makes the snippets of the notes rowids for terms, by note
// ID. Unless byID is set (rowids were looked up from ids), done is false
// when a rowid no longer holds the note of ids at the same place: the
// caller then looks the rowids up by ID.
func (s *Store) snippetsOf(ctx context.Context, rowids []int64, ids []string, terms []Term, byID bool) (map[string]string, bool, error) {
	// Snippets made before from the same rows for the same terms are
	// taken as they are (snippet_memo.go), others made in Go where they
	// can be (snippet_go.go); their rows of temp.snip are not made.
	key, expr := snipTermsKey(terms), newSnipExpr(terms)
	kept := map[int64]string{}
	conn, err := s.snipConn(ctx, rowids, func(doc int64, src snipSource, row func() (string, [len(ftsColumns)]string)) bool {
		snip, hit := s.snips.get(doc, key, src)
		if !hit && expr != nil {
			if snip, hit = expr.rowSnippet(row, terms); hit {
				s.snips.put(doc, key, src, snip)
			}
		}
		if hit {
			kept[doc] = snip
		}
		return hit
	})
	if err != nil {
		return nil, false, err
	}
	defer conn.Close()
	for i, r := range rowids { // each made from the note ids[i]
		if src, ok := conn.made[r]; !byID && (!ok || src.id != ids[i]) {
			return nil, false, nil
		}
	}
	var todo []int64
	for _, r := range rowids {
		if _, hit := kept[r]; !hit {
			todo = append(todo, r)
		}
	}
	found, err := hitSnippets(ctx, conn, todo, terms, matchExpr(terms, "OR"))
	if err != nil {
		return nil, false, err
	}
	out := make(map[string]string, len(rowids))
	for r, d := range found {
		out[d.id] = d.snippet
		if src, ok := conn.made[r]; ok {
			s.snips.put(r, key, src, d.snippet)
		}
	}
	for r, snip := range kept {
		out[conn.made[r].id] = snip
	}
	return out, true, nil
}
