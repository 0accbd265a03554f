package vaultgraph_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

func TestLinkMentionsStyles(t *testing.T) {
	dir := makeVault(t, map[string]string{
		"A/Plan.md":   "# Plan\n",
		"B/Plan.md":   "# Other plan\n",
		"Solo.md":     "---\naliases: [Lone One]\n---\nSolo note.\n",
		"Uses.md":     "The Plan is here. Solo works, and the lone one too.\n\n| col | other |\n| --- | --- |\n| Solo | x |\n",
		"A/Inside.md": "Our plan, in A.\n",
	})
	e := openWriter(t, dir, false)
	ctx := context.Background()
	tests := []struct {
		desc, id string
		sources  []string
		file     string
		want     string
	}{
		{"an alias keeps its text; a table row escapes the bar", "Solo", []string{"Uses.md"}, "Uses.md",
			"The Plan is here. [[Solo]] works, and the [[Solo|lone one]] too.\n\n| col | other |\n| --- | --- |\n| [[Solo]] | x |\n"},
		{"a shared name is written with its path when the bare name leads elsewhere", "B/Plan.md", []string{"Uses.md:1"}, "Uses.md",
			"The [[B/Plan|Plan]] is here. [[Solo]] works, and the [[Solo|lone one]] too.\n\n| col | other |\n| --- | --- |\n| [[Solo]] | x |\n"},
		{"a bare name that resolves there is written bare", "A/Plan.md", []string{"A/Inside.md"}, "A/Inside.md",
			"Our [[Plan|plan]], in A.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := e.LinkMentions(ctx, vaultgraph.MentionLinks{ID: tt.id, Sources: tt.sources})
			if err != nil {
				t.Fatalf("LinkMentions(%s, %q) = %v", tt.id, tt.sources, err)
			}
			b, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("%s =\n%q\nwant\n%q\n(files %+v)", tt.file, b, tt.want, res.Files)
			}
		})
	}
	// Every new link is a link to its note now.
	in, _, _, err := e.Neighbors(ctx, "Solo", "in", 0)
	if err != nil || len(in) != 1 || in[0].ID != "Uses.md" {
		t.Errorf("Solo's incoming neighbours = %v (%v), want Uses.md", in, err)
	}
}

func TestLinkMentionsRefused(t *testing.T) {
	dir := makeVault(t, map[string]string{"Beta.md": "# Beta\n", "Log.md": "beta here\n"})
	ctx := context.Background()
	ro := openWriter(t, dir, true)
	if _, err := ro.LinkMentions(ctx, vaultgraph.MentionLinks{ID: "Beta"}); !errors.Is(err, vaultgraph.ErrReadOnly) {
		t.Errorf("LinkMentions on a read-only engine = %v, want ErrReadOnly", err)
	}
	e := openWriter(t, dir, false)
	if _, err := e.LinkMentions(ctx, vaultgraph.MentionLinks{ID: "Gamma"}); !errors.Is(err, vaultgraph.ErrNotFound) {
		t.Errorf("LinkMentions of a missing note = %v, want ErrNotFound", err)
	}
	if _, err := e.LinkMentions(ctx, vaultgraph.MentionLinks{ID: "Beta", Sources: []string{"Log.md:9"}}); !errors.Is(err, vaultgraph.ErrInvalid) {
		t.Errorf("LinkMentions of a line without one = %v, want ErrInvalid", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "Log.md")); string(b) != "beta here\n" {
		t.Errorf("Log.md = %q after refused calls", b)
	}
	mem := openMemWriter(t, dir)
	if _, _, _, err := mem.Mentions(ctx, "Beta"); err == nil {
		t.Errorf("Mentions without an index = nil error, want one saying it needs the index")
	}
}
