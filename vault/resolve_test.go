package vault

import (
	"fmt"
	"reflect"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// cafeNFD is the ID of a note whose name macOS stored decomposed.
var cafeNFD = norm.NFD.String("Notes/Café Menu.md")

// testIndex returns an index over a small made-up vault.
func testIndex() *Index {
	x := NewIndex()
	for _, id := range []string{
		"Home.md",
		"Top.md",
		"Same.md",
		"Projects/Alpha Plan.md",
		"Projects/Beta.md",
		"Projects/Top.md",
		"Archive/Alpha Plan.md",
		"a/b/Note.md",
		"zzzz/Note.md",
		"Sub/Same.md",
		cafeNFD,
		"Notes/東京 Trip.md",
		"Deep/Nested/Folder/Deep Note.md",
		"Note v1.2.md",
	} {
		x.AddNote(id)
	}
	for _, p := range []string{"Diagram.png", "assets/img.png", "files/Report.pdf"} {
		x.AddFile(p)
	}
	return x
}

func TestResolve(t *testing.T) {
	x := testIndex()
	type give struct {
		source string
		kind   LinkKind
		target string
	}
	tests := []struct {
		desc   string
		give   give
		want   string
		wantSt Status
	}{
		// Wikilinks.
		{desc: "exact path", give: give{"", KindWiki, "Projects/Alpha Plan.md"}, want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "path without .md", give: give{"", KindWiki, "Projects/Alpha Plan"}, want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "path in another case", give: give{"", KindWiki, "projects/ALPHA plan"}, want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "path with a leading slash", give: give{"Home.md", KindWiki, "/Projects/Beta"}, want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "name in another case", give: give{"Projects/Beta.md", KindWiki, "home"}, want: "Home.md", wantSt: Resolved},
		{desc: "name with .MD", give: give{"", KindWiki, "HOME.MD"}, want: "Home.md", wantSt: Resolved},
		{desc: "name with surrounding spaces", give: give{"", KindWiki, " Home "}, want: "Home.md", wantSt: Resolved},
		{desc: "same folder first", give: give{"Projects/Beta.md", KindWiki, "Alpha Plan"}, want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "same folder first, the other folder", give: give{"Archive/Old Ideas.md", KindWiki, "alpha plan"}, want: "Archive/Alpha Plan.md", wantSt: Resolved},
		{desc: "else the shortest path", give: give{"Home.md", KindWiki, "Alpha Plan"}, want: "Archive/Alpha Plan.md", wantSt: Resolved},
		{desc: "else the shortest path, from a third folder", give: give{"Notes/Meeting Notes.md", KindWiki, "Alpha Plan"}, want: "Archive/Alpha Plan.md", wantSt: Resolved},
		{desc: "shortest path string, not fewest folders", give: give{"", KindWiki, "Note"}, want: "a/b/Note.md", wantSt: Resolved},
		{desc: "a parent folder is not the same folder", give: give{"zzzz/deep/S.md", KindWiki, "Note"}, want: "a/b/Note.md", wantSt: Resolved},
		{desc: "a note at that exact path wins over the same folder", give: give{"Sub/S.md", KindWiki, "Same"}, want: "Same.md", wantSt: Resolved},
		{desc: "path-qualified to the folder copy", give: give{"", KindWiki, "Sub/Same"}, want: "Sub/Same.md", wantSt: Resolved},
		{desc: "partial path", give: give{"", KindWiki, "b/Note"}, want: "a/b/Note.md", wantSt: Resolved},
		{desc: "partial path, two folders", give: give{"", KindWiki, "Nested/Folder/Deep Note"}, want: "Deep/Nested/Folder/Deep Note.md", wantSt: Resolved},
		{desc: "partial path in another case", give: give{"Home.md", KindWiki, "folder/deep note"}, want: "Deep/Nested/Folder/Deep Note.md", wantSt: Resolved},
		{desc: "partial path must match whole folder names", give: give{"", KindWiki, "older/Deep Note"}, wantSt: Broken},
		{desc: "partial path with a wrong folder", give: give{"", KindWiki, "Projects/Note"}, wantSt: Broken},
		{desc: "relative ../ wikilink", give: give{"Deep/Nested/Folder/Deep Note.md", KindWiki, "../../../Home.md"}, want: "Home.md", wantSt: Resolved},
		{desc: "relative ../ wikilink into a folder", give: give{"Deep/Nested/Folder/Deep Note.md", KindWiki, "../../../Projects/Beta"}, want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "relative ./ wikilink", give: give{"Projects/Beta.md", KindWiki, "./Alpha Plan"}, want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "relative ../ to an attachment", give: give{"Projects/Beta.md", KindEmbed, "../Diagram.png"}, wantSt: Attachment},
		{desc: "NFC name finds the NFD note", give: give{"", KindWiki, "Café Menu"}, want: cafeNFD, wantSt: Resolved},
		{desc: "NFD name finds the NFD note", give: give{"", KindWiki, norm.NFD.String("Café Menu")}, want: cafeNFD, wantSt: Resolved},
		{desc: "NFC path finds the NFD note", give: give{"", KindWiki, "notes/café menu.md"}, want: cafeNFD, wantSt: Resolved},
		{desc: "unicode name", give: give{"", KindWiki, "東京 Trip"}, want: "Notes/東京 Trip.md", wantSt: Resolved},
		{desc: "an alias never resolves", give: give{"", KindWiki, "AP"}, wantSt: Broken},
		{desc: "existing attachment", give: give{"", KindEmbed, "Diagram.png"}, wantSt: Attachment},
		{desc: "existing attachment in a folder, by name", give: give{"Home.md", KindEmbed, "img.png"}, wantSt: Attachment},
		{desc: "existing attachment by path", give: give{"", KindWiki, "assets/img.png"}, wantSt: Attachment},
		{desc: "existing attachment in another case", give: give{"", KindWiki, "report.PDF"}, wantSt: Attachment},
		{desc: "missing PDF is an attachment, not broken", give: give{"Home.md", KindEmbed, "x.pdf"}, wantSt: Attachment},
		{desc: "missing base is an attachment, not broken", give: give{"Home.md", KindWiki, "x.base"}, wantSt: Attachment},
		{desc: "missing canvas is an attachment", give: give{"", KindWiki, "Board.canvas"}, wantSt: Attachment},
		{desc: "dotted note name is a note", give: give{"", KindWiki, "Note v1.2"}, want: "Note v1.2.md", wantSt: Resolved},
		{desc: "missing dotted name is broken, not an attachment", give: give{"", KindWiki, "Other v1.2"}, wantSt: Broken},
		{desc: "unknown extension is broken", give: give{"", KindWiki, "data.xyz"}, wantSt: Broken},
		{desc: "broken", give: give{"Home.md", KindWiki, "Missing Note"}, wantSt: Broken},
		{desc: "broken path", give: give{"Home.md", KindWiki, "Projects/Gamma"}, wantSt: Broken},
		{desc: "self", give: give{"Home.md", KindWiki, ""}, wantSt: Self},
		{desc: "self link from an embed", give: give{"Home.md", KindEmbed, ""}, wantSt: Self},
		{desc: "frontmatter link resolves as a wikilink", give: give{"Projects/Alpha Plan.md", KindFrontmatter, "Beta"}, want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "wikilink to a name at the root and in the source folder", give: give{"Projects/X.md", KindWiki, "Top"}, want: "Top.md", wantSt: Resolved},

		// Markdown links.
		{desc: "markdown: relative to the source first", give: give{"Projects/X.md", KindMarkdown, "Top.md"}, want: "Projects/Top.md", wantSt: Resolved},
		{desc: "markdown: relative ../", give: give{"Notes/Meeting Notes.md", KindMarkdown, "../Home.md"}, want: "Home.md", wantSt: Resolved},
		{desc: "markdown: relative ./", give: give{"Projects/X.md", KindMarkdown, "./Beta.md"}, want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "markdown: deep relative", give: give{"Deep/Nested/Folder/Deep Note.md", KindMarkdown, "../../../Home.md"}, want: "Home.md", wantSt: Resolved},
		{desc: "markdown: then the vault root", give: give{"Projects/X.md", KindMarkdown, "Archive/Alpha Plan.md"}, want: "Archive/Alpha Plan.md", wantSt: Resolved},
		{desc: "markdown: from the root", give: give{"Home.md", KindMarkdown, "Notes/東京 Trip.md"}, want: "Notes/東京 Trip.md", wantSt: Resolved},
		{desc: "markdown: absolute vault path", give: give{"Projects/X.md", KindMarkdown, "/Top.md"}, want: "Top.md", wantSt: Resolved},
		{desc: "markdown: then by name", give: give{"Projects/X.md", KindMarkdown, "Deep Note.md"}, want: "Deep/Nested/Folder/Deep Note.md", wantSt: Resolved},
		{desc: "markdown: by name picks like a wikilink", give: give{"Home.md", KindMarkdown, "Alpha Plan.md"}, want: "Archive/Alpha Plan.md", wantSt: Resolved},
		{desc: "markdown: same folder by name", give: give{"Projects/X.md", KindMarkdown, "Alpha Plan.md"}, want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "markdown: without .md", give: give{"Projects/X.md", KindMarkdown, "Beta"}, want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "markdown: other case", give: give{"", KindMarkdown, "PROJECTS/beta.md"}, want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "markdown: NFC to NFD, relative", give: give{"Notes/Meeting Notes.md", KindMarkdown, "Café Menu.md"}, want: cafeNFD, wantSt: Resolved},
		{desc: "markdown: image relative", give: give{"Projects/X.md", KindImage, "../Diagram.png"}, wantSt: Attachment},
		{desc: "markdown: image from the root", give: give{"", KindImage, "assets/img.png"}, wantSt: Attachment},
		{desc: "markdown: missing image", give: give{"", KindImage, "nope.png"}, wantSt: Attachment},
		{desc: "markdown: missing note", give: give{"Projects/X.md", KindMarkdown, "Gamma.md"}, wantSt: Broken},
		{desc: "markdown: heading of the same note", give: give{"Projects/X.md", KindMarkdown, ""}, wantSt: Self},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			l := Link{Kind: tt.give.kind, Target: tt.give.target}
			got, st := x.Resolve(tt.give.source, l)
			if got != tt.want || st != tt.wantSt {
				t.Errorf("Resolve(%q, %s %q) = %q, %s, want %q, %s", tt.give.source, tt.give.kind, tt.give.target, got, st, tt.want, tt.wantSt)
			}
		})
	}
}

