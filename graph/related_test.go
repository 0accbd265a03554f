package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// chain is a graph where closeness to a is clear:
//
//	a -> b, c;  b -> d;  c -> d;  d -> e;  e -> f;  x -> y (apart)
func chain() *Graph {
	return buildGraph(
		link{"a", []string{"b", "c"}},
		link{"b", []string{"d"}},
		link{"c", []string{"d"}},
		link{"d", []string{"e"}},
		link{"e", []string{"f"}},
		link{"f", nil},
		link{"x", []string{"y"}},
		link{"y", nil},
	)
}

func relatedIDs(rs []Related) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func TestRelated(t *testing.T) {
	g := chain()
	tests := []struct {
		desc          string
		seeds         []string
		excludeLinked bool
		want          []string
	}{
		{"many paths first", []string{"a"}, false, []string{"d", "b", "c", "e", "f"}},
		{"without the neighbours", []string{"a"}, true, []string{"d", "e", "f"}},
		{"two seeds", []string{"a", "f"}, false, []string{"d", "e", "b", "c"}},
		{"unknown seeds ignored", []string{"nope", "x"}, false, []string{"y"}},
		{"no seed", []string{"nope"}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, total := g.Related(tt.seeds, tt.excludeLinked, 0)
			if total != len(got) {
				t.Errorf("Related(%q) total = %d, want %d", tt.seeds, total, len(got))
			}
			if top, n := g.Related(tt.seeds, tt.excludeLinked, 2); n != total || !slices.Equal(relatedIDs(top), relatedIDs(got[:min(2, len(got))])) {
				t.Errorf("Related(%q, limit 2) = %v, %d, want the first 2 of %v", tt.seeds, top, n, got)
			}
			if ids := relatedIDs(got); !slices.Equal(ids, tt.want) {
				t.Errorf("Related(%q, %v) = %q, want %q", tt.seeds, tt.excludeLinked, ids, tt.want)
			}
			if len(got) > 0 && got[0].Score != 1 {
				t.Errorf("Related(%q) best score = %v, want 1", tt.seeds, got[0].Score)
			}
		})
	}
}

func TestRelatedWhy(t *testing.T) {
	g := chain()
	got := g.RelatedWhy([]string{"a"}, []string{"d", "e", "f", "y"})
	want := []Why{{Distance: 2, Shared: []string{"b", "c"}}, {Distance: 3}, {Distance: 4}, {}}
	for i := range want {
		if got[i].Distance != want[i].Distance || !slices.Equal(got[i].Shared, want[i].Shared) {
			t.Errorf("RelatedWhy(a)[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func BenchmarkRelated(b *testing.B) {
	g, links := benchGraph(b)
	r := rand.New(rand.NewPCG(5, 6))
	for b.Loop() {
		g.Related([]string{links[r.IntN(len(links))].id}, false, 10)
	}
}
