package vaultgraph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// Defaults and bounds of Search.
const (
	DefaultSearchLimit = 10
	MaxSearchLimit     = 50
	// RRFK is the k of reciprocal-rank fusion: a note ranked r by one
	// search adds 1/(RRFK+r) to its fused score.
	RRFK = 60
	// PreviewChars is the length of the preview that stands in for a
	// snippet when only the vector search found a note.
	PreviewChars = 200
)

// SearchMode picks the searches Search runs.
type SearchMode string

// The search modes.
const (
	// SearchHybrid fuses full-text and vector results (the default).
	SearchHybrid SearchMode = "hybrid"
	// SearchKeyword is full-text search only (FTS5, BM25).
	SearchKeyword SearchMode = "keyword"
	// SearchSemantic is vector similarity only.
	SearchSemantic SearchMode = "semantic"
)

// SearchQuery is a search for notes. Zero values mean the defaults.
type SearchQuery struct {
	// Query is words and "quoted phrases" (full text) or a question
	// (vectors). Required.
	Query string
	// Mode is hybrid (default), keyword or semantic.
	Mode SearchMode
	// Limit is how many notes to return: 1 to MaxSearchLimit, default
	// DefaultSearchLimit.
	Limit int
	// Tags with TagMode (any, all or none; default any) and Folder (this
	// folder or below, any letter case) restrict the notes searched,
	// before ranking.
	Tags    []string
	TagMode TagMode
	Folder  string
}

// SearchHit is a note Search found.
type SearchHit struct {
	ID string
	// Score is 0 to 1, higher is better (see Search), rounded to 4
	// decimals.
	Score float64
	// Snippet is the note's text around the words that matched, in
	// **bold**, or for a note only the vector search found the start of
	// its best-matching passage.
	Snippet string
	// KeywordRank and VectorRank are the note's rank (1 = best) in the
	// full-text and vector results; 0 when that search did not find it.
	KeywordRank, VectorRank int
}

// errNoVectors is vectorSearch's answer while no vector index exists.
var errNoVectors = errors.New("no embeddings yet")

// vectorHit is a note the vector search found, by its best chunk.
type vectorHit struct {
	ID string
	// Similarity is the cosine similarity of the best chunk, -1 to 1.
	Similarity float64
	// Text is the best chunk's text (for the snippet); "" uses the
	// note's body.
	Text string
}

// check validates q and fills in the defaults.
func (q SearchQuery) check() (SearchQuery, error) {
	q.Query = strings.TrimSpace(q.Query)
	if q.Query == "" {
		return q, fmt.Errorf("%w: query: required: words, a \"quoted phrase\" or a question", ErrInvalid)
	}
	switch q.Mode {
	case "":
		q.Mode = SearchHybrid
	case SearchHybrid, SearchKeyword, SearchSemantic:
	default:
		return q, fmt.Errorf("%w: mode %q: use hybrid, keyword or semantic", ErrInvalid, q.Mode)
	}
	if q.Limit == 0 {
		q.Limit = DefaultSearchLimit
	}
	if q.Limit < 1 || q.Limit > MaxSearchLimit {
		return q, fmt.Errorf("%w: limit %d: use 1 to %d", ErrInvalid, q.Limit, MaxSearchLimit)
	}
	switch q.TagMode {
	case "":
		q.TagMode = TagsAny
	case TagsAny, TagsAll, TagsNone:
	default:
		return q, fmt.Errorf("%w: tag mode %q: use any, all or none", ErrInvalid, q.TagMode)
	}
	if err := checkFolder(q.Folder); err != nil {
		return q, err
	}
	return q, nil
}

