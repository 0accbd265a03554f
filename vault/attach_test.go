package vault

import (
	"errors"
	"fmt"
	"testing"
)

// attachIndex is a vault of a few notes and attachments, two of which
// share a name.
func attachIndex() *Index {
	x := NewIndex()
	for _, id := range []string{"Sub/N.md", "Home.md", "Notes/logo.svg.md"} {
		x.AddNote(id)
	}
	for _, p := range []string{"Diagram.png", "Sub/pic.png", "Ab/pic.png", "Sub/img/i.svg", "Assets/logo.svg"} {
		x.AddFile(p)
	}
	return x
}

func TestResolveFile(t *testing.T) {
	x := attachIndex()
	tests := []struct {
		desc   string
		source string
		kind   LinkKind
		target string
		want   string // "path exists byName", or "no"
	}{
		{desc: "relative markdown", source: "Sub/N.md", kind: KindImage, target: "../Diagram.png", want: "Diagram.png true false"},
		{desc: "dotted markdown", source: "Sub/N.md", kind: KindMarkdown, target: "./pic.png", want: "Sub/pic.png true false"},
		{desc: "bare markdown beside the note", source: "Sub/N.md", kind: KindImage, target: "pic.png", want: "Sub/pic.png true false"},
		{desc: "bare markdown elsewhere: the vault path of a file at the root", source: "Sub/N.md", kind: KindImage, target: "Diagram.png", want: "Diagram.png true false"},
		{desc: "bare markdown elsewhere: by name", source: "Deep/N.md", kind: KindImage, target: "i.svg", want: "Sub/img/i.svg true true"},
		{desc: "folder relative to the note", source: "Sub/N.md", kind: KindImage, target: "img/i.svg", want: "Sub/img/i.svg true false"},
		{desc: "vault path", source: "Sub/N.md", kind: KindImage, target: "Assets/logo.svg", want: "Assets/logo.svg true false"},
		{desc: "leading slash", source: "Sub/N.md", kind: KindMarkdown, target: "/Assets/logo.svg", want: "Assets/logo.svg true false"},
		{desc: "embed by name: the one beside the note", source: "Sub/N.md", kind: KindEmbed, target: "pic.png", want: "Sub/pic.png true true"},
		{desc: "embed by name: the shortest path", source: "Deep/N.md", kind: KindEmbed, target: "pic.png", want: "Ab/pic.png true true"},
		{desc: "relative embed", source: "Sub/N.md", kind: KindEmbed, target: "./img/i.svg", want: "Sub/img/i.svg true false"},
		{desc: "relative that leads nowhere, found by what is left", source: "Deep/er/N.md", kind: KindImage, target: "../Diagram.png", want: "Diagram.png true true"},
		{desc: "missing, relative", source: "Sub/N.md", kind: KindMarkdown, target: "../Missing.png", want: "Missing.png false false"},
		{desc: "missing, relative wikilink", source: "Sub/N.md", kind: KindEmbed, target: "./gone/x.pdf", want: "Sub/gone/x.pdf false false"},
		{desc: "missing, bare", source: "Sub/N.md", kind: KindEmbed, target: "none.pdf", want: "none.pdf false true"},
		{desc: "missing, vault path", source: "Sub/N.md", kind: KindImage, target: "x/none.pdf", want: "x/none.pdf false false"},
		{desc: "a note is not a file", source: "Sub/N.md", kind: KindWiki, target: "Home", want: "no"},
		{desc: "a note named like a file wins a wikilink", source: "Home.md", kind: KindEmbed, target: "logo.svg", want: "no"},
		{desc: "broken note link", source: "Home.md", kind: KindWiki, target: "Nothing", want: "no"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			f, ok := x.ResolveFile(tt.source, Link{Kind: tt.kind, Target: tt.target})
			got := "no"
			if ok {
				got = fmt.Sprintf("%s %v %v", f.Path, f.Exists, f.ByName)
			}
			if got != tt.want {
				t.Errorf("ResolveFile(%s, %s %q) = %s, want %s", tt.source, tt.kind, tt.target, got, tt.want)
			}
		})
	}
}

