package vaultgraph

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// TestBuildRefs: buildRefs files the same notes under the same names as
// filing each note on its own (addRefs), for links to themselves, links
// named twice, names in other letter cases and packed links alike; its
// lists lie in one slice, each capped, so that filing or dropping a
// note later leaves the other lists as they were.
func TestBuildRefs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	targets := []string{"Alpha", "alpha.MD", "Beta/", "Gamma", "Ünïcode", "ÜNÏCODE", "dir/Delta", "Epsilon#x"}
	notes := map[string]*noteState{}
	for i := range 300 {
		id := fmt.Sprintf("n%03d.md", i)
		var links []vault.Link
		for range rng.IntN(6) {
			target := targets[rng.IntN(len(targets))]
			if rng.IntN(8) == 0 {
				target = fmt.Sprintf("n%03d", rng.IntN(300))
			}
			links = append(links, vault.Link{Kind: vault.KindWiki, Target: target})
		}
		if rng.IntN(5) == 0 { // [[#heading]]: a link to itself
			links = append(links, vault.Link{Kind: vault.KindWiki, Fragment: "heading"})
		}
		ns := &noteState{note: &vault.Note{ID: id, Links: links}}
		if i%2 == 0 {
			ns.lazy, ns.note.Links = newLazyLinks(new(store.LinkPacker).Pack(links)), nil
		}
		notes[id] = ns
	}
	want := idLists{}
	for _, ns := range notes {
		addRefs(want, ns)
	}
	got := buildRefs(notes)
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("buildRefs = %q,\nwant %q", got, want)
	}
	lo, hi, total := uintptr(1<<63), uintptr(0), 0
	for k, l := range got {
		if cap(l) != len(l) {
			t.Errorf("list %q: cap %d, len %d: an add would write past it", k, cap(l), len(l))
		}
		p := uintptr(unsafe.Pointer(unsafe.SliceData(l)))
		lo, hi, total = min(lo, p), max(hi, p+uintptr(len(l))*unsafe.Sizeof("")), total+len(l)
	}
	if span := int(hi-lo) / int(unsafe.Sizeof("")); span > 2*total {
		t.Errorf("the lists span %d strings for %d: not one slice", span, total)
	}
	before := maps.Clone(got)
	for k := range before {
		before[k] = slices.Clone(before[k])
	}
	got.add("alpha", "n999.md")
	got.drop("gamma", got["gamma"][0])
	for k, l := range got {
		if k != "alpha" && k != "gamma" && !slices.Equal(l, before[k]) {
			t.Errorf("after an add and a drop elsewhere, %q = %q, was %q", k, l, before[k])
		}
	}
}

// TestAppendRefKey: appendRefKey appends what refKey returns, for ASCII
// names in any case and for names Fold changes beyond ASCII.
func TestAppendRefKey(t *testing.T) {
	for _, target := range []string{"", "Alpha", "dir/Sub/Beta.MD", "Gamma/", "a.md/", "Ünïcode Name", "ＦＵＬＬ",
		"e\u0301cole", "ǅ", "İstanbul", "x#y", "../Up", "KELVIN \u212a", "tab\tname.Md"} {
		if got, want := string(appendRefKey([]byte("pre:"), target)), "pre:"+refKey(target); got != want {
			t.Errorf("appendRefKey(%q) = %q, want %q", target, got, want)
		}
	}
}
