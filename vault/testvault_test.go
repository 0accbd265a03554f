package vault

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// The expectations below are written by hand from the files of testvault
// and SPEC.md, not printed from the code.

// vaultNote is what a testvault note must parse into.
type vaultNote struct {
	title    string
	tags     []string
	warnings []string // one substring per expected warning, in order
}

var testVaultExpect = map[string]vaultNote{
	"Archive/Alpha Plan.md":           {title: "Alpha Plan", tags: []string{"archive"}},
	"Archive/Old Ideas.md":            {title: "Old Ideas", tags: []string{"archive"}},
	"Deep/Nested/Folder/Deep Note.md": {title: "Deep Note"},
	// "#home" in the body repeats the frontmatter tag "home"; "## Projects"
	// is a heading, #123 a number, `#notatag` and #fenced are code,
	// example.com/#x and the #anchor of the URL are not tags.
	"Home.md":                {title: "Home", tags: []string{"home", "index", "MOC"}, warnings: []string{"duplicate tag ignored: home"}},
	"Notes/Broken YAML.md":   {title: "Broken YAML", tags: []string{"stillatag"}, warnings: []string{"malformed YAML frontmatter"}},
	"Notes/Café Menu.md":     {title: "Café Menu", tags: []string{"food"}},
	"Notes/Meeting Notes.md": {title: "Meeting Notes", tags: []string{"meeting"}},
	// "#旅行" in the body repeats the frontmatter tag.
	"Notes/東京 Trip.md":       {title: "東京 Trip", tags: []string{"travel", "旅行", "travel/japan"}, warnings: []string{"duplicate tag ignored: 旅行"}},
	"Orphan.md":              {title: "Orphan"},
	"Projects/Alpha Plan.md": {title: "Alpha Plan", tags: []string{"project", "project/alpha"}},
	// ^block1 is a block id, the `#` in "splits at the first `#`" is code.
	"Projects/Beta.md": {title: "Beta", tags: []string{"project", "beta", "project/beta"}},
	"Tagged.md":        {title: "Tag Examples", tags: []string{"Project", "ideas", "ideas/later", "start"}, warnings: []string{"duplicate tag ignored: project"}},
	"Unclosed.md":      {title: "Unclosed"},
}

// vaultLink is one link of testvault: the note holding it, its text as
// written, and what it resolves to.
type vaultLink struct {
	source string
	text   string
	want   string // resolved note ID, "" unless resolved
	status Status
}

var testVaultLinks = []vaultLink{
	{"Archive/Old Ideas.md", "[[Alpha Plan]]", "Archive/Alpha Plan.md", Resolved},            // same folder first
	{"Archive/Old Ideas.md", "[[alpha plan|lower case]]", "Archive/Alpha Plan.md", Resolved}, // any case

	{"Deep/Nested/Folder/Deep Note.md", "[[Folder/Deep Note]]", "Deep/Nested/Folder/Deep Note.md", Resolved}, // the note itself, by partial path
	{"Deep/Nested/Folder/Deep Note.md", "[[../../../Home.md|a relative wikilink]]", "Home.md", Resolved},
	{"Deep/Nested/Folder/Deep Note.md", "[up](../../../Home.md)", "Home.md", Resolved},

	{"Home.md", "[[Alpha Plan]]", "Archive/Alpha Plan.md", Resolved}, // shorter path of the two
	{"Home.md", "[[Projects/Alpha Plan|the plan, path-qualified]]", "Projects/Alpha Plan.md", Resolved},
	{"Home.md", "[[Beta#Goals]]", "Projects/Beta.md", Resolved},
	{"Home.md", "[[Beta#^block1]]", "Projects/Beta.md", Resolved},
	{"Home.md", "[[Folder/Deep Note]]", "Deep/Nested/Folder/Deep Note.md", Resolved},
	{"Home.md", "![[Diagram.png]]", "", Attachment},
	{"Home.md", "![[report.pdf]]", "", Attachment}, // missing, still not broken
	{"Home.md", "[The café menu](Notes/Caf%C3%A9%20Menu.md)", "Notes/Café Menu.md", Resolved},
	{"Home.md", "[Meeting notes](<Notes/Meeting Notes.md>)", "Notes/Meeting Notes.md", Resolved},
	{"Home.md", "[[Missing Note]]", "", Broken},
	{"Home.md", "[[#Local heading]]", "", Self},

	{"Notes/Broken YAML.md", "[[Home]]", "Home.md", Resolved},

	{"Notes/Café Menu.md", "[[Home]]", "Home.md", Resolved},

	{"Notes/Meeting Notes.md", "[[Alpha Plan]]", "Archive/Alpha Plan.md", Resolved}, // frontmatter attendees
	{"Notes/Meeting Notes.md", "[[Beta]]", "Projects/Beta.md", Resolved},            // frontmatter attendees
	{"Notes/Meeting Notes.md", "[back home](../Home.md)", "Home.md", Resolved},
	{"Notes/Meeting Notes.md", "[the café](Café%20Menu.md)", "Notes/Café Menu.md", Resolved},
	{"Notes/Meeting Notes.md", "[[東京 Trip]]", "Notes/東京 Trip.md", Resolved},
	{"Notes/Meeting Notes.md", "[[Café Menu]]", "Notes/Café Menu.md", Resolved},

	{"Notes/東京 Trip.md", "[[Meeting Notes]]", "Notes/Meeting Notes.md", Resolved},

	{"Projects/Alpha Plan.md", "[[Beta]]", "Projects/Beta.md", Resolved}, // frontmatter related
	{"Projects/Alpha Plan.md", "[[Home]]", "Home.md", Resolved},
	{"Projects/Alpha Plan.md", "[[Notes/Meeting Notes]]", "Notes/Meeting Notes.md", Resolved},
	{"Projects/Alpha Plan.md", "[[Beta#Goals|Beta's goals]]", "Projects/Beta.md", Resolved},

	{"Projects/Beta.md", "[[Alpha Plan\\|AP]]", "Projects/Alpha Plan.md", Resolved}, // same folder, in a table
	{"Projects/Beta.md", "[[Home#Projects\\|home]]", "Home.md", Resolved},
	{"Projects/Beta.md", "[[Alpha Plan#Risks#Budget]]", "Projects/Alpha Plan.md", Resolved},

	{"Unclosed.md", "[[Orphan Twin]]", "", Broken},
}

