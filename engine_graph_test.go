package vaultgraph_test

// The graph queries over testvault/: Neighbors, FindPath and Hubs.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

func TestNeighbors(t *testing.T) {
	e := openTestVault(t)
	tests := []struct {
		desc      string
		give      string
		dir       graph.Direction
		limit     int
		want      []vaultgraph.Neighbor // only ID and Direction are compared
		wantTotal int
	}{
		{
			desc: "home out", give: "Home", dir: graph.Out,
			want: nbs(graph.Out, archAlpha, projAlpha, beta, deepNote, cafe, meeting), wantTotal: 6,
		},
		{
			desc: "home in", give: "Home", dir: graph.In,
			want: nbs(graph.In, deepNote, brokenYML, cafe, meeting, projAlpha, beta), wantTotal: 6,
		},
		{
			desc: "home both", give: "Home", dir: graph.Both,
			want: append(append(nbs(graph.Out, archAlpha), nbs(graph.Both, projAlpha, beta, deepNote, cafe, meeting)...),
				nbs(graph.In, brokenYML)...),
			wantTotal: 7,
		},
		{
			desc: "empty direction is both", give: "Home", dir: "", limit: 2,
			want: append(nbs(graph.Out, archAlpha), nbs(graph.Both, projAlpha)...), wantTotal: 7,
		},
		{
			desc: "limit", give: "Home", dir: graph.In, limit: 2,
			want: nbs(graph.In, deepNote, brokenYML), wantTotal: 6,
		},
		{
			desc: "archived alpha plan in", give: "Archive/Alpha Plan", dir: graph.In,
			want: nbs(graph.In, oldIdeas, home, meeting), wantTotal: 3,
		},
		{
			desc: "archived alpha plan out", give: "Archive/Alpha Plan", dir: graph.Out,
			want: nbs(graph.Out), wantTotal: 0,
		},
		{desc: "orphan", give: "Orphan", dir: graph.Both, want: nbs(graph.Both), wantTotal: 0},
		{desc: "missing", give: "Missing Note", dir: graph.Both},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, total, _, err := e.Neighbors(context.Background(), tt.give, tt.dir, tt.limit)
			if err != nil {
				t.Fatalf("Neighbors(%q, %q) error = %v", tt.give, tt.dir, err)
			}
			if (got == nil) != (tt.want == nil) {
				t.Fatalf("Neighbors(%q, %q) = %v, want %v", tt.give, tt.dir, got, tt.want)
			}
			if gotS, wantS := nbString(got), nbString(tt.want); gotS != wantS {
				t.Errorf("Neighbors(%q, %q) = %s, want %s", tt.give, tt.dir, gotS, wantS)
			}
			if total != tt.wantTotal {
				t.Errorf("Neighbors(%q, %q) total = %d, want %d", tt.give, tt.dir, total, tt.wantTotal)
			}
			for _, nb := range got {
				if nb.Node == nil || nb.Title == "" {
					t.Errorf("neighbour %+v has no node or title", nb)
				}
			}
		})
	}

	t.Run("ambiguous name warns", func(t *testing.T) {
		_, _, warnings, err := e.Neighbors(context.Background(), "Alpha Plan", graph.Both, 0)
		if err != nil || len(warnings) != 1 {
			t.Errorf("Neighbors(\"Alpha Plan\") warnings, err = %q, %v, want one warning", warnings, err)
		}
	})
	t.Run("bad direction", func(t *testing.T) {
		if _, _, _, err := e.Neighbors(context.Background(), "Home", "up", 0); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("Neighbors(direction up) = %v, want ErrInvalid", err)
		}
	})
	t.Run("bad id", func(t *testing.T) {
		if _, _, _, err := e.Neighbors(context.Background(), "../x", graph.Both, 0); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("Neighbors(\"../x\") = %v, want ErrInvalid", err)
		}
	})
}

func nbs(dir graph.Direction, ids ...string) []vaultgraph.Neighbor {
	out := []vaultgraph.Neighbor{}
	for _, id := range ids {
		out = append(out, vaultgraph.Neighbor{Node: &vaultgraph.Node{ID: id}, Direction: dir})
	}
	return out
}

