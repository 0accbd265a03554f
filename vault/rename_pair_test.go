package vault

import (
	"fmt"
	"slices"
	"testing"
)

func TestPairRenames(t *testing.T) {
	feats := []string{"h:Goals", "l:home#", "t:project", "t:beta"}
	slices.Sort(feats)
	c := func(id, hash string, f ...string) RenameCandidate {
		slices.Sort(f)
		return RenameCandidate{ID: id, Hash: hash, Size: 100, Features: f}
	}
	for _, tc := range []struct {
		desc        string
		gone, added []RenameCandidate
		want        []string
	}{
		{desc: "same hash", gone: []RenameCandidate{c("A.md", "h1")}, added: []RenameCandidate{c("B.md", "h1")},
			want: []string{"A.md>B.md"}},
		{desc: "different content", gone: []RenameCandidate{c("A.md", "h1", "x", "y", "z")}, added: []RenameCandidate{c("B.md", "h2", "p", "q", "r")}},
		{desc: "similar content", gone: []RenameCandidate{c("A.md", "h1", feats...)}, added: []RenameCandidate{c("B.md", "h2", append(slices.Clone(feats), "t:new")...)},
			want: []string{"A.md>B.md similar"}},
		{desc: "too few features to judge", gone: []RenameCandidate{c("A.md", "h1", "x", "y", "z")}, added: []RenameCandidate{c("B.md", "h2", "x", "y", "z")}},
		{desc: "one template, another date", gone: []RenameCandidate{c("Daily/1.md", "h1", "t:daily", "h:Tasks", "h:Notes", "l:home#", "p:date=1")},
			added: []RenameCandidate{c("Daily/2.md", "h2", "t:daily", "h:Tasks", "h:Notes", "l:home#", "p:date=2")}},
		{desc: "two candidates", gone: []RenameCandidate{c("One.md", "h"), c("Two.md", "h")}, added: []RenameCandidate{c("Uno.md", "h"), c("Dos.md", "h")},
			want: []string{"One.md>Dos.md ambiguous", "One.md>Uno.md ambiguous", "Two.md>Dos.md ambiguous", "Two.md>Uno.md ambiguous"}},
		{desc: "a folder of same-content notes", gone: []RenameCandidate{c("F/A.md", "h"), c("F/B.md", "h")}, added: []RenameCandidate{c("G/A.md", "h"), c("G/B.md", "h")},
			want: []string{"F/A.md>G/A.md", "F/B.md>G/B.md"}},
		{desc: "nothing appeared", gone: []RenameCandidate{c("A.md", "h")}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var got []string
			for _, p := range PairRenames(tc.gone, tc.added, 1000) {
				s := p.From + ">" + p.To
				if p.Similar {
					s += " similar"
				}
				if p.Ambiguous {
					s += " ambiguous"
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("PairRenames = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNoteFeatures(t *testing.T) {
	n, err := NewParser().Parse("A.md", []byte("---\ntags: [x]\nstatus: done\n---\n# Head\n\n[[B#Sec]] #y ^blk\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(NoteFeatures(n))
	want := "[b:blk h:Head l:b#Sec p:status=done t:x t:y]"
	if got != want {
		t.Errorf("NoteFeatures = %s, want %s", got, want)
	}
}
