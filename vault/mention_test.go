package vault_test

import (
	"slices"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

func TestFindMentions(t *testing.T) {
	p := vault.NewParser()
	tests := []struct {
		desc  string
		give  string
		names []string
		want  []string // texts found, in order
	}{
		{"whole words, any case", "Ask BETA and beta, not betamax or alphabeta.", []string{"Beta"}, []string{"BETA", "beta"}},
		{"longest name wins", "The Alpha Plan and Alpha.", []string{"Alpha", "Alpha Plan"}, []string{"Alpha Plan", "Alpha"}},
		{"not in code", "`beta` and\n\n```\nbeta\n```\n\n    beta\n", []string{"beta"}, nil},
		{"not in links", "[[Beta]] [beta](x.md) ![beta](b.png) <https://beta.org> [[X|beta]]", []string{"beta"}, nil},
		{"not in URLs", "see https://example.com/beta or www.beta.org.", []string{"beta"}, nil},
		{"not in paths", "Projects/Beta.md and Beta.md", []string{"beta"}, nil},
		{"not in tags or HTML", "#beta and <span title=\"beta\">x</span>", []string{"beta"}, nil},
		{"not in frontmatter", "---\ntitle: Beta\n---\nBeta here", []string{"beta"}, []string{"Beta"}},
		{"in emphasis, headings and lists", "# Beta\n- *beta*\n", []string{"beta"}, []string{"Beta", "beta"}},
		{"accented letters", "Le Café ouvre. CAFÉ!", []string{"café"}, []string{"Café", "CAFÉ"}},
		{"blank names ignored", "a b", []string{" ", "!!"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var got []string
			for _, m := range p.FindMentions([]byte(tt.give), tt.names) {
				if string([]byte(tt.give)[m.Start:m.End]) != m.Text {
					t.Errorf("mention %+v: range holds %q", m, tt.give[m.Start:m.End])
				}
				got = append(got, m.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("FindMentions(%q, %q) = %q, want %q", tt.give, tt.names, got, tt.want)
			}
		})
	}
}