func TestResolveName(t *testing.T) {
	x := testIndex()
	tests := []struct {
		desc   string
		source string
		give   string
		want   string
		wantSt Status
	}{
		{desc: "bare name from the root", give: "Beta", want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "ID", give: "Projects/Beta.md", want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "ID in another case", give: "projects/beta.MD", want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "shared name from the root", give: "Alpha Plan", want: "Archive/Alpha Plan.md", wantSt: Resolved},
		{desc: "shared name from a folder", source: "Projects/Beta.md", give: "Alpha Plan", want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "empty", give: "", wantSt: Self},
		{desc: "blank", give: "  ", wantSt: Self},
		{desc: "missing", give: "Nope", wantSt: Broken},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, st := x.ResolveName(tt.source, tt.give)
			if got != tt.want || st != tt.wantSt {
				t.Errorf("ResolveName(%q, %q) = %q, %s, want %q, %s", tt.source, tt.give, got, st, tt.want, tt.wantSt)
			}
		})
	}
}

// TestResolveParsed resolves links as the parser writes them:
// percent-decoded and NFC-normalised.
func TestResolveParsed(t *testing.T) {
	x := testIndex()
	tests := []struct {
		desc   string
		source string
		give   string
		want   string
		wantSt Status
	}{
		{desc: "percent-encoded relative", source: "Notes/Meeting Notes.md", give: "[c](Caf%C3%A9%20Menu.md)", want: cafeNFD, wantSt: Resolved},
		{desc: "percent-encoded from the root", source: "Home.md", give: "[c](Notes/Caf%C3%A9%20Menu.md)", want: cafeNFD, wantSt: Resolved},
		{desc: "angle brackets", source: "Home.md", give: "[m](<Notes/東京 Trip.md>)", want: "Notes/東京 Trip.md", wantSt: Resolved},
		{desc: "relative with a heading", source: "Projects/X.md", give: "[x](../Home.md#Projects)", want: "Home.md", wantSt: Resolved},
		{desc: "decomposed wikilink", source: "Home.md", give: "[[" + norm.NFD.String("Café Menu") + "]]", want: cafeNFD, wantSt: Resolved},
		{desc: "table wikilink", source: "Projects/Beta.md", give: "| [[Alpha Plan\\|AP]] |", want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "nested heading", source: "Projects/Beta.md", give: "[[Alpha Plan#Risks#Budget]]", want: "Projects/Alpha Plan.md", wantSt: Resolved},
		{desc: "self", source: "Home.md", give: "[[#Local heading]]", wantSt: Self},
		{desc: "frontmatter", source: "Projects/Alpha Plan.md", give: "---\nrelated: \"[[Beta]]\"\n---\n", want: "Projects/Beta.md", wantSt: Resolved},
		{desc: "embed", source: "Home.md", give: "![[Diagram.png]]", wantSt: Attachment},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n := mustParse(t, tt.source, tt.give)
			if len(n.Links) != 1 {
				t.Fatalf("Parse(%q) has %d links, want 1", tt.give, len(n.Links))
			}
			got, st := x.Resolve(tt.source, n.Links[0])
			if got != tt.want || st != tt.wantSt {
				t.Errorf("Resolve(%q, %q) = %q, %s, want %q, %s", tt.source, tt.give, got, st, tt.want, tt.wantSt)
			}
		})
	}
}