// Search finds the notes that best match q.Query, best first, with a
// score from 0 to 1 and a snippet. The tag and folder filters apply
// before ranking, so a filter never leaves fewer hits than exist.
//
// Keyword mode ranks by FTS5 BM25 (title weighted, notes whose title has
// the words boosted; every word must match, as itself or as a prefix;
// "phrases" as written; diacritics and case ignored; words in half the
// notes of a large vault, like "the", ignored beside others; when no note
// has every word, notes with some of them, with a warning). Its score is a note's BM25 relative to the best hit's,
// times the share of the query's words the note has: the best full match
// scores 1, a note half as relevant 0.5.
//
// Semantic mode ranks by the cosine similarity of the note's best chunk,
// which is its score (clamped to 0-1).
//
// Hybrid mode fuses both rankings by reciprocal rank (k = RRFK). The
// score is the fused score over the best possible one (first in both): 1
// for a note both searches rank first, 0.5 at most for a note only one
// of them found.
//
// When vector search is not available (no embeddings yet, the provider
// down), hybrid and semantic return keyword results, scored as such, and
// a warning says so. The warnings also report a filter no note passes and
// the fall back to partial word matches.
func (e *Engine) Search(ctx context.Context, q SearchQuery) ([]SearchHit, []string, error) {
	q, err := q.check()
	if err != nil {
		return nil, nil, err
	}
	if err := e.readLock(); err != nil {
		return nil, nil, err
	}
	st := e.store
	allowed := e.searchScope(q)
	ids, exclude := e.scopeLists(allowed)
	e.mu.RUnlock()
	if st == nil {
		return nil, nil, fmt.Errorf("search: full-text search needs the index, and this engine was opened without one (NoIndex)")
	}
	if allowed != nil && len(allowed) == 0 {
		return []SearchHit{}, []string{"no note passes the tags and folder filters"}, nil
	}
	var keep func(string) bool
	if allowed != nil {
		keep = func(id string) bool { return allowed[id] }
	}

	var warnings []string
	var vec []vectorHit
	mode := q.Mode
	if mode != SearchKeyword {
		var vw []string
		vec, vw, err = e.vectorSearch(ctx, q.Query, candidates(q), keep)
		switch {
		case ctx.Err() != nil:
			return nil, nil, ctx.Err()
		case err != nil:
			warnings = append(warnings, fmt.Sprintf("vector search unavailable: %v; keyword results only", err))
			mode, vec = SearchKeyword, nil
		default:
			warnings = append(warnings, vw...)
		}
	}
	var kw []store.KeywordHit
	if mode != SearchSemantic {
		n := q.Limit
		if mode == SearchHybrid {
			n = candidates(q)
		}
		// Hybrid keeps only some of its candidates: their snippets are
		// made once the fusion has picked them (finishHits).
		kq := store.KeywordQuery{Text: q.Query, Limit: n, IDs: ids, Exclude: exclude, NoSnippets: mode == SearchHybrid}
		if kw, err = st.Keyword(ctx, kq); err != nil {
			return nil, nil, fmt.Errorf("search %q: %w", q.Query, err)
		}
		if len(kw) > 0 && kw[0].Matched < kw[0].Terms {
			warnings = append(warnings, "no note has every word of the query; these notes have some of them")
		}
		if len(store.KeywordTerms(q.Query)) == 0 {
			warnings = append(warnings, "the query has no words to search the text for (only symbols)")
		}
	}

	var hits []SearchHit
	switch mode {
	case SearchKeyword:
		hits = keywordHits(kw)
	case SearchSemantic:
		hits = vectorHits(vec)
	default:
		hits = fuse(kw, nearest(vec))
	}
	hits, err = e.finishHits(ctx, hits, vec, q.Limit)
	if err != nil {
		return nil, nil, err
	}
	if mode == SearchHybrid {
		if err := keywordSnippets(ctx, st, kw, hits); err != nil {
			return nil, nil, fmt.Errorf("search %q: %w", q.Query, err)
		}
	}
	return hits, warnings, nil
}

// MinRelativeSimilarity is the share of the best vector similarity a note
// needs to take part in hybrid fusion: vector search ranks every note, and
// rank fusion would otherwise lift notes that are only the least unlike
// the query.
const MinRelativeSimilarity = 0.5

