package store

import (
	"context"
	"slices"
	"testing"
)

func TestNotesWithPhrase(t *testing.T) {
	s := searchStore(t)
	tests := []struct {
		desc    string
		give    string
		exclude []string
		want    []string
	}{
		{"one word, any case", "BETA", nil, []string{"Projects/Beta.md", "Projects/Alpha Plan.md"}},
		{"excluded", "beta", []string{"Projects/Beta.md"}, []string{"Projects/Alpha Plan.md"}},
		{"words in order", "alpha plan", nil, []string{"Projects/Alpha Plan.md"}},
		{"not a prefix", "budg", nil, nil},
		{"accents ignored", "cafe", nil, []string{"Notes/Café Menu.md", "Notes/Meeting Notes.md"}},
		{"quotes are text", `"plan`, nil, []string{"Projects/Alpha Plan.md", "Projects/Beta.md"}},
		{"nothing to look for", "  ", nil, nil},
		{"at most limit", "only words", nil, []string{"Filler/N01.md", "Filler/N02.md", "Filler/N03.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := s.NotesWithPhrase(context.Background(), tt.give, 3, tt.exclude...)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tt.want))
			if !slices.Equal(got, want) {
				t.Errorf("NotesWithPhrase(%q) = %q, want %q", tt.give, got, want)
			}
		})
	}
}
