package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSetOut(t *testing.T) {
	tests := []struct {
		desc      string
		give      []string
		want      []string
		wantEdges int // total in the graph afterwards
	}{
		{desc: "replace", give: []string{"d", "b"}, want: []string{"d", "b"}, wantEdges: 4},
		{desc: "duplicates count once", give: []string{"e", "b", "e", "b"}, want: []string{"e", "b"}, wantEdges: 4},
		{desc: "self loop ignored", give: []string{"a", "b", "a"}, want: []string{"b"}, wantEdges: 3},
		{desc: "unknown targets ignored", give: []string{"nope", "c", ""}, want: []string{"c"}, wantEdges: 3},
		{desc: "clear", give: nil, want: nil, wantEdges: 2},
		{desc: "unchanged", give: []string{"b", "c", "d"}, want: []string{"b", "c", "d"}, wantEdges: 5},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g := abcd()
			g.Update(func(tx *Tx) { tx.SetOut("a", tt.give) })
			if got := g.Out("a"); !slices.Equal(got, tt.want) {
				t.Errorf("Out(a) = %v, want %v", got, tt.want)
			}
			if got := g.EdgeCount(); got != tt.wantEdges {
				t.Errorf("EdgeCount() = %d, want %d", got, tt.wantEdges)
			}
			for _, id := range g.IDs() {
				wantIn := slices.Contains(tt.want, id)
				if got := slices.Contains(g.In(id), "a"); got != wantIn {
					t.Errorf("In(%q) contains a = %v, want %v", id, got, wantIn)
				}
			}
		})
	}
}

func TestSetOutUnknownSource(t *testing.T) {
	g := abcd()
	g.Update(func(tx *Tx) { tx.SetOut("zz", []string{"a", "b"}) })
	if got := g.Has("zz"); got {
		t.Errorf("Has(zz) = %v, want false", got)
	}
	if got := g.EdgeCount(); got != 5 {
		t.Errorf("EdgeCount() = %d, want 5", got)
	}
}

func TestRemove(t *testing.T) {
	tests := []struct {
		desc      string
		give      string
		wantIDs   []string
		wantEdges int
		wantOutA  []string
		wantInC   []string
	}{
		{desc: "hub", give: "a", wantIDs: []string{"b", "c", "d", "e"}, wantEdges: 1, wantInC: []string{"b"}},
		{desc: "target", give: "c", wantIDs: []string{"a", "b", "d", "e"}, wantEdges: 2, wantOutA: []string{"b", "d"}},
		{desc: "orphan", give: "e", wantIDs: []string{"a", "b", "c", "d"}, wantEdges: 5, wantOutA: []string{"b", "c", "d"}, wantInC: []string{"a", "b"}},
		{desc: "missing", give: "zz", wantIDs: []string{"a", "b", "c", "d", "e"}, wantEdges: 5, wantOutA: []string{"b", "c", "d"}, wantInC: []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g := abcd()
			g.Update(func(tx *Tx) { tx.Remove(tt.give) })
			if got := g.IDs(); !slices.Equal(got, tt.wantIDs) {
				t.Errorf("IDs() = %v, want %v", got, tt.wantIDs)
			}
			if got := g.EdgeCount(); got != tt.wantEdges {
				t.Errorf("EdgeCount() = %d, want %d", got, tt.wantEdges)
			}
			if got := g.Out("a"); !slices.Equal(got, tt.wantOutA) {
				t.Errorf("Out(a) = %v, want %v", got, tt.wantOutA)
			}
			if got := g.In("c"); !slices.Equal(got, tt.wantInC) {
				t.Errorf("In(c) = %v, want %v", got, tt.wantInC)
			}
		})
	}
}