// loadTestVault scans testvault, parses every note and builds the index.
func loadTestVault(t *testing.T) (map[string]*Note, map[string][]byte, *Index) {
	t.Helper()
	res := scanTestVault(t)
	x := NewIndex()
	for _, a := range res.Attachments {
		x.AddFile(a)
	}
	notes := map[string]*Note{}
	srcs := map[string][]byte{}
	for _, f := range res.Notes {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		n, err := testParser.Parse(f.ID, src)
		if err != nil {
			t.Fatalf("Parse(%s) error: %v", f.ID, err)
		}
		notes[f.ID], srcs[f.ID] = n, src
		x.AddNote(f.ID)
	}
	return notes, srcs, x
}

func TestTestVaultNotes(t *testing.T) {
	notes, _, _ := loadTestVault(t)
	if len(notes) != len(testVaultExpect) {
		t.Errorf("testvault has %d notes, want %d", len(notes), len(testVaultExpect))
	}
	for id, want := range testVaultExpect {
		t.Run(id, func(t *testing.T) {
			n, ok := notes[id]
			if !ok {
				t.Fatalf("note %s not found", id)
			}
			if n.Title != want.title {
				t.Errorf("Parse(%s).Title = %q, want %q", id, n.Title, want.title)
			}
			if !reflect.DeepEqual(n.Tags, want.tags) {
				t.Errorf("Parse(%s).Tags = %q, want %q", id, n.Tags, want.tags)
			}
			if len(n.Warnings) != len(want.warnings) {
				t.Fatalf("Parse(%s).Warnings = %q, want %d like %q", id, n.Warnings, len(want.warnings), want.warnings)
			}
			for i, w := range want.warnings {
				if !strings.Contains(n.Warnings[i], w) {
					t.Errorf("Parse(%s).Warnings[%d] = %q, want it to contain %q", id, i, n.Warnings[i], w)
				}
			}
		})
	}
}

func TestTestVaultLinks(t *testing.T) {
	notes, srcs, x := loadTestVault(t)
	var got []vaultLink
	for id, n := range notes {
		for _, l := range n.Links {
			target, st := x.Resolve(id, l)
			got = append(got, vaultLink{source: id, text: string(srcs[id][l.Start:l.End]), want: target, status: st})
		}
	}
	// File order within a note, notes by ID: the order of the table.
	byNote := func(ls []vaultLink) []vaultLink {
		out := append([]vaultLink(nil), ls...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].source < out[j].source })
		return out
	}
	g, w := byNote(got), byNote(testVaultLinks)
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl vaultLink
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("link %d: got %s, want %s", i, fmtVaultLink(gl), fmtVaultLink(wl))
		}
	}
}

func fmtVaultLink(l vaultLink) string {
	if l.source == "" {
		return "(none)"
	}
	return fmt.Sprintf("%s %s -> %q %s", l.source, l.text, l.want, l.status)
}

// TestTestVaultProperties checks the typed frontmatter of testvault.
func TestTestVaultProperties(t *testing.T) {
	notes, _, _ := loadTestVault(t)
	tests := []struct {
		id          string
		wantProps   []Property
		wantAliases []string
	}{
		{
			id: "Projects/Alpha Plan.md",
			wantProps: []Property{
				{Key: "status", Value: "active"},
				{Key: "created", Value: date(2024, time.March, 1)},
				{Key: "priority", Value: int64(2)},
				{Key: "done", Value: false},
				{Key: "related", Value: "[[Beta]]"},
			},
			wantAliases: []string{"Alpha", "AP"},
		},
		{
			id: "Notes/Meeting Notes.md",
			wantProps: []Property{
				{Key: "created", Value: time.Date(2024, time.June, 1, 9, 30, 0, 0, time.UTC)},
				{Key: "attendees", Value: []any{"[[Alpha Plan]]", "[[Beta]]"}},
			},
		},
		{id: "Projects/Beta.md", wantProps: []Property{{Key: "status", Value: "paused"}, {Key: "created", Value: date(2024, time.May, 10)}}},
		{id: "Archive/Alpha Plan.md", wantProps: []Property{{Key: "created", Value: date(2023, time.January, 15)}}},
		{id: "Tagged.md", wantProps: []Property{{Key: "title", Value: "Tag Examples"}}},
		{id: "Notes/Broken YAML.md"},
		{id: "Unclosed.md"},
		{id: "Home.md"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			n := notes[tt.id]
			if n == nil {
				t.Fatalf("note %s not found", tt.id)
			}
			if !reflect.DeepEqual(n.Properties, tt.wantProps) {
				t.Errorf("Parse(%s).Properties = %#v, want %#v", tt.id, n.Properties, tt.wantProps)
			}
			if !reflect.DeepEqual(n.Aliases, tt.wantAliases) {
				t.Errorf("Parse(%s).Aliases = %q, want %q", tt.id, n.Aliases, tt.wantAliases)
			}
		})
	}
}
