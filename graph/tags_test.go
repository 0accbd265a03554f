package graph

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// taggedGraph returns nodes with tags and no links.
func taggedGraph() *Graph {
	g := New()
	g.Update(func(tx *Tx) {
		tx.PutNode("alpha", []string{"Project/Alpha", "todo"})
		tx.PutNode("beta", []string{"project/beta", "#TODO", "todo"})
		tx.PutNode("root", []string{"project"})
		tx.PutNode("plural", []string{"projects"})
		tx.PutNode("deep", []string{"project/alpha/notes"})
		tx.PutNode("plain", nil)
	})
	return g
}

func TestNodeTags(t *testing.T) {
	g := New()
	g.Update(func(tx *Tx) {
		tx.PutNode("n", []string{"B", "#a", "b", " ", "#", "A/X/", "a"})
	})
	tests := []struct {
		desc string
		give string
		want []string
	}{
		{desc: "normalized, sorted, deduplicated", give: "n", want: []string{"a", "a/x", "b"}},
		{desc: "missing node", give: "zz", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := g.nodeTags(tt.give); !slices.Equal(got, tt.want) {
				t.Errorf("nodeTags(%q) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func TestTags(t *testing.T) {
	g := taggedGraph()
	want := []TagCount{
		{"todo", 2},
		{"project", 1},
		{"project/alpha", 1},
		{"project/alpha/notes", 1},
		{"project/beta", 1},
		{"projects", 1},
	}
	if got := g.Tags(); !slices.Equal(got, want) {
		t.Errorf("Tags() = %v, want %v", got, want)
	}

	g.Update(func(tx *Tx) {
		tx.PutNode("alpha", []string{"done"})
		tx.Remove("beta")
		tx.Remove("plural")
	})
	want = []TagCount{
		{"done", 1},
		{"project", 1},
		{"project/alpha/notes", 1},
	}
	if got := g.Tags(); !slices.Equal(got, want) {
		t.Errorf("Tags() after retag and remove = %v, want %v", got, want)
	}
}

func TestWithTags(t *testing.T) {
	tests := []struct {
		desc string
		give []string
		all  bool
		want []string
	}{
		{desc: "hierarchical", give: []string{"project"}, want: []string{"alpha", "beta", "deep", "root"}},
		{desc: "child only", give: []string{"project/alpha"}, want: []string{"alpha", "deep"}},
		{desc: "leaf", give: []string{"project/alpha/notes"}, want: []string{"deep"}},
		{desc: "no prefix match without slash", give: []string{"proj"}, want: nil},
		{desc: "plural is its own tag", give: []string{"projects"}, want: []string{"plural"}},
		{desc: "case insensitive", give: []string{"PROJECT/ALPHA"}, want: []string{"alpha", "deep"}},
		{desc: "leading hash", give: []string{"#todo"}, want: []string{"alpha", "beta"}},
		{desc: "any of", give: []string{"todo", "projects"}, want: []string{"alpha", "beta", "plural"}},
		{desc: "all of", give: []string{"todo", "project/beta"}, all: true, want: []string{"beta"}},
		{desc: "all of with hierarchy", give: []string{"#Project", "todo"}, all: true, want: []string{"alpha", "beta"}},
		{desc: "all of disjoint", give: []string{"todo", "projects"}, all: true, want: nil},
		{desc: "all of a single tag", give: []string{"project"}, all: true, want: []string{"alpha", "beta", "deep", "root"}},
		{desc: "unknown tag", give: []string{"nope"}, want: nil},
		{desc: "empty query", give: nil, want: nil},
		{desc: "only blank tags", give: []string{"#", " "}, all: true, want: nil},
	}
	g := taggedGraph()
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := g.WithTags(tt.give, tt.all); !slices.Equal(got, tt.want) {
				t.Errorf("WithTags(%q, %v) = %v, want %v", tt.give, tt.all, got, tt.want)
			}
		})
	}
}

func TestRandom(t *testing.T) {
	tests := []struct {
		desc   string
		give   []string
		want   []string // the possible results
		wantOK bool
	}{
		{desc: "all nodes", give: nil, want: []string{"alpha", "beta", "deep", "plain", "plural", "root"}, wantOK: true},
		{desc: "tag", give: []string{"#TODO"}, want: []string{"alpha", "beta"}, wantOK: true},
		{desc: "hierarchy", give: []string{"project/alpha"}, want: []string{"alpha", "deep"}, wantOK: true},
		{desc: "no match", give: []string{"nope"}, wantOK: false},
	}
	g := taggedGraph()
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			for _, r := range []*rand.Rand{nil, rand.New(rand.NewPCG(1, 2))} {
				seen := map[string]bool{}
				for range 200 {
					id, ok := g.Random(r, tt.give)
					if ok != tt.wantOK || (ok && !slices.Contains(tt.want, id)) {
						t.Fatalf("Random(%v, %q) = %q, %v, want one of %v, %v", r != nil, tt.give, id, ok, tt.want, tt.wantOK)
					}
					seen[id] = ok
				}
				if tt.wantOK && len(seen) != len(tt.want) {
					t.Errorf("Random(%v, %q) returned %d distinct nodes in 200 draws, want %d", r != nil, tt.give, len(seen), len(tt.want))
				}
			}
		})
	}
}

func TestRandomSeeded(t *testing.T) {
	g := taggedGraph()
	draw := func() []string {
		r := rand.New(rand.NewPCG(42, 42))
		var ids []string
		for range 20 {
			id, _ := g.Random(r, []string{"project"})
			ids = append(ids, id)
		}
		return ids
	}
	if a, b := draw(), draw(); !slices.Equal(a, b) {
		t.Errorf("Random with the same seed = %v, then %v, want equal", a, b)
	}
}

func TestRandomUniform(t *testing.T) {
	g := taggedGraph()
	r := rand.New(rand.NewPCG(3, 3))
	const draws = 40000
	counts := map[string]int{}
	for range draws {
		id, _ := g.Random(r, []string{"project"})
		counts[id]++
	}
	// Four candidates; each should get about a quarter of the draws.
	for _, id := range []string{"alpha", "beta", "deep", "root"} {
		if got, want := counts[id], draws/4; got < want*9/10 || got > want*11/10 {
			t.Errorf("Random drew %q %d times in %d draws, want about %d", id, got, draws, want)
		}
	}
}

// nodeTags returns the tags of id, lowercase and sorted, or nil if id is not
// a node or has no tags.
func (g *Graph) nodeTags(id string) []string {
	return nodeValue(g, id, func(n *node) []string { return slices.Clone(n.tags) })
}
