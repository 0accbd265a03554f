package store

import (
	"reflect"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestPackLinks checks that packed links decode to exactly the links
// packed, each alone too, with the count of anchored links and each
// link's kind and fragment.
func TestPackLinks(t *testing.T) {
	for _, tt := range []struct {
		desc string
		give []vault.Link
	}{
		{desc: "none"},
		{desc: "every field", give: []vault.Link{
			{Kind: vault.KindWiki, Target: "Projects/Alpha Plan", Fragment: "Goals", Alias: "the plan", Start: 120, End: 150, TargetStart: 122, TargetEnd: 140, Line: 7},
			{Kind: vault.KindEmbed, Target: "img.png", Start: 3, End: 15, TargetStart: 6, TargetEnd: 13, Line: 1},
			{Kind: vault.KindFrontmatter, Target: "Other", Property: "related", Start: 10, End: 19, TargetStart: 12, TargetEnd: 17},
			{Kind: vault.KindMarkdown, Target: "東京 Trip.md", Fragment: "^blk", Start: 900000, End: 900040, TargetStart: 900010, TargetEnd: 900030, Line: 40000},
			{Kind: "unknown kind", Target: "", Start: 0, End: 0},
		}},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			p := PackLinks(tt.give)
			got, err := p.Links()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 0 || len(tt.give) != 0 {
				if !reflect.DeepEqual(got, tt.give) {
					t.Errorf("PackLinks(...).Links() = %+v, want %+v", got, tt.give)
				}
			}
			anchored := 0
			for i, l := range tt.give {
				if l.Fragment != "" {
					anchored++
				}
				if one, ok := p.Link(i); !ok || one != l {
					t.Errorf("Link(%d) = %+v, %v, want %+v", i, one, ok, l)
				}
			}
			for i, a := range p.Anchors() {
				if want := (LinkAnchor{Kind: tt.give[i].Kind, Fragment: tt.give[i].Fragment}); a != want {
					t.Errorf("Anchors()[%d] = %+v, want %+v", i, a, want)
				}
			}
			if p.Len() != len(tt.give) || p.Anchored() != anchored {
				t.Errorf("Len, Anchored = %d, %d, want %d, %d", p.Len(), p.Anchored(), len(tt.give), anchored)
			}
		})
	}
}