func TestIndexAddRemove(t *testing.T) {
	x := NewIndex()
	link := Link{Kind: KindWiki, Target: "Plan"}
	steps := []struct {
		desc   string
		do     func()
		want   string
		wantSt Status
	}{
		{desc: "empty index", do: func() {}, wantSt: Broken},
		{desc: "note appears", do: func() { x.AddNote("b/Plan.md") }, want: "b/Plan.md", wantSt: Resolved},
		{desc: "added twice", do: func() { x.AddNote("b/Plan.md") }, want: "b/Plan.md", wantSt: Resolved},
		{desc: "a shorter path appears", do: func() { x.AddNote("Plan.md") }, want: "Plan.md", wantSt: Resolved},
		{desc: "the shorter one goes", do: func() { x.RemoveNote("Plan.md") }, want: "b/Plan.md", wantSt: Resolved},
		{desc: "removing an unknown note", do: func() { x.RemoveNote("c/Plan.md") }, want: "b/Plan.md", wantSt: Resolved},
		{desc: "the last one goes: broken", do: func() { x.RemoveNote("b/Plan.md") }, wantSt: Broken},
		{desc: "an attachment of that name does not make it resolve", do: func() { x.AddFile("Plan") }, wantSt: Attachment},
		{desc: "attachment removed", do: func() { x.RemoveFile("Plan") }, wantSt: Broken},
		{desc: "back again", do: func() { x.AddNote("Plan.md") }, want: "Plan.md", wantSt: Resolved},
	}
	for _, s := range steps {
		s.do()
		got, st := x.Resolve("Home.md", link)
		if got != s.want || st != s.wantSt {
			t.Errorf("after %s: Resolve(%q) = %q, %s, want %q, %s", s.desc, link.Target, got, st, s.want, s.wantSt)
		}
	}
	if n := x.FileCount(); n != 0 {
		t.Errorf("FileCount() = %d, want 0", n)
	}
}

