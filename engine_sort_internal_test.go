package vaultgraph

import (
	"slices"
	"testing"
)

func TestCompareNatural(t *testing.T) {
	got := []string{"N10", "N2", "n1", "N1", "Note 100", "Note 20", "Note 3b", "Note 3a", "Note 03", "Zeta", "alpha", "N02"}
	slices.SortFunc(got, compareNatural)
	want := []string{"N1", "N2", "N02", "N10", "Note 3a", "Note 3b", "Note 03", "Note 20", "Note 100", "Zeta", "alpha", "n1"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted naturally = %q, want %q", got, want)
	}
}