func TestRemoveThenReAdd(t *testing.T) {
	g := abcd()
	g.Update(func(tx *Tx) { tx.PutNode("c", []string{"old"}) })
	g.Update(func(tx *Tx) {
		tx.Remove("c")
		tx.PutNode("c", []string{"new"})
	})
	if got := g.Out("c"); got != nil {
		t.Errorf("Out(c) = %v, want nil", got)
	}
	if got := g.In("c"); got != nil {
		t.Errorf("In(c) = %v, want nil", got)
	}
	if got, want := g.nodeTags("c"), []string{"new"}; !slices.Equal(got, want) {
		t.Errorf("nodeTags(c) = %v, want %v", got, want)
	}
	if got := g.WithTags([]string{"old"}, false); got != nil {
		t.Errorf("WithTags(old) = %v, want nil", got)
	}
	g.Update(func(tx *Tx) {
		tx.SetOut("b", []string{"c"})
		tx.SetOut("c", []string{"a"})
	})
	if got, want := g.In("c"), []string{"b"}; !slices.Equal(got, want) {
		t.Errorf("In(c) = %v, want %v", got, want)
	}
	// a -> c is not restored: only a's own SetOut could do that.
	if got := g.EdgeCount(); got != 4 {
		t.Errorf("EdgeCount() = %d, want 4", got)
	}
}

func TestPutNodeKeepsEdges(t *testing.T) {
	g := abcd()
	g.Update(func(tx *Tx) { tx.PutNode("a", []string{"x"}) })
	if got, want := g.Out("a"), []string{"b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("Out(a) = %v, want %v", got, want)
	}
	if got, want := g.In("a"), []string{"c"}; !slices.Equal(got, want) {
		t.Errorf("In(a) = %v, want %v", got, want)
	}
	g.Update(func(tx *Tx) { tx.PutNode("", nil) })
	if got := g.Len(); got != 5 {
		t.Errorf("Len() after PutNode(\"\") = %d, want 5", got)
	}
}

