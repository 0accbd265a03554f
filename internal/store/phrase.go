package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// NotesWithPhrase returns the IDs of up to limit notes (0: the
// DefaultKeywordLimit) that the full-text index finds phrase in, as a
// phrase: its words in order, whole words as the index splits them, in
// any letter case and without accents, as a quoted search finds them
// (the same match expression), but the notes of exclude. They come in
// index order, unranked, so that a phrase in many notes costs no more
// than limit of them. The index may also find forms of the words that are
// not written as in phrase (folded, or stemmed): these are candidates,
// whose text the caller checks. Only MATCH and the rowid are used, which
// every form of FTS5 table (contentless, external content) answers.
func (s *Store) NotesWithPhrase(ctx context.Context, phrase string, limit int, exclude ...string) ([]string, error) {
	words := strings.Fields(strings.ReplaceAll(strings.ToValidUTF8(phrase, " "), `"`, " "))
	text := vault.NFC(strings.Join(words, " "))
	if !hasWordChar(text) {
		return nil, nil
	}
	if limit <= 0 {
		limit = DefaultKeywordLimit
	}
	terms := []Term{{Text: text, Phrase: true}}
	if err := s.markUnmarked(ctx, terms); err != nil {
		return nil, fmt.Errorf("notes with %q: %w", phrase, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM notes WHERE rowid IN (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?) ORDER BY rowid`,
		terms[0].expr(), limit+len(exclude))
	var ids []string
	err = eachString(rows, err, func(id string) {
		if !slices.Contains(exclude, id) && len(ids) < limit {
			ids = append(ids, id)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("notes with %q: %w", phrase, err)
	}
	return ids, nil
}
