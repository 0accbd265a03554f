package vaultgraph

import (
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestWatchPending: the changes waiting when the watcher takes one are
// taken with it, in one sync; a rescan asked by any of them is kept.
func TestWatchPending(t *testing.T) {
	tests := []struct {
		desc    string
		first   vault.Change
		waiting []vault.Change
		want    vault.Change
	}{
		{desc: "nothing waiting", first: vault.Change{Paths: []string{"a.md"}}, want: vault.Change{Paths: []string{"a.md"}}},
		{desc: "paths waiting", first: vault.Change{Paths: []string{"a.md"}},
			waiting: []vault.Change{{Paths: []string{"b.md"}}, {Paths: []string{"c.md", "a.md"}}},
			want:    vault.Change{Paths: []string{"a.md", "b.md", "c.md", "a.md"}}},
		{desc: "a rescan waiting", first: vault.Change{Paths: []string{"a.md"}},
			waiting: []vault.Change{{Rescan: true}, {Paths: []string{"b.md"}}},
			want:    vault.Change{Paths: []string{"a.md", "b.md"}, Rescan: true}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			changes := make(chan vault.Change, len(tt.waiting))
			for _, c := range tt.waiting {
				changes <- c
			}
			first := slices.Clone(tt.first.Paths)
			got := pending(tt.first, changes)
			if !slices.Equal(got.Paths, tt.want.Paths) || got.Rescan != tt.want.Rescan {
				t.Errorf("pending(%+v, %+v) = %+v, want %+v", tt.first, tt.waiting, got, tt.want)
			}
			if !slices.Equal(tt.first.Paths, first) {
				t.Errorf("pending changed the first change's paths to %q", tt.first.Paths)
			}
			if len(changes) != 0 {
				t.Errorf("pending left %d changes waiting", len(changes))
			}
		})
	}
}
