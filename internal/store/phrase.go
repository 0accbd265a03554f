package store

import (
	"context"
	"fmt"
	"strings"
)

// NotesWithPhrase returns the IDs of up to limit notes (0: the
// DefaultKeywordLimit) that the full-text index finds phrase in, as a
// phrase: its words in order, whole words as the index splits them, in
// any letter case and without accents, best matches first, but the notes
// of exclude. The index may also find forms of the words that are not
// written as in phrase (folded or stemmed): these are candidates, whose
// text the caller checks. It goes through Keyword, so it finds what a
// quoted search finds, whatever form the full-text table has.
func (s *Store) NotesWithPhrase(ctx context.Context, phrase string, limit int, exclude ...string) ([]string, error) {
	words := strings.Fields(strings.ReplaceAll(phrase, `"`, " "))
	if len(words) == 0 {
		return nil, nil
	}
	hits, err := s.Keyword(ctx, KeywordQuery{
		Text: `"` + strings.Join(words, " ") + `"`, Limit: limit, Exclude: exclude, NoSnippets: true,
	})
	if err != nil {
		return nil, fmt.Errorf("notes with %q: %w", phrase, err)
	}
	ids := make([]string, 0, len(hits))
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids, nil
}