func TestIndexDuplicateNamesDeterministic(t *testing.T) {
	ids := []string{"bb/Dup.md", "aa/Dup.md", "c/d/Dup.md", "Long Folder/Dup.md"}
	want := []string{"aa/Dup.md", "bb/Dup.md", "c/d/Dup.md", "Long Folder/Dup.md"}
	// Every order of adding gives the same candidates and the same pick.
	var perms func([]string, int)
	perms = func(a []string, k int) {
		if k == len(a) {
			x := NewIndex()
			for _, id := range a {
				x.AddNote(id)
			}
			if got := x.Named("dup"); !reflect.DeepEqual(got, want) {
				t.Errorf("after adding %q: Named(%q) = %q, want %q", a, "dup", got, want)
			}
			if got, _ := x.ResolveName("", "Dup"); got != want[0] {
				t.Errorf("after adding %q: ResolveName(%q) = %q, want %q", a, "Dup", got, want[0])
			}
			if got, _ := x.ResolveName("bb/Other.md", "Dup"); got != "bb/Dup.md" {
				t.Errorf("after adding %q: ResolveName(from bb, %q) = %q, want %q", a, "Dup", got, "bb/Dup.md")
			}
			return
		}
		for i := k; i < len(a); i++ {
			a[k], a[i] = a[i], a[k]
			perms(a, k+1)
			a[k], a[i] = a[i], a[k]
		}
	}
	perms(append([]string(nil), ids...), 0)
}

