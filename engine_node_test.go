package vaultgraph_test

// GetNode: the id forms it accepts, the ids it refuses, a note's links and
// its details, over testvault/.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
)

func TestGetNodeIDForms(t *testing.T) {
	e := openTestVault(t)
	tests := []struct {
		desc        string
		give        string
		want        string // "" for nil
		wantWarning string // a substring of a warning, "" for none
	}{
		{desc: "exact", give: "Projects/Alpha Plan.md", want: projAlpha},
		{desc: "other case", give: "projects/ALPHA plan.md", want: projAlpha},
		{desc: "extension in other case", give: "Projects/Alpha Plan.MD", want: projAlpha},
		{desc: "without .md", give: "Projects/Alpha Plan", want: projAlpha},
		{desc: "without .md, other case", give: "projects/alpha plan", want: projAlpha},
		{desc: "bare name", give: "Beta", want: beta},
		{desc: "bare name with .md", give: "beta.md", want: beta},
		{desc: "bare name in a deep folder", give: "Deep Note", want: deepNote},
		{desc: "partial path", give: "Folder/Deep Note", want: deepNote},
		{desc: "root note", give: "home", want: home},
		{desc: "surrounding space", give: "  Home  ", want: home},
		{desc: "leading ./", give: "./Home.md", want: home},
		{desc: "backslashes", give: `Notes\Meeting Notes.md`, want: meeting},
		{desc: "NFC name of a decomposed file", give: "Notes/Café Menu.md", want: cafe},
		{desc: "decomposed name", give: "Notes/Cafe\u0301 Menu", want: cafe},
		{desc: "unicode bare name", give: "東京 trip", want: tokyo},
		{
			desc: "ambiguous bare name", give: "Alpha Plan", want: archAlpha,
			wantWarning: "2 notes are named \"Alpha Plan\" (Archive/Alpha Plan.md, Projects/Alpha Plan.md)",
		},
		{desc: "ambiguous name, lower case", give: "alpha plan", want: archAlpha, wantWarning: "Projects/Alpha Plan.md"},
		{desc: "missing", give: "Missing Note"},
		// After the path and name rules: the frontmatter title, then an
		// alias, then a pasted link, each saying which rule matched.
		{desc: "frontmatter title", give: "Tag Examples", want: "Tagged.md", wantWarning: `the frontmatter title of Tagged.md matches`},
		{desc: "title, other case", give: "tag examples", want: "Tagged.md", wantWarning: "the frontmatter title"},
		{desc: "alias", give: "AP", want: projAlpha, wantWarning: `no note has the path or name "AP"; an alias of Projects/Alpha Plan.md matches`},
		{desc: "alias, other case", give: "ap", want: projAlpha, wantWarning: "an alias of"},
		{desc: "pasted link", give: "[[Beta]]", want: beta, wantWarning: `"[[Beta]]" is read as a link to "Beta"`},
		{desc: "pasted link with heading and alias", give: "[[Beta#Goals|the goals]]", want: beta, wantWarning: `is read as a link to "Beta"`},
		{desc: "pasted embed", give: "![[Projects/Beta]]", want: beta, wantWarning: "is read as a link"},
		{desc: "pasted link to a title", give: "[[Tag Examples]]", want: "Tagged.md", wantWarning: "is read as a link"},
		{desc: "pasted link to nothing", give: "[[Nope]]"},
		{desc: "empty pasted link", give: "[[]]"},
		{desc: "ignored folder", give: "Ignored/Hidden.md"},
		{desc: "trash", give: ".trash/Trashed.md"},
		{desc: "attachment", give: "Diagram.png"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n, err := e.GetNode(context.Background(), tt.give, false)
			if err != nil {
				t.Fatalf("GetNode(%q) error = %v", tt.give, err)
			}
			var got string
			if n != nil {
				got = n.ID
			}
			if got != tt.want {
				t.Fatalf("GetNode(%q).ID = %q, want %q", tt.give, got, tt.want)
			}
			if n == nil {
				return
			}
			found := false
			for _, w := range n.Warnings {
				if tt.wantWarning != "" && strings.Contains(w, tt.wantWarning) {
					found = true
				} else if strings.Contains(w, "notes are named") || !strings.HasPrefix(tt.give, "[[") && strings.Contains(w, "no note has the path") || strings.Contains(w, "is read as") {
					t.Errorf("GetNode(%q) warning = %q, want none or one containing %q", tt.give, w, tt.wantWarning)
				}
			}
			if tt.wantWarning != "" && !found {
				t.Errorf("GetNode(%q).Warnings = %q, want one containing %q", tt.give, n.Warnings, tt.wantWarning)
			}
		})
	}
}

