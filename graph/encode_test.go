package graph

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// sameState reports how got's nodes, index, tags and edges differ from
// want's, or "".
func sameState(got, want *Graph) string {
	if len(got.nodes) != len(want.nodes) {
		return fmt.Sprintf("%d slots, want %d", len(got.nodes), len(want.nodes))
	}
	for i := range got.nodes { // nil and empty lists alike
		a, b := &got.nodes[i], &want.nodes[i]
		if a.id != b.id || a.livePos != b.livePos || !slices.Equal(a.tags, b.tags) ||
			!slices.Equal(a.out, b.out) || !slices.Equal(a.outSorted, b.outSorted) || !slices.Equal(a.in, b.in) {
			return fmt.Sprintf("slot %d is %+v, want %+v", i, *a, *b)
		}
	}
	switch {
	case !reflect.DeepEqual(got.index, want.index):
		return "index differs"
	case !reflect.DeepEqual(got.live, want.live) || !reflect.DeepEqual(got.free, want.free):
		return fmt.Sprintf("live %v free %v, want %v %v", got.live, got.free, want.live, want.free)
	case !reflect.DeepEqual(got.tags, want.tags):
		return "tags differ"
	case got.edges != want.edges:
		return fmt.Sprintf("edges %d, want %d", got.edges, want.edges)
	}
	return ""
}

// TestDecodeRoundTrip checks that a decoded graph is the graph encoded,
// with removed slots and tags, and that both change alike afterwards.
func TestDecodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	links := randomLinks(r, 300, 4)
	g := New()
	g.Build(func(tx *Tx) {
		for i, l := range links {
			tx.PutNode(l.id, []string{fmt.Sprintf("#Tag%d", i%7), "shared"})
		}
		for _, l := range links {
			tx.SetOut(l.id, l.out)
		}
	})
	g.Update(func(tx *Tx) {
		for i := 0; i < 40; i += 3 {
			tx.Remove(links[i].id)
		}
	})
	got, err := Decode(g.AppendBinary(nil))
	if err != nil {
		t.Fatal(err)
	}
	if diff := sameState(got, g); diff != "" {
		t.Fatalf("decoded graph: %s", diff)
	}
	if a, b := got.Hubs(PageRank, 5), g.Hubs(PageRank, 5); !reflect.DeepEqual(a, b) {
		t.Errorf("Hubs = %v, want %v", a, b)
	}
	change := func(tx *Tx) {
		tx.PutNode("new", []string{"fresh"})
		tx.SetOut("new", []string{links[50].id, links[51].id})
		tx.SetOut(links[60].id, []string{"new"})
		tx.Remove(links[70].id)
	}
	got.Update(change)
	g.Update(change)
	if diff := sameState(got, g); diff != "" {
		t.Fatalf("after the same change: %s", diff)
	}
}

// TestDecodeDamaged checks that damaged bytes give ErrEncoding, never a
// panic.
func TestDecodeDamaged(t *testing.T) {
	b := abcd().AppendBinary(nil)
	if _, err := Decode(b[:len(b)-1]); !errors.Is(err, ErrEncoding) {
		t.Errorf("Decode(cut) = %v, want ErrEncoding", err)
	}
	if _, err := Decode(append(b, 0)); !errors.Is(err, ErrEncoding) {
		t.Errorf("Decode(trailing byte) = %v, want ErrEncoding", err)
	}
	for i := range b {
		for _, c := range []byte{0, 1, 0x7f, 0xff} {
			bad := append([]byte(nil), b...)
			bad[i] = c
			_, _ = Decode(bad)
		}
	}
}