func nbString(nbs []vaultgraph.Neighbor) string {
	parts := make([]string, len(nbs))
	for i, nb := range nbs {
		parts[i] = string(nb.Direction) + ":" + nb.ID
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func TestFindPath(t *testing.T) {
	e := openTestVault(t)
	tests := []struct {
		desc     string
		source   string
		target   string
		directed bool
		want     []string // nil for no path
	}{
		{desc: "undirected through a backlink", source: "Old Ideas", target: "東京 Trip", want: []string{oldIdeas, archAlpha, meeting, tokyo}},
		{desc: "directed impossible", source: "Old Ideas", target: "東京 Trip", directed: true},
		{desc: "directed", source: "東京 Trip", target: "Home", directed: true, want: []string{tokyo, meeting, home}},
		{desc: "directed the other way", source: "Home", target: "Old Ideas", directed: true},
		{desc: "undirected the other way", source: "Home", target: "Old Ideas", want: []string{home, archAlpha, oldIdeas}},
		{desc: "direct link", source: "Deep Note", target: "Home", directed: true, want: []string{deepNote, home}},
		{desc: "same note", source: "Home", target: "home.md", want: []string{home}},
		{desc: "orphan", source: "Home", target: "Orphan"},
		{desc: "missing source", source: "Missing Note", target: "Home"},
		{desc: "missing target", source: "Home", target: "Missing Note"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, _, err := e.FindPath(context.Background(), tt.source, tt.target, tt.directed)
			if err != nil {
				t.Fatalf("FindPath(%q, %q, %v) error = %v", tt.source, tt.target, tt.directed, err)
			}
			if tt.want == nil {
				if got != nil {
					t.Errorf("FindPath(%q, %q, %v) = %+v, want nil", tt.source, tt.target, tt.directed, got)
				}
				return
			}
			if got == nil {
				t.Fatalf("FindPath(%q, %q, %v) = nil, want %q", tt.source, tt.target, tt.directed, tt.want)
			}
			if !slices.Equal(got.Path, tt.want) || got.Length != len(tt.want)-1 {
				t.Errorf("FindPath(%q, %q, %v) = %q (length %d), want %q (length %d)",
					tt.source, tt.target, tt.directed, got.Path, got.Length, tt.want, len(tt.want)-1)
			}
		})
	}
	t.Run("warnings for an ambiguous name", func(t *testing.T) {
		_, warnings, err := e.FindPath(context.Background(), "Alpha Plan", "Home", false)
		if err != nil || len(warnings) != 1 {
			t.Errorf("FindPath(\"Alpha Plan\", Home) warnings, err = %q, %v, want one warning", warnings, err)
		}
	})
	t.Run("bad ids", func(t *testing.T) {
		for _, ids := range [][2]string{{"../x", "Home"}, {"Home", "/abs"}, {"", "Home"}} {
			if _, _, err := e.FindPath(context.Background(), ids[0], ids[1], false); !errors.Is(err, vaultgraph.ErrInvalid) {
				t.Errorf("FindPath(%q, %q) = %v, want ErrInvalid", ids[0], ids[1], err)
			}
		}
	})
}

func TestHubs(t *testing.T) {
	e := openTestVault(t)
	tests := []struct {
		desc       string
		give       graph.Metric
		limit      int
		want       []string
		wantScores []float64 // nil: not compared
	}{
		{
			desc: "in degree", give: graph.InDegree, limit: 4,
			want: []string{home, archAlpha, meeting, beta}, wantScores: []float64{6, 3, 3, 3},
		},
		{desc: "default metric is in degree", give: "", limit: 1, want: []string{home}, wantScores: []float64{6}},
		{
			desc: "out degree", give: graph.OutDegree, limit: 4,
			want: []string{home, meeting, projAlpha, beta}, wantScores: []float64{6, 5, 3, 2},
		},
		{desc: "pagerank", give: graph.PageRank, limit: 1, want: []string{home}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			hubs, err := e.Hubs(context.Background(), tt.give, tt.limit)
			if err != nil {
				t.Fatalf("Hubs(%q) error = %v", tt.give, err)
			}
			var ids []string
			var scores []float64
			for _, h := range hubs {
				ids = append(ids, h.ID)
				scores = append(scores, h.Score)
				if h.Title == "" {
					t.Errorf("hub %q has no title", h.ID)
				}
			}
			if !slices.Equal(ids, tt.want) {
				t.Errorf("Hubs(%q, %d) = %q, want %q", tt.give, tt.limit, ids, tt.want)
			}
			if tt.wantScores != nil && !slices.Equal(scores, tt.wantScores) {
				t.Errorf("Hubs(%q, %d) scores = %v, want %v", tt.give, tt.limit, scores, tt.wantScores)
			}
		})
	}
	t.Run("pagerank sums to one", func(t *testing.T) {
		hubs, err := e.Hubs(context.Background(), graph.PageRank, 0)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for i, h := range hubs {
			sum += h.Score
			if i > 0 && h.Score > hubs[i-1].Score {
				t.Errorf("hub %d (%s, %v) scores above hub %d (%v)", i, h.ID, h.Score, i-1, hubs[i-1].Score)
			}
		}
		if len(hubs) != len(allNotes) || sum < 0.999 || sum > 1.001 {
			t.Errorf("Hubs(pagerank, 0) = %d hubs summing to %v, want %d summing to 1", len(hubs), sum, len(allNotes))
		}
	})
	t.Run("unknown metric", func(t *testing.T) {
		if _, err := e.Hubs(context.Background(), "betweenness", 10); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("Hubs(betweenness) = %v, want ErrInvalid", err)
		}
	})
}
