package vaultgraph

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// rank orders the notes the searches found by mode: keyword or vector
// results as they are, or fused (hybrid); vec is the vector hits it used.
func rank(mode SearchMode, kw []store.KeywordHit, vec []vectorHit, builtin bool) (hits []SearchHit, used []vectorHit) {
	switch mode {
	case SearchKeyword:
		return keywordHits(kw), vec
	case SearchSemantic:
		return vectorHits(vec), vec
	}
	strong := 0.0
	if builtin {
		strong = BuiltinStrongSimilarity
	} else {
		vec = nearest(vec)
	}
	return fuse(kw, vec, strong), vec
}

// defaultGraphPrior is the weight of a note's in-degree in keyword
// ranking: a note's relevance is multiplied by 1 + prior × ln(1 + in-degree),
// so that of two notes that match alike the one more notes link to (the
// canonical note on a topic) comes first, while a hub that matches
// weakly does not beat a specific answer. Chosen on the tuning halves of
// the evaluation sets (search_eval_test.go).
const defaultGraphPrior = 0.1

// withPrior sets each keyword hit's prior from its in-degree in g, with
// weight prior, and orders the hits again.
func withPrior(kw []store.KeywordHit, inDegree func(string) int, prior float64) {
	if prior == 0 || len(kw) == 0 {
		return
	}
	for i := range kw {
		kw[i].Prior = prior * math.Log1p(float64(inDegree(kw[i].ID)))
	}
	store.SortByRelevance(kw)
}

// BuiltinMinSimilarity is the cosine similarity a note's best chunk needs
// for the builtin model's vector search to count the note as found. The
// builtin vectors hash words and character trigrams, so unrelated texts
// share a little by chance. Measured with the evaluation sets
// (search_eval_test.go): the notes expected for a query are 0.10 or more
// similar to it (0.17 or more for the first expected one), the highest
// floor that loses none of them; 41 queries that match nothing in
// testvault reach 0 to 0.19 (all but 11 below 0.10).
const BuiltinMinSimilarity = 0.10

// BuiltinStrongSimilarity is the builtin model's similarity from which a
// note only the vector search found counts fully in hybrid fusion (see
// fuse): most notes expected by the evaluation sets are that similar to
// their query, and the queries that match nothing rarely are.
const BuiltinStrongSimilarity = 0.30

// MinRelativeSimilarity is the share of the best vector similarity a note
// needs to take part in hybrid fusion, for models other than builtin
// (whose similarities between unrelated texts vary from model to model,
// so that no absolute floor fits them all): vector search ranks every
// note, and rank fusion would otherwise lift notes that are only the least
// unlike the query.
const MinRelativeSimilarity = 0.5

// similar keeps the vector hits whose similarity is above 0 and at least
// floor (vec is best first).
func similar(vec []vectorHit, floor float64) []vectorHit {
	n := 0
	for n < len(vec) && vec[n].Similarity > 0 && vec[n].Similarity >= floor {
		n++
	}
	return vec[:n]
}

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
// the best possible, 2/(RRFK+1); for a note only the vector search found,
// its term is scaled by its similarity over the best vector hit's (vec is
// best first) or strong if higher, so that a weak vector hit scores below
// a strong one rather than by its rank alone, and below a keyword hit of
// the same rank when even the best vector hit is weak. (Scaling the vector term of the notes both
// searches found as well made the ranking worse on the evaluation sets.)
// Ties go to the better keyword rank, then the ID.
func fuse(kw []store.KeywordHit, vec []vectorHit, strong float64) []SearchHit {
	// The hits in one slice, by first appearance, and a map sized for
	// them all: a search made an object per hit and grew the map.
	hits := make([]SearchHit, 0, len(kw)+len(vec))
	byID := make(map[string]int, len(kw)+len(vec))
	get := func(id string) *SearchHit {
		i, ok := byID[id]
		if !ok {
			i = len(hits)
			hits = append(hits, SearchHit{ID: id}) // within its capacity
			byID[id] = i
		}
		return &hits[i]
	}
	for i, k := range kw {
		h := get(k.ID)
		h.KeywordRank, h.Snippet = i+1, k.Snippet
		h.Score += 1 / float64(RRFK+i+1)
	}
	for i, v := range vec {
		h := get(v.ID)
		h.VectorRank = i + 1
		share := 1.0
		if best := max(vec[0].Similarity, strong); best > 0 && h.KeywordRank == 0 {
			share = clamp01(v.Similarity / best)
		}
		h.Score += share / float64(RRFK+i+1)
	}
	best := 2 / float64(RRFK+1)
	for i := range hits {
		hits[i].Score = clamp01(hits[i].Score / best)
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
