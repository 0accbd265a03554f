package vaultgraph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/embed"
	"github.com/vaultgraph/vaultgraph/internal/store"
)

// Bounds of Search (its page sizes are SearchList's).
const (
	// MaxSearchTotal caps the matching notes a search counts and pages
	// through: the best MaxSearchTotal; when more match, the total says
	// "at least" (SearchResult.AtLeast).
	MaxSearchTotal = 250
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

// SearchModes are the modes SearchQuery takes, in any letter case; "" is
// SearchHybrid.
var SearchModes = Choice[SearchMode]{Values: []SearchMode{SearchHybrid, SearchKeyword, SearchSemantic}, Default: SearchHybrid}

// SearchQuery is a search for notes. Zero values mean the defaults.
type SearchQuery struct {
	// Query is words and "quoted phrases" (full text) or a question
	// (vectors). Required.
	Query string
	// Mode is hybrid (default), keyword or semantic, in any letter case.
	Mode SearchMode
	// Limit is how many notes to return: 1 to MaxSearchLimit, default
	// DefaultSearchLimit (SearchList).
	Limit int
	// Page is the page of the ranked results to return, from 1 (0 means
	// 1): at limit 10, page 2 holds the notes ranked 11 to 20.
	Page int
	// SortBy reorders the notes of the page by the keys of
	// SearchSortFields, read as PageQuery.SortBy (ties keep their rank);
	// the ranking still picks which notes the page holds. Empty keeps the
	// rank order.
	SortBy []string
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
	// **bold**; for a note only the vector search found, the part of its
	// best-matching passage with the query's words (in **bold**), or the
	// passage's start when it has none of them.
	Snippet string
	// KeywordRank and VectorRank are the note's rank (1 = best) in the
	// full-text and vector results; 0 when that search did not find it.
	KeywordRank, VectorRank int
}

// SearchResult is a page of the notes Search found.
type SearchResult struct {
	// Hits are the page's notes, best first (or in SortBy's order).
	Hits []SearchHit
	// Total is the number of matching notes found, at most
	// MaxSearchTotal; AtLeast is set when more match than that, and the
	// pages then hold the best MaxSearchTotal.
	Total   int
	AtLeast bool
	// Page is the page returned (from 1) of TotalPages.
	Page, TotalPages int
	// Warnings say what the answer lacks: vectors unavailable or
	// incomplete, no note with every word, a filter no note passes.
	Warnings []string
}

// errNoVectors is vectorSearch's answer while no vector index exists.
var errNoVectors = errors.New("no embeddings yet")

// vectorHit is a note the vector search found, by its best chunk.
type vectorHit struct {
	ID string
	// Similarity is the cosine similarity of the best chunk, -1 to 1.
	Similarity float64
	// Chunk is the number of the best chunk (embed.Chunks of the note).
	Chunk int
}

// check validates q, fills in the defaults and returns its sort keys.
func (q SearchQuery) check() (SearchQuery, []sortKey, error) {
	q.Query = strings.TrimSpace(q.Query)
	if q.Query == "" {
		return q, nil, fmt.Errorf("%w: query: required: words, a \"quoted phrase\" or a question", ErrInvalid)
	}
	var err error
	mode := SearchMode(strings.ToLower(strings.TrimSpace(string(q.Mode))))
	if q.Mode, err = SearchModes.Parse("mode", mode); err != nil {
		return q, nil, err
	}
	if q.Limit, err = SearchList.limit(q.Limit); err != nil {
		return q, nil, err
	}
	keys, page, err := PageQuery{SortBy: q.SortBy, Page: q.Page}.check(SearchList)
	if err != nil {
		return q, nil, err
	}
	q.Page = page
	q.TagMode, err = checkFilter(q.TagMode, q.Folder)
	return q, keys, err
}

// Search is SearchPage's hits and warnings.
func (e *Engine) Search(ctx context.Context, q SearchQuery) ([]SearchHit, []string, error) {
	res, err := e.SearchPage(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	return res.Hits, res.Warnings, nil
}

// SearchPage finds the notes that best match q.Query, best first, with a
// score from 0 to 1 and a snippet, and returns page q.Page of them with
// their total (see SearchResult; at most MaxSearchTotal are counted and
// paged through). The tag and folder filters apply before ranking, so a
// filter never leaves fewer hits than exist.
//
// Keyword mode ranks by FTS5 BM25 (title weighted, notes whose title has
// the words boosted; every word must match, as itself or as a prefix;
// "phrases" as written; diacritics and case ignored; words in half the
// notes of a large vault, like "the", ignored beside others; when no note
// has every word, notes with some of them, with a warning). Its score is
// a note's BM25 relative to the best hit's, times the share of the
// query's words the note has: the best full match scores 1, a note half
// as relevant 0.5.
//
// Semantic mode ranks by the cosine similarity of the note's best chunk,
// which is its score. A note counts as found only when that similarity is
// above 0 and, for the builtin model, at least BuiltinMinSimilarity: a
// query that matches nothing finds nothing rather than the least unlike
// notes. The snippet is the part of the best chunk with the query's
// words, in **bold**, or its start.
//
// Hybrid mode fuses both rankings by reciprocal rank (k = RRFK; see fuse:
// a note only the vector search found counts in proportion to its
// similarity relative to the best vector hit's). The vector hits taken
// are those semantic mode counts as found, and for models other than
// builtin only those with at least MinRelativeSimilarity of the best
// similarity. The score is the fused score over the best possible one
// (first in both): 1 for a note both searches rank first, 0.5 at most
// for a note only one of them found.
//
// When vector search is not available (no embeddings yet, the provider
// down), hybrid and semantic return keyword results, scored as such, and
// a warning says so. The warnings also report a filter no note passes, the
// fall back to partial word matches, vectors that answer for a model that
// is unavailable or not done yet, and (with Options.KeepOtherVectors)
// another model's vectors in the index.
func (e *Engine) SearchPage(ctx context.Context, q SearchQuery) (*SearchResult, error) {
	q, keys, err := q.check()
	if err != nil {
		return nil, err
	}
	done, err := e.heavyRead(ctx)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer done()
	if err := e.readLock(); err != nil {
		return nil, err
	}
	st := e.store
	allowed := e.searchScope(q)
	ids, exclude := e.scopeLists(allowed)
	e.mu.RUnlock()
	if st == nil {
		return nil, fmt.Errorf("search: full-text search needs the index, and this engine was opened without one (NoIndex)")
	}
	res := &SearchResult{Hits: []SearchHit{}, Page: q.Page}
	if allowed != nil && len(allowed) == 0 {
		res.Warnings = []string{"no note passes the tags and folder filters"}
		return res, nil
	}
	var keep func(string) bool
	if allowed != nil {
		keep = func(id string) bool { return allowed[id] }
	}

	var vec []vectorHit
	builtin := false
	mode := q.Mode
	if mode != SearchKeyword {
		var vw []string
		vec, builtin, vw, err = e.vectorSearch(ctx, q.Query, MaxSearchTotal+1, keep)
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			res.Warnings = append(res.Warnings, fmt.Sprintf("vector search unavailable: %v; keyword results only", err))
			mode, vec = SearchKeyword, nil
		default:
			res.Warnings = append(res.Warnings, vw...)
			floor := 0.0
			if builtin {
				floor = BuiltinMinSimilarity
			}
			vec = similar(vec, floor)
		}
	}
	var kw []store.KeywordHit
	if mode != SearchSemantic {
		var warnings []string
		if kw, warnings, err = e.keywordSearch(ctx, st, q.Query, ids, exclude); err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
	}

	hits, vec := rank(mode, kw, vec, builtin)
	hits, err = e.existing(hits)
	if err != nil {
		return nil, err
	}
	res.Total, res.AtLeast = min(len(hits), MaxSearchTotal), len(hits) > MaxSearchTotal
	from, to, pages := pageOf(res.Total, q.Page, q.Limit)
	res.TotalPages = pages.TotalPages
	page := slices.Clone(hits[from:to])
	if err := e.snippets(ctx, st, page, kw, vec, q.Query); err != nil {
		return nil, fmt.Errorf("search %q: %w", q.Query, err)
	}
	if err := e.sortHits(page, keys); err != nil {
		return nil, err
	}
	res.Hits = page
	return res, nil
}

// keywordSearch runs the full-text half of a search over the notes in
// scope (ids, exclude), with the graph prior applied, and the warnings
// its result calls for.
func (e *Engine) keywordSearch(ctx context.Context, st *store.Store, query string, ids, exclude []string) ([]store.KeywordHit, []string, error) {
	// One more than counted tells whether more match. Snippets are made
	// for the page's notes only (keywordSnippets).
	weights, prior := e.searchTuning()
	kq := store.KeywordQuery{Text: query, Limit: MaxSearchTotal + 1, IDs: ids, Exclude: exclude, NoSnippets: true, Weights: weights}
	kw, err := st.Keyword(ctx, kq)
	if err != nil {
		return nil, nil, fmt.Errorf("search %q: %w", query, err)
	}
	if g := e.Graph(); g != nil {
		withPrior(kw, g.InDegree, prior)
	}
	var warnings []string
	if len(kw) > 0 && kw[0].Matched < kw[0].Terms {
		warnings = append(warnings, "no note has every word of the query; these notes have some of them")
	}
	if len(store.KeywordTerms(query)) == 0 {
		warnings = append(warnings, "the query has no words to search the text for (only symbols)")
	}
	return kw, warnings, nil
}

// snippets gives a page of hits their snippets: from the full-text index
// for the notes it found (kw), from their best chunk (in vec) for the
// others.
func (e *Engine) snippets(ctx context.Context, st *store.Store, page []SearchHit, kw []store.KeywordHit, vec []vectorHit, query string) error {
	chunks := make(map[string]int, len(vec))
	for _, v := range vec {
		chunks[v.ID] = v.Chunk
	}
	e.vectorSnippets(ctx, page, chunks, query)
	return keywordSnippets(ctx, st, kw, page)
}

// existing drops the hits whose notes are gone (the index may lag a
// deletion by a moment).
func (e *Engine) existing(hits []SearchHit) ([]SearchHit, error) {
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	return slices.DeleteFunc(hits, func(h SearchHit) bool { return e.notes[h.ID] == nil }), nil
}

// searchScope is the set of notes q's filters keep, or nil when q has no
// filter (the caller holds e.mu).
func (e *Engine) searchScope(q SearchQuery) map[string]bool {
	folder := strings.Trim(path.Clean("/"+q.Folder), "/")
	if folder == "" && len(q.Tags) == 0 {
		return nil
	}
	f := e.filter(ListQuery{Folder: folder, Tags: q.Tags, TagMode: q.TagMode})
	out := map[string]bool{}
	for i := range e.rows {
		if r := &e.rows[i]; e.keep(f, r) {
			out[r.id] = true
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

// vectorSnippets gives the hits only the vector search found (by their
// best chunk, in chunks) a snippet: the part of the chunk with the
// query's words, else its start; or the start of the note when the chunk
// is gone. It also rounds the scores to 4 decimals.
func (e *Engine) vectorSnippets(ctx context.Context, hits []SearchHit, chunks map[string]int, query string) {
	chars := e.chunkChars()
	words := snippetWords(query)
	for i := range hits {
		h := &hits[i]
		h.Score = math.Round(h.Score*1e4) / 1e4
		if h.KeywordRank > 0 || h.Snippet != "" {
			continue
		}
		n, err := e.GetNode(ctx, h.ID, true)
		if err != nil || n == nil {
			continue // gone since: no snippet
		}
		text := n.Content
		if c, ok := chunks[h.ID]; ok {
			if cs := embed.Chunks(n.Title, n.Content, chars); c < len(cs) && cs[c].Start >= 0 && cs[c].Start < cs[c].End && cs[c].End <= len(n.Content) {
				text = n.Content[cs[c].Start:cs[c].End]
			}
		}
		h.Snippet = windowText(text, n.Title, words, PreviewChars)
	}
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
