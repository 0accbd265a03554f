package vaultgraph

import (
	"slices"
	"testing"
)

// TestIDLists files IDs under keys in any order, twice, and drops them:
// each key's IDs stay sorted and unique, and a key with none left goes.
func TestIDLists(t *testing.T) {
	m := idLists{}
	for _, id := range []string{"c.md", "a.md", "b.md", "a.md", "c.md"} {
		m.add("k", id)
	}
	m.add("other", "z.md")
	if got, want := m["k"], []string{"a.md", "b.md", "c.md"}; !slices.Equal(got, want) {
		t.Errorf("after the adds k = %q, want %q", got, want)
	}
	m.drop("k", "b.md")
	m.drop("k", "nope.md")
	m.drop("missing", "a.md")
	if got, want := m["k"], []string{"a.md", "c.md"}; !slices.Equal(got, want) {
		t.Errorf("after the drops k = %q, want %q", got, want)
	}
	m.drop("other", "z.md")
	if _, ok := m["other"]; ok || len(m) != 1 {
		t.Errorf("after dropping its only ID, other is still there: %q", m)
	}
}