// nearest keeps the vector hits close to the best one.
func nearest(vec []vectorHit) []vectorHit {
	if len(vec) == 0 || vec[0].Similarity <= 0 {
		return nil
	}
	cut := MinRelativeSimilarity * vec[0].Similarity
	n := 0
	for n < len(vec) && vec[n].Similarity >= cut {
		n++
	}
	return vec[:n]
}

// candidates is how many results each search of a hybrid query returns
// for the fusion: more than the limit, so that a note ranked a little
// lower by one search can still rise.
func candidates(q SearchQuery) int {
	return min(max(3*q.Limit, 30), 3*MaxSearchLimit)
}

// searchScope is the set of notes q's filters keep, or nil when q has no
// filter (the caller holds e.mu).
func (e *Engine) searchScope(q SearchQuery) map[string]bool {
	folder := strings.Trim(path.Clean("/"+q.Folder), "/")
	if folder == "" && len(q.Tags) == 0 {
		return nil
	}
	lq := ListQuery{Folder: folder, Tags: q.Tags, TagMode: q.TagMode}
	var tagged map[string]bool
	if len(q.Tags) > 0 {
		tagged = map[string]bool{}
		for _, id := range e.graph.WithTags(q.Tags, q.TagMode == TagsAll) {
			tagged[id] = true
		}
	}
	out := map[string]bool{}
	for id, ns := range e.notes {
		if e.keep(lq, id, ns, tagged) {
			out[id] = true
		}
	}
	return out
}

// scopeLists turns the notes a filter keeps (nil: no filter) into the
// shorter list for the full-text search: the notes to search, or when the
// filter keeps most notes (tags "none"), the notes to leave out. The
// caller holds e.mu.
func (e *Engine) scopeLists(allowed map[string]bool) (ids, exclude []string) {
	switch {
	case allowed == nil:
	case 2*len(allowed) <= len(e.notes):
		ids = make([]string, 0, len(allowed))
		for id := range allowed {
			ids = append(ids, id)
		}
	default:
		exclude = make([]string, 0, len(e.notes)-len(allowed))
		for id := range e.notes {
			if !allowed[id] {
				exclude = append(exclude, id)
			}
		}
	}
	return ids, exclude
}

// keywordHits scores full-text hits: relevance (BM25, title matches
// boosted) relative to the best hit's, times the share of the query's
// terms the note has.
func keywordHits(kw []store.KeywordHit) []SearchHit {
	best := 0.0
	for _, h := range kw {
		best = max(best, h.Relevance())
	}
	hits := make([]SearchHit, len(kw))
	for i, h := range kw {
		rel := 1.0
		if best > 0 {
			rel = h.Relevance() / best
		}
		if h.Terms > 0 {
			rel *= float64(h.Matched) / float64(h.Terms)
		}
		hits[i] = SearchHit{ID: h.ID, Score: clamp01(rel), Snippet: h.Snippet, KeywordRank: i + 1}
	}
	return hits
}

// vectorHits scores vector hits by their similarity.
func vectorHits(vec []vectorHit) []SearchHit {
	hits := make([]SearchHit, len(vec))
	for i, v := range vec {
		hits[i] = SearchHit{ID: v.ID, Score: clamp01(v.Similarity), VectorRank: i + 1}
	}
	return hits
}