func TestIndexNote(t *testing.T) {
	x := testIndex()
	tests := []struct {
		give   string
		want   string
		wantOK bool
	}{
		{give: "Projects/Beta.md", want: "Projects/Beta.md", wantOK: true},
		{give: "projects/beta", want: "Projects/Beta.md", wantOK: true},
		{give: "/Home", want: "Home.md", wantOK: true},
		{give: "Notes/Café Menu.md", want: cafeNFD, wantOK: true},
		{give: "Beta", wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			got, ok := x.Note(tt.give)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Note(%q) = %q, %v, want %q, %v", tt.give, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestIsAttachmentName(t *testing.T) {
	tests := []struct {
		give string
		want bool
	}{
		{give: "img.png", want: true},
		{give: "IMG.JPEG", want: true},
		{give: "a/b/doc.pdf", want: true},
		{give: "x.base", want: true},
		{give: "Board.canvas", want: true},
		{give: "Note v1.2", want: false},
		{give: "Note.md", want: false},
		{give: "Note", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.give, func(t *testing.T) {
			if got := IsAttachmentName(tt.give); got != tt.want {
				t.Errorf("IsAttachmentName(%q) = %v, want %v", tt.give, got, tt.want)
			}
		})
	}
}

func ExampleIndex_Resolve() {
	x := NewIndex()
	x.AddNote("Projects/Alpha Plan.md")
	x.AddNote("Archive/Alpha Plan.md")
	x.AddFile("Diagram.png")
	for _, l := range []Link{
		{Kind: KindWiki, Target: "Alpha Plan"},
		{Kind: KindEmbed, Target: "Diagram.png"},
		{Kind: KindWiki, Target: "Missing"},
	} {
		id, st := x.Resolve("Projects/Beta.md", l)
		fmt.Printf("%s -> %q %s\n", l.Target, id, st)
	}
	// Output:
	// Alpha Plan -> "Projects/Alpha Plan.md" resolved
	// Diagram.png -> "" attachment
	// Missing -> "" broken
}