// TestResolveFileAgrees checks ResolveFile against Resolve over many
// targets: it answers exactly when Resolve says Attachment, and a file it
// says exists is one of the index.
func TestResolveFileAgrees(t *testing.T) {
	x := attachIndex()
	targets := []string{"pic.png", "./pic.png", "../pic.png", "Sub/pic.png", "/Sub/pic.png", "Diagram.png", "../Diagram.png",
		"img/i.svg", "./img/i.svg", "../Sub/img/i.svg", "logo.svg", "logo.svg.md", "i.svg", "x.pdf", "../../x.pdf", "Home", "pic.png.md", "Sub/N.md", ".."}
	for _, source := range []string{"", "Home.md", "Sub/N.md", "Sub/img/Q.md", "Ab/X.md", "Deep/er/N.md"} {
		for _, kind := range []LinkKind{KindWiki, KindEmbed, KindMarkdown, KindImage, KindFrontmatter} {
			for _, target := range targets {
				l := Link{Kind: kind, Target: target}
				_, st := x.Resolve(source, l)
				f, ok := x.ResolveFile(source, l)
				if ok != (st == Attachment) {
					t.Errorf("ResolveFile(%q, %s %q) ok = %v, Resolve status %s", source, kind, target, ok, st)
				}
				if f.Exists && !x.HasFile(f.Path) {
					t.Errorf("ResolveFile(%q, %s %q) = %+v, not a file of the index", source, kind, target, f)
				}
			}
		}
	}
}

func TestRetargetFileEdit(t *testing.T) {
	tests := []struct {
		desc   string
		from   string // the note's ID before the move, where its links are meant
		to     string // after
		give   string
		want   string
		errors bool
	}{
		{desc: "relative markdown and image", from: "Sub/N.md", to: "Deep/er/N.md",
			give: "![d](../Diagram.png) [p](./pic.png) ![q](pic.png) [i](<img/i.svg>)",
			want: "![d](../../Diagram.png) [p](../../Sub/pic.png) ![q](../../Sub/pic.png) [i](<../../Sub/img/i.svg>)"},
		{desc: "relative embeds keep a relative path", from: "Sub/N.md", to: "Deep/N.md",
			give: "![[./pic.png|w]] ![[../Diagram.png]] ![[img/i.svg]]", want: "![[../Sub/pic.png|w]] ![[../Diagram.png]] ![[img/i.svg]]"},
		{desc: "moved into the folder: ./ kept", from: "N.md", to: "Sub/N.md",
			give: "[p](./Sub/pic.png) [q](Sub/pic.png)", want: "[p](./pic.png) [q](pic.png)"},
		{desc: "a bare name that would find another file gets a path", from: "Sub/N.md", to: "Deep/N.md",
			give: "![[pic.png]] ![x](pic.png)", want: "![[Sub/pic.png]] ![x](../Sub/pic.png)"},
		{desc: "missing files keep their path", from: "Sub/N.md", to: "Deep/er/N.md",
			give: "[m](../Missing.png) ![[./gone/x.pdf]]", want: "[m](../../Missing.png) ![[../../Sub/gone/x.pdf]]"},
		{desc: "frontmatter relative link, and a space encoded", from: "Sub/N.md", to: "A B/N.md",
			give: "---\nimg: \"![[./pic.png]]\"\n---\n[x](./pic.png#frag)", want: "---\nimg: \"![[../Sub/pic.png]]\"\n---\n[x](../Sub/pic.png#frag)"},
		{desc: "leading slash kept", from: "Sub/N.md", to: "Deep/N.md", give: "[x](/Sub/pic.png)", want: "[x](/Sub/pic.png)"},
		{desc: "a path a wikilink cannot hold", from: "C<1>/N.md", to: "Deep/N.md", give: "![[x.png]]", errors: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			x := attachIndex()
			x.AddFile("C<1>/x.png")
			x.AddFile("B/x.png")
			x.AddNote(tt.from)
			n := mustParse(t, tt.from, tt.give)
			before := map[int]FileTarget{}
			for i, l := range n.Links {
				f, ok := x.ResolveFile(tt.from, l)
				if !ok {
					t.Fatalf("link %q is not to a file", tt.give[l.Start:l.End])
				}
				before[i] = f
			}
			x.RemoveNote(tt.from)
			x.AddNote(tt.to)
			var edits []Edit
			for i, l := range n.Links {
				e, err := RetargetFileEdit(x, tt.to, []byte(tt.give), l, before[i])
				if tt.errors {
					if !errors.Is(err, ErrCannotRetarget) {
						t.Fatalf("RetargetFileEdit(%q) = %+v, %v, want ErrCannotRetarget", tt.give[l.Start:l.End], e, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("RetargetFileEdit(%q): %v", tt.give[l.Start:l.End], err)
				}
				edits = append(edits, e)
			}
			out, err := ApplyEdits([]byte(tt.give), edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Fatalf("rewritten = %q, want %q", out, tt.want)
			}
			after := mustParse(t, tt.to, string(out))
			for i, l := range after.Links {
				if f, ok := x.ResolveFile(tt.to, l); !ok || !f.Same(before[i]) || f.ByName && !before[i].ByName {
					t.Errorf("link %q now finds %+v, want %+v", string(out)[l.Start:l.End], f, before[i])
				}
			}
		})
	}
}