// fuse merges the two rankings by reciprocal rank: a note's fused score
// is the sum of 1/(RRFK+rank) over the searches that found it, divided by
// the best possible, 2/(RRFK+1). Ties go to the better keyword rank, then
// the ID.
func fuse(kw []store.KeywordHit, vec []vectorHit) []SearchHit {
	byID := map[string]*SearchHit{}
	var order []*SearchHit
	get := func(id string) *SearchHit {
		h, ok := byID[id]
		if !ok {
			h = &SearchHit{ID: id}
			byID[id] = h
			order = append(order, h)
		}
		return h
	}
	for i, k := range kw {
		h := get(k.ID)
		h.KeywordRank, h.Snippet = i+1, k.Snippet
		h.Score += 1 / float64(RRFK+i+1)
	}
	for i, v := range vec {
		h := get(v.ID)
		h.VectorRank = i + 1
		h.Score += 1 / float64(RRFK+i+1)
	}
	best := 2 / float64(RRFK+1)
	hits := make([]SearchHit, len(order))
	for i, h := range order {
		h.Score = clamp01(h.Score / best)
		hits[i] = *h
	}
	slices.SortStableFunc(hits, func(a, b SearchHit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(rankKey(a.KeywordRank), rankKey(b.KeywordRank)); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return hits
}

// rankKey orders ranks with "not found" (0) last.
func rankKey(r int) int {
	if r == 0 {
		return math.MaxInt
	}
	return r
}

func clamp01(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return min(max(f, 0), 1)
}

// finishHits keeps the first limit hits whose notes still exist (the
// index may lag a deletion by a moment) and gives the notes only the
// vector search found a preview of their best chunk or body.
func (e *Engine) finishHits(ctx context.Context, hits []SearchHit, vec []vectorHit, limit int) ([]SearchHit, error) {
	chunks := map[string]string{}
	for _, v := range vec {
		chunks[v.ID] = v.Text
	}
	if err := e.readLock(); err != nil {
		return nil, err
	}
	out := make([]SearchHit, 0, min(limit, len(hits)))
	bodies := map[int]noteFile{} // index in out -> file to preview
	for _, h := range hits {
		if len(out) == limit {
			break
		}
		ns, ok := e.notes[h.ID]
		if !ok {
			continue
		}
		if h.Snippet == "" && h.KeywordRank == 0 {
			if text := chunks[h.ID]; text != "" {
				h.Snippet = previewText(text, ns.note.Title, PreviewChars)
			} else {
				bodies[len(out)] = noteFile{path: ns.path, bodyStart: ns.note.BodyStart}
			}
		}
		h.Score = math.Round(h.Score*1e4) / 1e4
		out = append(out, h)
	}
	titles := map[int]string{}
	for i := range bodies {
		titles[i] = e.notes[out[i].ID].note.Title
	}
	e.mu.RUnlock()
	for i, f := range bodies {
		body, err := readBody(f.path, f.bodyStart)
		if err != nil {
			continue // gone since: no preview
		}
		out[i].Snippet = previewText(body, titles[i], PreviewChars)
	}
	return out, nil
}

// keywordSnippets gives the hits the keyword search found (kw) their
// snippets, which Keyword left out for the fusion.
func keywordSnippets(ctx context.Context, st *store.Store, kw []store.KeywordHit, hits []SearchHit) error {
	need := map[string]bool{}
	for _, h := range hits {
		if h.KeywordRank > 0 && h.Snippet == "" {
			need[h.ID] = true
		}
	}
	var picked []store.KeywordHit
	for _, k := range kw {
		if need[k.ID] {
			picked = append(picked, k)
		}
	}
	if len(picked) == 0 {
		return nil
	}
	snips, err := st.KeywordSnippets(ctx, picked)
	if err != nil {
		return err
	}
	for i := range hits {
		if need[hits[i].ID] {
			hits[i].Snippet = snips[hits[i].ID]
		}
	}
	return nil
}

// previewText is the start of a note's text for a list: a first heading that
// repeats the title left out, whitespace folded into single spaces, cut
// at a word boundary to at most n characters, "…" where it was cut.
func previewText(text, title string, n int) string {
	text = strings.TrimLeft(text, " \t\r\n")
	if line, rest, _ := strings.Cut(text, "\n"); strings.HasPrefix(line, "#") &&
		vault.Fold(strings.TrimSpace(strings.TrimLeft(line, "#"))) == vault.Fold(strings.TrimSpace(title)) {
		text = rest
	}
	words := strings.FieldsFunc(text, unicode.IsSpace)
	var b strings.Builder
	used := 0
	for i, w := range words {
		wn := len([]rune(w))
		if i > 0 {
			wn++
		}
		if used+wn > n {
			if b.Len() == 0 { // one long word: cut it
				b.WriteString(string([]rune(w)[:n]))
			}
			b.WriteString("…")
			return b.String()
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		used += wn
	}
	return b.String()
}
