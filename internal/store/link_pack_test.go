package store

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"

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
			p := new(LinkPacker).Pack(tt.give)
			got, err := p.Links()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 0 || len(tt.give) != 0 {
				if !reflect.DeepEqual(got, tt.give) {
					t.Errorf("Pack(...).Links() = %+v, want %+v", got, tt.give)
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

// TestLinkPacker: notes packed by one LinkPacker decode to their own
// links, the small ones share one slab of bytes (a note's bytes begin
// where the last one's end), no note's bytes can grow into the next's,
// and links longer than a quarter of a slab get bytes of their own.
func TestLinkPacker(t *testing.T) {
	var p LinkPacker
	var texts []*LinkText
	var want [][]vault.Link
	for i := range 300 {
		links := []vault.Link{{Kind: vault.KindWiki, Target: "Note " + strconv.Itoa(i), Fragment: "H", Start: i, End: i + 9, Line: 1}}
		if i%7 == 0 {
			links = append(links, vault.Link{Kind: vault.KindEmbed, Target: "pic.png"})
		}
		if i == 150 {
			links[0].Alias = strings.Repeat("x", packSlabBytes/4+1)
		}
		texts = append(texts, p.Pack(links))
		want = append(want, links)
	}
	for i, text := range texts {
		got, err := text.Links()
		if err != nil || !reflect.DeepEqual(got, want[i]) {
			t.Fatalf("note %d: Links() = %+v, %v, want %+v", i, got, err, want[i])
		}
		if own := i == 150; !own && cap(text.b) != len(text.b) {
			t.Errorf("note %d: cap %d, len %d: an append would reach the next note's bytes", i, cap(text.b), len(text.b))
		}
	}
	for i := 1; i < len(texts); i++ {
		prev, cur := texts[i-1].b, texts[i].b
		adjacent := uintptr(unsafe.Pointer(&prev[0]))+uintptr(len(prev)) == uintptr(unsafe.Pointer(&cur[0]))
		if own := i == 150 || i == 151; adjacent == own {
			t.Fatalf("note %d: bytes right after note %d's = %v, want %v", i, i-1, adjacent, !own)
		}
	}
}
