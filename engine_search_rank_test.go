package vaultgraph

import (
	"math"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

func TestKeywordHitsScores(t *testing.T) {
	kw := []store.KeywordHit{
		{ID: "a", BM25: -4, Matched: 2, Terms: 2},
		{ID: "b", BM25: -2, Title: true, Matched: 2, Terms: 2}, // relevance 4 (title boost)
		{ID: "c", BM25: -1, Matched: 2, Terms: 2},
		{ID: "d", BM25: -8, Matched: 1, Terms: 2},
	}
	want := []float64{0.5, 0.5, 0.125, 0.5}
	for i, h := range keywordHits(kw) {
		if math.Abs(h.Score-want[i]) > 1e-9 || h.KeywordRank != i+1 || h.ID != kw[i].ID {
			t.Errorf("keywordHits[%d] = %+v, want %s score %v rank %d", i, h, kw[i].ID, want[i], i+1)
		}
	}
	// bm25 of words in most notes is about 0: scores stay defined.
	for _, h := range keywordHits([]store.KeywordHit{{ID: "z", Matched: 1, Terms: 1}}) {
		if h.Score != 1 {
			t.Errorf("keywordHits(bm25 0) score = %v, want 1", h.Score)
		}
	}
}

func TestFuse(t *testing.T) {
	kw := []store.KeywordHit{{ID: "A", Snippet: "a"}, {ID: "B", Snippet: "b"}, {ID: "C", Snippet: "c"}}
	vec := []vectorHit{{ID: "B", Similarity: 0.9}, {ID: "D", Similarity: 0.45}, {ID: "A", Similarity: 0.1}}
	got := fuse(kw, vec, 0)
	rrf := func(share float64, ranks ...int) float64 {
		s := 0.0
		for i, r := range ranks {
			if i == 0 {
				s += share / float64(RRFK+r)
			} else {
				s += 1 / float64(RRFK+r)
			}
		}
		return s / (2 / float64(RRFK+1))
	}
	// B (ranks 2 and 1) beats A (1 and 3): 1/62+1/61 > 1/61+1/63, found
	// by both, whatever their similarity. D (vector 2 only) counts half:
	// its similarity is half the best; so C (keyword 3) beats it.
	want := []SearchHit{
		{ID: "B", Score: rrf(1, 2, 1), Snippet: "b", KeywordRank: 2, VectorRank: 1},
		{ID: "A", Score: rrf(1, 1, 3), Snippet: "a", KeywordRank: 1, VectorRank: 3},
		{ID: "C", Score: rrf(1, 3), Snippet: "c", KeywordRank: 3},
		{ID: "D", Score: rrf(0.5, 2), VectorRank: 2},
	}
	if len(got) != len(want) {
		t.Fatalf("fuse = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i].ID || math.Abs(got[i].Score-want[i].Score) > 1e-12 || got[i].Snippet != want[i].Snippet ||
			got[i].KeywordRank != want[i].KeywordRank || got[i].VectorRank != want[i].VectorRank {
			t.Errorf("fuse[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	// With strong above the best similarity, a vector-only hit counts
	// against strong.
	got = fuse(nil, []vectorHit{{ID: "W", Similarity: 0.12}}, BuiltinStrongSimilarity)
	if w := rrf(0.12/BuiltinStrongSimilarity, 1); len(got) != 1 || math.Abs(got[0].Score-w) > 1e-12 {
		t.Errorf("fuse(weak only, strong %v) = %+v, want score %v", BuiltinStrongSimilarity, got, w)
	}
	// First in both scores 1; ties go to the better keyword rank.
	got = fuse([]store.KeywordHit{{ID: "X"}, {ID: "Y"}}, []vectorHit{{ID: "X", Similarity: 0.8}, {ID: "Z", Similarity: 0.8}}, 0)
	if got[0].ID != "X" || got[0].Score != 1 {
		t.Errorf("fuse: first in both = %+v, want X with score 1", got[0])
	}
	if got[1].ID != "Y" || got[2].ID != "Z" || got[1].Score != got[2].Score {
		t.Errorf("fuse: tie = %+v, %+v, want Y (keyword 2) before Z (vector 2), same score", got[1], got[2])
	}
}

func TestSimilarAndNearest(t *testing.T) {
	vec := func(sims ...float64) []vectorHit {
		out := make([]vectorHit, len(sims))
		for i, s := range sims {
			out[i] = vectorHit{ID: string(rune('A' + i)), Similarity: s}
		}
		return out
	}
	tests := []struct {
		desc    string
		give    []vectorHit
		floor   float64
		similar int // hits similar keeps
		nearest int // hits nearest keeps of those
	}{
		{"none", nil, 0.15, 0, 0},
		{"0 and below never count", vec(0.3, 0.1, 0, -0.2), 0, 2, 1},
		{"the builtin floor", vec(0.6, 0.2, 0.1, 0.099, 0.05), BuiltinMinSimilarity, 3, 1},
		{"a query like nothing", vec(0.042, 0.04, 0.01), BuiltinMinSimilarity, 0, 0},
		{"relative cut", vec(0.8, 0.5, 0.4, 0.39), 0, 4, 3},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := similar(tt.give, tt.floor)
			if len(got) != tt.similar {
				t.Errorf("similar(%v, %v) kept %d hits, want %d", tt.give, tt.floor, len(got), tt.similar)
			}
			if n := nearest(got); len(n) != tt.nearest {
				t.Errorf("nearest(%v) kept %d hits, want %d", got, len(n), tt.nearest)
			}
		})
	}
}