func TestTxHas(t *testing.T) {
	tests := []struct {
		desc string
		give func(tx *Tx)
		want bool
	}{
		{desc: "existing", give: func(*Tx) {}, want: true},
		{desc: "removed in batch", give: func(tx *Tx) { tx.Remove("a") }, want: false},
		{desc: "re-added in batch", give: func(tx *Tx) { tx.Remove("a"); tx.PutNode("a", nil) }, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			g := abcd()
			var got bool
			g.Update(func(tx *Tx) {
				tt.give(tx)
				got = tx.Has("a")
			})
			if got != tt.want {
				t.Errorf("Tx.Has(a) = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTxUsedAfterUpdate(t *testing.T) {
	g := New()
	var saved *Tx
	g.Update(func(tx *Tx) { saved = tx })
	defer func() {
		if recover() == nil {
			t.Errorf("PutNode on a finished Tx did not panic")
		}
	}()
	saved.PutNode("a", nil)
}

func TestRandomOpsMatchModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	g := New()
	model := map[string][]string{} // node -> out links, in SetOut order
	name := func() string { return fmt.Sprintf("n%02d", r.IntN(40)) }
	for range 300 {
		g.Update(func(tx *Tx) {
			for range 1 + r.IntN(5) {
				id := name()
				switch op := r.IntN(10); {
				case op < 3:
					tx.PutNode(id, nil)
					if _, ok := model[id]; !ok {
						model[id] = nil
					}
				case op < 9:
					var targets []string
					for range r.IntN(8) {
						targets = append(targets, name())
					}
					tx.SetOut(id, targets)
					if _, ok := model[id]; ok {
						var out []string
						for _, tg := range targets {
							if _, ok := model[tg]; ok && tg != id && !slices.Contains(out, tg) {
								out = append(out, tg)
							}
						}
						model[id] = out
					}
				default:
					tx.Remove(id)
					delete(model, id)
					for src, out := range model {
						model[src] = slices.DeleteFunc(out, func(s string) bool { return s == id })
					}
				}
			}
		})
		checkModel(t, g, model)
		if t.Failed() {
			return
		}
	}
}

func checkModel(t *testing.T, g *Graph, model map[string][]string) {
	t.Helper()
	in := map[string][]string{}
	edges := 0
	for src, out := range model {
		edges += len(out)
		for _, dst := range out {
			in[dst] = append(in[dst], src)
		}
	}
	if got := g.Len(); got != len(model) {
		t.Errorf("Len() = %d, want %d", got, len(model))
	}
	if got := g.EdgeCount(); got != edges {
		t.Errorf("EdgeCount() = %d, want %d", got, edges)
	}
	for id, out := range model {
		if got := g.Out(id); !slices.Equal(got, out) {
			t.Errorf("Out(%q) = %v, want %v", id, got, out)
		}
		wantIn := in[id]
		slices.Sort(wantIn)
		if got := g.In(id); !slices.Equal(got, wantIn) {
			t.Errorf("In(%q) = %v, want %v", id, got, wantIn)
		}
	}
}

func TestSetOutStampWraparound(t *testing.T) {
	g := abcd()
	g.stamp = math.MaxUint32 - 1
	for i := range 3 {
		g.Update(func(tx *Tx) { tx.SetOut("a", []string{"d", "e", "d"}) })
		if got, want := g.Out("a"), []string{"d", "e"}; !slices.Equal(got, want) {
			t.Errorf("Out(a) after SetOut %d = %v, want %v", i, got, want)
		}
		if got := g.EdgeCount(); got != 4 {
			t.Errorf("EdgeCount() after SetOut %d = %d, want 4", i, got)
		}
	}
}

// TestBuildSameAsUpdate fills one graph with Build and one with Update,
// the same nodes and edges in the same order, and compares every node's
// edges, degrees and neighbours.
func TestBuildSameAsUpdate(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, 300)
	for i := range ids {
		ids[i] = fmt.Sprintf("n%03d-%d", rnd.IntN(1000), i)
	}
	out := map[string][]string{}
	for _, id := range ids {
		for range rnd.IntN(12) {
			out[id] = append(out[id], ids[rnd.IntN(len(ids))])
		}
	}
	fill := func(tx *Tx) {
		tx.Remove("not there")
		for _, id := range ids {
			tx.PutNode(id, []string{"t"})
		}
		for _, id := range ids {
			tx.SetOut(id, out[id])
		}
		tx.SetOut(ids[0], out[ids[1]]) // a second SetOut replaces the first
		tx.Remove(ids[2])
	}
	built, updated := New(), New()
	built.Build(fill)
	updated.Update(fill)
	if !slices.Equal(built.IDs(), updated.IDs()) || built.EdgeCount() != updated.EdgeCount() {
		t.Fatalf("Build: %d nodes, %d edges; Update: %d, %d", built.Len(), built.EdgeCount(), updated.Len(), updated.EdgeCount())
	}
	for _, id := range updated.IDs() {
		if got, want := built.In(id), updated.In(id); !slices.Equal(got, want) {
			t.Errorf("In(%s) after Build = %v, want %v", id, got, want)
		}
		if got, want := built.Out(id), updated.Out(id); !slices.Equal(got, want) {
			t.Errorf("Out(%s) after Build = %v, want %v", id, got, want)
		}
		if got, want := built.Neighbors(id, Both, 0), updated.Neighbors(id, Both, 0); !slices.Equal(got, want) {
			t.Errorf("Neighbors(%s) after Build = %v, want %v", id, got, want)
		}
	}
	// The built graph takes live changes like any other.
	built.Update(func(tx *Tx) { tx.SetOut(ids[3], []string{ids[4], ids[5]}) })
	updated.Update(func(tx *Tx) { tx.SetOut(ids[3], []string{ids[4], ids[5]}) })
	for _, id := range ids[3:6] {
		if got, want := built.In(id), updated.In(id); !slices.Equal(got, want) {
			t.Errorf("In(%s) after a change = %v, want %v", id, got, want)
		}
	}
}