func TestGetNodeInvalidID(t *testing.T) {
	e := openTestVault(t)
	tests := []struct {
		desc        string
		give        string
		wantOutside bool
	}{
		{desc: "empty", give: ""},
		{desc: "blank", give: "   "},
		{desc: "parent", give: "../x", wantOutside: true},
		{desc: "parent inside", give: "Notes/../../x.md", wantOutside: true},
		{desc: "parent with backslash", give: `..\x`, wantOutside: true},
		{desc: "absolute", give: "/abs", wantOutside: true},
		{desc: "absolute vault path", give: "/Home.md", wantOutside: true},
		{desc: "drive", give: "C:/x.md", wantOutside: true},
		{desc: "NUL", give: "Home\x00.md", wantOutside: true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n, err := e.GetNode(context.Background(), tt.give, false)
			if !errors.Is(err, vaultgraph.ErrInvalid) {
				t.Errorf("GetNode(%q) = %v, %v, want ErrInvalid", tt.give, n, err)
			}
			if got := errors.Is(err, vaultgraph.ErrOutsideVault); got != tt.wantOutside {
				t.Errorf("GetNode(%q) error %v: errors.Is(ErrOutsideVault) = %v, want %v", tt.give, err, got, tt.wantOutside)
			}
			if n != nil {
				t.Errorf("GetNode(%q) = %+v, want nil", tt.give, n)
			}
		})
	}
}

func TestGetNodeLinks(t *testing.T) {
	e := openTestVault(t)
	type want struct {
		title       string
		links       []vaultgraph.LinkInfo
		broken      []string
		attachments []string
		tags        []string
		in, out     int
	}
	tests := []struct {
		desc string
		give string
		want want
	}{
		{
			desc: "home", give: home,
			want: want{
				title: "Home",
				links: []vaultgraph.LinkInfo{
					{ID: archAlpha, Title: "Alpha Plan"},
					{ID: projAlpha, Title: "Alpha Plan"},
					{ID: beta, Title: "Beta"},
					{ID: deepNote, Title: "Deep Note"},
					{ID: cafe, Title: "Café Menu"},
					{ID: meeting, Title: "Meeting Notes"},
				},
				broken:      []string{"Missing Note"},
				attachments: []string{"Diagram.png", "report.pdf"},
				tags:        []string{"home", "index", "MOC"},
				in:          6, out: 6,
			},
		},
		{
			desc: "frontmatter, markdown and unicode links", give: meeting,
			want: want{
				title: "Meeting Notes",
				links: []vaultgraph.LinkInfo{
					{ID: archAlpha, Title: "Alpha Plan"},
					{ID: beta, Title: "Beta"},
					{ID: home, Title: "Home"},
					{ID: cafe, Title: "Café Menu"},
					{ID: tokyo, Title: "東京 Trip"},
				},
				tags: []string{"meeting"},
				in:   3, out: 5,
			},
		},
		{
			desc: "same folder wins", give: oldIdeas,
			want: want{
				title: "Old Ideas",
				links: []vaultgraph.LinkInfo{{ID: archAlpha, Title: "Alpha Plan"}},
				tags:  []string{"archive"},
				in:    0, out: 1,
			},
		},
		{
			desc: "escaped pipe in a table, nested headings", give: beta,
			want: want{
				title: "Beta",
				links: []vaultgraph.LinkInfo{{ID: projAlpha, Title: "Alpha Plan"}, {ID: home, Title: "Home"}},
				tags:  []string{"project", "beta", "project/beta"},
				in:    3, out: 2,
			},
		},
		{
			desc: "frontmatter link first", give: projAlpha,
			want: want{
				title: "Alpha Plan",
				links: []vaultgraph.LinkInfo{{ID: beta, Title: "Beta"}, {ID: home, Title: "Home"}, {ID: meeting, Title: "Meeting Notes"}},
				tags:  []string{"project", "project/alpha"},
				in:    2, out: 3,
			},
		},
		{
			desc: "self link dropped, relative links", give: deepNote,
			want: want{
				title: "Deep Note",
				links: []vaultgraph.LinkInfo{{ID: home, Title: "Home"}},
				tags:  []string{},
				in:    1, out: 1,
			},
		},
		{
			desc: "malformed YAML", give: brokenYML,
			want: want{
				title: "Broken YAML",
				links: []vaultgraph.LinkInfo{{ID: home, Title: "Home"}},
				tags:  []string{"stillatag"},
				in:    0, out: 1,
			},
		},
		{
			desc: "unclosed frontmatter", give: unclosed,
			want: want{
				title:  "Unclosed",
				links:  []vaultgraph.LinkInfo{},
				broken: []string{"Orphan Twin"},
				tags:   []string{},
			},
		},
		{
			desc: "title from frontmatter", give: tagged,
			want: want{
				title: "Tag Examples",
				links: []vaultgraph.LinkInfo{},
				tags:  []string{"Project", "ideas", "ideas/later", "start"},
			},
		},
		{
			desc: "orphan", give: orphan,
			want: want{title: "Orphan", links: []vaultgraph.LinkInfo{}, tags: []string{}},
		},
		{
			desc: "unicode tags", give: tokyo,
			want: want{
				title: "東京 Trip",
				links: []vaultgraph.LinkInfo{{ID: meeting, Title: "Meeting Notes"}},
				tags:  []string{"travel", "旅行", "travel/japan"},
				in:    1, out: 1,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			n, err := e.GetNode(context.Background(), tt.give, false)
			if err != nil || n == nil {
				t.Fatalf("GetNode(%q) = %v, %v", tt.give, n, err)
			}
			if n.Title != tt.want.title {
				t.Errorf("Title = %q, want %q", n.Title, tt.want.title)
			}
			if !slices.Equal(n.Links, tt.want.links) {
				t.Errorf("Links = %v, want %v", n.Links, tt.want.links)
			}
			if !slices.Equal(n.Broken, tt.want.broken) {
				t.Errorf("Broken = %q, want %q", n.Broken, tt.want.broken)
			}
			if !slices.Equal(n.Attachments, tt.want.attachments) {
				t.Errorf("Attachments = %q, want %q", n.Attachments, tt.want.attachments)
			}
			if !slices.Equal(n.Tags, tt.want.tags) {
				t.Errorf("Tags = %q, want %q", n.Tags, tt.want.tags)
			}
			if n.InDegree != tt.want.in || n.OutDegree != tt.want.out {
				t.Errorf("InDegree, OutDegree = %d, %d, want %d, %d", n.InDegree, n.OutDegree, tt.want.in, tt.want.out)
			}
			if n.Content != "" {
				t.Errorf("Content = %q without withContent, want empty", n.Content)
			}
		})
	}
}

func TestGetNodeDetails(t *testing.T) {
	e := openTestVault(t)
	ctx := context.Background()

	n, err := e.GetNode(ctx, "Projects/Alpha Plan", true)
	if err != nil || n == nil {
		t.Fatalf("GetNode = %v, %v", n, err)
	}
	if want := []string{"Alpha", "AP"}; !slices.Equal(n.Aliases, want) {
		t.Errorf("Aliases = %q, want %q", n.Aliases, want)
	}
	var keys []string
	for _, p := range n.Properties {
		keys = append(keys, p.Key)
	}
	if want := []string{"status", "created", "priority", "done", "related"}; !slices.Equal(keys, want) {
		t.Errorf("property keys = %q, want %q", keys, want)
	}
	if want := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC); !n.Created.Equal(want) {
		t.Errorf("Created = %v, want %v", n.Created, want)
	}
	if !strings.HasPrefix(n.Content, "# Alpha Plan\n") || strings.Contains(n.Content, "status: active") {
		t.Errorf("Content = %q, want the body from its heading, without frontmatter", n.Content)
	}
	if n.Hash == "" || n.Size != 294 {
		t.Errorf("Hash, Size = %q, %d, want a hash and 294", n.Hash, n.Size)
	}

	t.Run("broken link warning", func(t *testing.T) {
		n, err := e.GetNode(ctx, "Home", true)
		if err != nil || n == nil {
			t.Fatalf("GetNode = %v, %v", n, err)
		}
		if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "broken link: [[Missing Note]]") }) {
			t.Errorf("Warnings = %q, want one about [[Missing Note]]", n.Warnings)
		}
		if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "duplicate tag") }) {
			t.Errorf("Warnings = %q, want one about the duplicate tag home", n.Warnings)
		}
		if !strings.HasPrefix(n.Content, "# Home\n") {
			t.Errorf("Content starts %q, want \"# Home\\n\"", n.Content[:min(20, len(n.Content))])
		}
	})
	t.Run("malformed YAML warning", func(t *testing.T) {
		n, err := e.GetNode(ctx, "Broken YAML", true)
		if err != nil || n == nil {
			t.Fatalf("GetNode = %v, %v", n, err)
		}
		if len(n.Properties) != 0 {
			t.Errorf("Properties = %v, want none", n.Properties)
		}
		if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "malformed YAML") }) {
			t.Errorf("Warnings = %q, want one about malformed YAML", n.Warnings)
		}
	})
	t.Run("content of an unclosed frontmatter note is the whole file", func(t *testing.T) {
		got, err := e.Content(ctx, unclosed)
		if err != nil || !strings.HasPrefix(got, "---\nThis note starts") {
			t.Errorf("Content(%q) = %q, %v, want the whole file", unclosed, got, err)
		}
	})
	t.Run("content of a missing note", func(t *testing.T) {
		if _, err := e.Content(ctx, "Nope.md"); !errors.Is(err, vaultgraph.ErrNotFound) {
			t.Errorf("Content(missing) = %v, want ErrNotFound", err)
		}
	})
}
