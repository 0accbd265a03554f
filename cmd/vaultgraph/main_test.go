package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// testVault is the absolute path of testvault/.
func testVault(t testing.TB) string { return testutil.TestVault(t) }

// runCLI runs the command line in-process.
func runCLI(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// node is the part of a note answer (format json) the tests look at.
type node struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Content       *string  `json:"content"`
	Tags          []string `json:"tags"`
	BrokenLinks   []string `json:"brokenLinks"`
	Attachments   []string `json:"attachments"`
	IncomingCount *int     `json:"incomingCount"`
	OutgoingCount *int     `json:"outgoingCount"`
	Neighbors     []row    `json:"neighbors"`
	Warnings      []string `json:"warnings"`
	Links         []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"links"`
}

// row is a note in a list (or a neighbour of a note): a row of
// primitives, its tags one space-separated string.
type row struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Direction string   `json:"direction"`
	Score     *float64 `json:"score"`
	Tags      []string `json:"tags"`
	Content   string   `json:"content"`
}

type list struct {
	Metric     string   `json:"metric"`
	Nodes      []row    `json:"nodes"`
	Total      int      `json:"total"`
	Page       int      `json:"page"`
	TotalPages int      `json:"totalPages"`
	Hint       string   `json:"hint"`
	Warnings   []string `json:"warnings"`
}

func ids(nodes []row) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.ID
	}
	return out
}

func decode[T any](t testing.TB, out string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("stdout is not the expected JSON: %v\n%s", err, out)
	}
	return v
}

func TestCommands(t *testing.T) {
	vault := testVault(t)
	tests := []struct {
		desc  string
		give  []string
		check func(t *testing.T, out string)
	}{
		{
			desc: "get-node",
			give: []string{"get-node", "Home", "--detail", "full"},
			check: func(t *testing.T, out string) {
				n := decode[node](t, out)
				if n.ID != "Home.md" || n.Title != "Home" || !slices.Equal(n.BrokenLinks, []string{"Missing Note"}) ||
					!slices.Equal(n.Attachments, []string{"Diagram.png", "report.pdf"}) || len(n.Links) != 6 {
					t.Errorf("get-node Home = %+v", n)
				}
				if n.Content == nil || !strings.HasPrefix(*n.Content, "# Home\n") {
					t.Errorf("get-node Home content = %v, want the body", n.Content)
				}
				if n.IncomingCount != nil || n.Neighbors != nil {
					t.Errorf("get-node Home has depth 1 fields: %v, %v", n.IncomingCount, n.Neighbors)
				}
			},
		},
		{
			desc: "get-node standard",
			give: []string{"get-node", "Home"},
			check: func(t *testing.T, out string) {
				n := decode[node](t, out)
				if n.ID != "Home.md" || !slices.Equal(n.Tags, []string{"home", "index", "MOC"}) || n.Content == nil || len(n.Warnings) != 2 {
					t.Errorf("get-node Home = %+v, want id, tags, content and 2 warnings", n)
				}
				if n.Links != nil || n.BrokenLinks != nil || n.Attachments != nil {
					t.Errorf("get-node Home at standard detail has links %v, broken %q, attachments %q", n.Links, n.BrokenLinks, n.Attachments)
				}
			},
		},
		{
			desc: "get-node depth 1, ambiguous name",
			give: []string{"get-node", "alpha plan", "--depth", "1"},
			check: func(t *testing.T, out string) {
				n := decode[node](t, out)
				if n.ID != "Archive/Alpha Plan.md" || n.IncomingCount == nil || *n.IncomingCount != 3 || *n.OutgoingCount != 0 {
					t.Errorf("get-node \"alpha plan\" --depth 1 = %+v", n)
				}
				if got := len(n.Neighbors); got != 3 || n.Neighbors[0].Direction != "in" || n.Neighbors[1].ID != "Home.md" || !slices.Equal(n.Neighbors[1].Tags, []string{"home", "index", "MOC"}) {
					t.Errorf("neighbours = %+v, want 3 incoming, Home.md second with its tags", n.Neighbors)
				}
				if !slices.ContainsFunc(n.Warnings, func(w string) bool { return strings.Contains(w, "Projects/Alpha Plan.md") }) {
					t.Errorf("warnings = %q, want the other Alpha Plan named", n.Warnings)
				}
			},
		},
		{
			desc:  "get-node missing",
			give:  []string{"get-node", "Nope"},
			check: func(t *testing.T, out string) { wantMissing(t, out, "Nope") },
		},
		{
			desc: "get-neighbors",
			give: []string{"get-neighbors", "Home", "--direction", "in", "--limit", "2"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				if got, want := ids(l.Nodes), []string{"Deep/Nested/Folder/Deep Note.md", "Notes/Broken YAML.md"}; !slices.Equal(got, want) ||
					l.Total != 6 || l.Hint == "" || l.Nodes[0].Direction != "in" {
					t.Errorf("get-neighbors = %q of %d, hint %q, want %q of 6 and a hint", got, l.Total, l.Hint, want)
				}
			},
		},
		{
			desc: "get-neighbors sorted, page 2",
			give: []string{"get-neighbors", "Home", "--direction", "in", "--sort-by", "-title", "--limit", "2", "--page", "2"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				if got, want := ids(l.Nodes), []string{"Notes/Café Menu.md", "Notes/Broken YAML.md"}; !slices.Equal(got, want) ||
					l.Page != 2 || l.TotalPages != 3 || l.Hint != "page 2 of 3: pass --page 3 for more" {
					t.Errorf("get-neighbors = %q, page %d of %d, hint %q, want %q, page 2 of 3", got, l.Page, l.TotalPages, l.Hint, want)
				}
			},
		},
		{
			desc:  "get-neighbors missing",
			give:  []string{"get-neighbors", "Nope"},
			check: func(t *testing.T, out string) { wantMissing(t, out, "Nope") },
		},
		{
			desc: "find-path",
			give: []string{"find-path", "Old Ideas", "東京 Trip"},
			check: func(t *testing.T, out string) {
				p := decode[struct {
					Path   []string `json:"path"`
					Length int      `json:"length"`
				}](t, out)
				want := []string{"Archive/Old Ideas.md", "Archive/Alpha Plan.md", "Notes/Meeting Notes.md", "Notes/東京 Trip.md"}
				if !slices.Equal(p.Path, want) || p.Length != 3 {
					t.Errorf("find-path = %+v, want %q", p, want)
				}
			},
		},
		{
			desc:  "find-path directed, none",
			give:  []string{"find-path", "Old Ideas", "東京 Trip", "--directed"},
			check: func(t *testing.T, out string) { wantNull(t, out) },
		},
		{
			desc: "get-hubs",
			give: []string{"get-hubs", "--metric", "out_degree", "--limit", "2"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				hubs := l.Nodes
				if l.Metric != "out_degree" || len(hubs) != 2 || hubs[0].ID != "Home.md" || hubs[0].Score == nil || *hubs[0].Score != 6 ||
					hubs[1].ID != "Notes/Meeting Notes.md" || hubs[1].Score == nil || *hubs[1].Score != 5 {
					t.Errorf("get-hubs = %+v, want out_degree: Home.md 6, Meeting Notes 5", l)
				}
			},
		},
		{
			desc: "get-hubs default",
			give: []string{"get-hubs"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				// The 8 notes linked to; the hint says the others score 0.
				if l.Metric != "in_degree" || len(l.Nodes) != 8 || l.Nodes[0].ID != "Home.md" ||
					l.Hint != "the in_degree ranking ends here; the 5 unranked notes score 0" {
					t.Errorf("get-hubs = %+v, want 8 by in_degree, Home.md first, and where the ranking ends", l)
				}
			},
		},
		{
			desc: "get-hubs page 2 of the ranking, the page sorted by title",
			give: []string{"get-hubs", "--limit", "3", "--page", "2", "--sort-by", "title"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				got := strings.Join(ids(l.Nodes), ",")
				// Ranks 4-6 of the 8 by in_degree (Projects/Beta 3, Café
				// Menu 2, Projects/Alpha Plan 2), by title.
				want := "Projects/Alpha Plan.md,Projects/Beta.md,Notes/Café Menu.md"
				if got != want || l.Total != 8 || l.Page != 2 || l.TotalPages != 3 || l.Hint != "page 2 of 3: pass --page 3 for more" {
					t.Errorf("get-hubs = %q, total %d, page %d of %d, hint %q; want %q, 8, page 2 of 3", got, l.Total, l.Page, l.TotalPages, l.Hint, want)
				}
			},
		},
		{
			desc: "list-nodes page past the end warns",
			give: []string{"list-nodes", "--page", "999"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				if len(l.Nodes) != 0 || l.Total != 13 || !slices.Contains(l.Warnings, "page 999 is past the last page (1)") {
					t.Errorf("list-nodes --page 999 = %+v, want no nodes, total 13 and a warning", l)
				}
			},
		},
		{
			desc: "search-by-tags",
			give: []string{"search-by-tags", "project"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				if got, want := ids(l.Nodes), []string{"Projects/Alpha Plan.md", "Projects/Beta.md", "Tagged.md"}; !slices.Equal(got, want) || l.Total != 3 {
					t.Errorf("search-by-tags project = %q (%d), want %q", got, l.Total, want)
				}
			},
		},
		{
			desc: "search-by-tags all",
			give: []string{"search-by-tags", "#Project", "beta", "--mode", "all"},
			check: func(t *testing.T, out string) {
				if got := ids(decode[list](t, out).Nodes); !slices.Equal(got, []string{"Projects/Beta.md"}) {
					t.Errorf("search-by-tags --mode all = %q, want [Projects/Beta.md]", got)
				}
			},
		},
		{
			desc: "list-nodes folder and sort",
			give: []string{"list-nodes", "--folder", "Notes", "--sort-by", "-outDegree,title"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				want := []string{"Notes/Meeting Notes.md", "Notes/Broken YAML.md", "Notes/Café Menu.md", "Notes/東京 Trip.md"}
				if got := ids(l.Nodes); !slices.Equal(got, want) || l.Total != 4 || l.TotalPages != 1 || l.Hint != "" {
					t.Errorf("list-nodes = %q, total %d, pages %d, hint %q, want %q", got, l.Total, l.TotalPages, l.Hint, want)
				}
			},
		},
		{
			desc: "list-nodes tags none, paged",
			give: []string{"list-nodes", "--tags", "project,archive", "--tag-mode", "none", "--limit", "3", "--page", "2"},
			check: func(t *testing.T, out string) {
				l := decode[list](t, out)
				want := []string{"Notes/Café Menu.md", "Notes/Meeting Notes.md", "Notes/東京 Trip.md"}
				if got := ids(l.Nodes); !slices.Equal(got, want) || l.Total != 8 || l.Page != 2 || l.TotalPages != 3 ||
					!strings.Contains(l.Hint, "--page 3") {
					t.Errorf("list-nodes = %q, total %d, page %d of %d, hint %q, want %q of 8, page 2 of 3", got, l.Total, l.Page, l.TotalPages, l.Hint, want)
				}
			},
		},
		{
			desc: "list-nodes property and dates",
			give: []string{"list-nodes", "--property", "status=active", "--created-after", "2024-01-01", "--created-before", "2024-12-31"},
			check: func(t *testing.T, out string) {
				if got := ids(decode[list](t, out).Nodes); !slices.Equal(got, []string{"Projects/Alpha Plan.md"}) {
					t.Errorf("list-nodes --property = %q, want [Projects/Alpha Plan.md]", got)
				}
			},
		},
		{
			desc: "list-nodes orphans",
			give: []string{"list-nodes", "--orphans"},
			check: func(t *testing.T, out string) {
				if got, want := ids(decode[list](t, out).Nodes), []string{"Orphan.md", "Tagged.md", "Unclosed.md"}; !slices.Equal(got, want) {
					t.Errorf("list-nodes --orphans = %q, want %q", got, want)
				}
			},
		},
		{
			desc: "list-nodes broken links",
			give: []string{"list-nodes", "--broken-links"},
			check: func(t *testing.T, out string) {
				if got, want := ids(decode[list](t, out).Nodes), []string{"Home.md", "Unclosed.md"}; !slices.Equal(got, want) {
					t.Errorf("list-nodes --broken-links = %q, want %q", got, want)
				}
			},
		},
		{
			desc: "list-nodes broken anchors",
			give: []string{"list-nodes", "--broken-anchors"},
			check: func(t *testing.T, out string) {
				if got, want := ids(decode[list](t, out).Nodes), []string{"Projects/Beta.md"}; !slices.Equal(got, want) {
					t.Errorf("list-nodes --broken-anchors = %q, want %q", got, want)
				}
			},
		},
		{
			desc: "vault-status broken anchors",
			give: []string{"vault-status", "--fields", "brokenAnchors"},
			check: func(t *testing.T, out string) {
				if want := `{"brokenAnchors":1}` + "\n"; out != want {
					t.Errorf("vault-status --fields brokenAnchors = %s, want %s", out, want)
				}
			},
		},
		{
			desc: "list-tags",
			give: []string{"list-tags"},
			check: func(t *testing.T, out string) {
				v := decode[struct {
					Tags []struct {
						Tag   string `json:"tag"`
						Count int    `json:"count"`
					} `json:"tags"`
					Total int `json:"total"`
				}](t, out)
				if v.Total != 17 || len(v.Tags) != 17 || v.Tags[0].Tag != "project" || v.Tags[0].Count != 3 || v.Tags[1].Tag != "archive" {
					t.Errorf("list-tags = %+v, want 17 tags, project (3) then archive", v)
				}
			},
		},
		{
			desc: "list-tags sorted, paged",
			give: []string{"list-tags", "--sort-by", "tag", "--limit", "3", "--page", "2"},
			check: func(t *testing.T, out string) {
				l := decode[struct {
					Tags []struct {
						Tag string `json:"tag"`
					} `json:"tags"`
					Total, Page, TotalPages int
					Hint                    string
				}](t, out)
				var tags []string
				for _, tg := range l.Tags {
					tags = append(tags, tg.Tag)
				}
				if want := []string{"home", "ideas", "ideas/later"}; !slices.Equal(tags, want) || l.Total != 17 || l.Page != 2 || l.TotalPages != 6 ||
					l.Hint != "page 2 of 6: pass --page 3 for more" {
					t.Errorf("list-tags = %+v, want %q on page 2 of 6", l, want)
				}
			},
		},
		{
			desc: "random-node",
			give: []string{"random-node", "--tags", "project/alpha"},
			check: func(t *testing.T, out string) {
				if n := decode[node](t, out); n.ID != "Projects/Alpha Plan.md" {
					t.Errorf("random-node = %s, want Projects/Alpha Plan.md", n.ID)
				}
			},
		},
		{
			desc: "random-node any",
			give: []string{"random-node"},
			check: func(t *testing.T, out string) {
				if n := decode[node](t, out); n.ID == "" {
					t.Errorf("random-node = %s, want a note", out)
				}
			},
		},
		{
			desc:  "random-node none",
			give:  []string{"random-node", "--tags", "nope"},
			check: func(t *testing.T, out string) { wantNull(t, out) },
		},
		{
			desc: "vault-status",
			give: []string{"vault-status", "--fields", "vault,notes,brokenLinks,edges"},
			check: func(t *testing.T, out string) {
				s := decode[struct {
					Vault       string `json:"vault"`
					Notes       int    `json:"notes"`
					BrokenLinks int    `json:"brokenLinks"`
					Edges       int    `json:"edges"`
				}](t, out)
				if s.Vault != vault || s.Notes != 13 || s.BrokenLinks != 2 || s.Edges != 21 {
					t.Errorf("vault-status = %+v, want %s with 13 notes, 2 broken links, 21 edges", s, vault)
				}
				if want := `{"vault":` + strconv.Quote(vault) + `,"notes":13,"brokenLinks":2,"edges":21}` + "\n"; out != want {
					t.Errorf("vault-status --fields = %s, want only those fields: %s", out, want)
				}
			},
		},
		{
			desc: "flags before the command",
			give: []string{"--index", os.Getenv(EnvIndex), "get-node", "Beta"},
			check: func(t *testing.T, out string) {
				if n := decode[node](t, out); n.ID != "Projects/Beta.md" {
					t.Errorf("get-node Beta = %s, want Projects/Beta.md", n.ID)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			// Every command prints JSON here, so that the checks read data.
			args := append(append([]string{"--vault", vault}, tt.give...), "--format", "json")
			out, errOut, code := runCLI(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("vaultgraph %q = exit %d, stderr %q, want exit 0 and no stderr", args, code, errOut)
			}
			if !json.Valid([]byte(out)) || !strings.HasSuffix(out, "\n") {
				t.Fatalf("vaultgraph %q stdout is not JSON and a newline: %q", args, out)
			}
			tt.check(t, out)
		})
	}
}

// wantMissing checks that out (JSON) is the answer for an id that matches
// no note: a warning naming it.
func wantMissing(t testing.TB, out, id string) {
	t.Helper()
	if want := `{"warnings":["no note matches \"` + id + `\""]}` + "\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
}

func wantNull(t testing.TB, out string) {
	t.Helper()
	if out != "null\n" {
		t.Errorf("stdout = %q, want \"null\\n\"", out)
	}
}

// TestFormats checks the read commands' default formats and that
// --format, --detail, --fields and --max-tokens shape what they print.
func TestFormats(t *testing.T) {
	vault := testVault(t)
	tests := []struct {
		desc  string
		give  []string
		want  string // the start of stdout
		has   string // a part of stdout
		hasnt string // not a part of stdout
	}{
		{desc: "get-node Markdown", give: []string{"get-node", "Tagged"}, want: "# Tag Examples\nid: Tagged.md", has: "\nInline #project repeats"},
		{desc: "get-node Markdown, title heading in the content", give: []string{"get-node", "Home"}, want: "# Home\nid: Home.md · tags: home, index, MOC · hash: ", has: "\n\nWelcome to the test vault."},
		{desc: "random-node Markdown", give: []string{"random-node", "--tags", "ideas"}, want: "# Tag Examples\n"},
		{desc: "get-neighbors TOON", give: []string{"get-neighbors", "Home", "--direction", "in"}, want: "nodes[6]{id,title,direction,tags,context,content}:\n  Deep/Nested/Folder/Deep Note.md,Deep Note,in,", has: "\ntotal: 6\n"},
		{desc: "search-by-tags TOON", give: []string{"search-by-tags", "project"}, want: "nodes[3]{id,title,tags,content}:\n  Projects/Alpha Plan.md,Alpha Plan,project project/alpha,"},
		{desc: "list-nodes TOON", give: []string{"list-nodes", "--folder", "Notes"}, want: "nodes[4]{id,title,tags,content}:\n", has: "\ntotal: 4\n"},
		{desc: "get-hubs TOON", give: []string{"get-hubs", "--limit", "1"}, want: "metric: in_degree\nnodes[1]{id,score}:\n  Home.md,6\n", has: `hint: "page 1 of 8: pass --page 2 for more"`},
		{desc: "list-tags TOON", give: []string{"list-tags"}, want: "tags[17]{tag,count}:\n  project,3\n  archive,2\n"},
		{desc: "find-path TOON", give: []string{"find-path", "東京 Trip", "Home", "--directed", "--format", "toon"}, want: "path[3]: Notes/東京 Trip.md,Notes/Meeting Notes.md,Home.md\nlength: 2\n"},
		{desc: "vault-status TOON", give: []string{"vault-status", "--format", "toon"}, want: "vault: " + vault + "\nnotes: 13\n"},
		{desc: "list-nodes Markdown", give: []string{"list-nodes", "--folder", "Notes", "--format", "markdown"}, want: "4 nodes\n1. **Broken YAML** Notes/Broken YAML.md"},
		{desc: "get-node Markdown, minimal", give: []string{"get-node", "Home", "--format", "markdown", "--detail", "minimal"}, want: "# Home\nid: Home.md\n", hasnt: "Welcome"},
		{desc: "list-nodes JSON, minimal", give: []string{"list-nodes", "--folder", "Notes", "--sort-by", "title", "--format", "json", "--detail", "minimal"},
			want: `{"nodes":[{"id":"Notes/Broken YAML.md","title":"Broken YAML"},{"id":"Notes/Café Menu.md","title":"Café Menu"},{"id":"Notes/Meeting Notes.md","title":"Meeting Notes"},{"id":"Notes/東京 Trip.md","title":"東京 Trip"}],"total":4,"page":1,"totalPages":1}` + "\n"},
		{desc: "get-node JSON, fields", give: []string{"get-node", "Home", "--format", "json", "--fields", "id,hash"}, want: `{"id":"Home.md","hash":"`, hasnt: `"content"`},
		{desc: "list-nodes JSON, full", give: []string{"list-nodes", "--folder", "Projects", "--format", "json", "--detail", "full"},
			has: `"properties":{"Projects/Alpha Plan.md":{"status":"active","created":"2024-03-01","priority":2,"done":false,"related":"[[Beta]]"},`},
		{desc: "list-nodes max-tokens", give: []string{"list-nodes", "--max-tokens", "200"}, want: "nodes[", has: "\nomitted: "},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			args := append([]string{"--vault", vault}, tt.give...)
			out, errOut, code := runCLI(t, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("vaultgraph %q = exit %d, stderr %q, want exit 0 and no stderr", args, code, errOut)
			}
			if !strings.HasPrefix(out, tt.want) || !strings.Contains(out, tt.has) || tt.hasnt != "" && strings.Contains(out, tt.hasnt) {
				t.Errorf("vaultgraph %q = %q, want it to start with %q, hold %q and not %q", args, out, tt.want, tt.has, tt.hasnt)
			}
		})
	}
}

func TestVaultChoice(t *testing.T) {
	vault := testVault(t)
	empty := t.TempDir()
	tests := []struct {
		desc   string
		env    string
		chdir  string
		give   []string
		wantID string // "": no note Home
	}{
		{desc: "env", env: vault, give: []string{"get-node", "Home"}, wantID: "Home.md"},
		{desc: "flag over env", env: empty, give: []string{"--vault", vault, "get-node", "Home"}, wantID: "Home.md"},
		{desc: "flag over env, other way", env: vault, give: []string{"get-node", "Home", "--vault", empty}},
		{desc: "current folder", chdir: vault, give: []string{"get-node", "Home"}, wantID: "Home.md"},
		{desc: "env over current folder", env: empty, chdir: vault, give: []string{"get-node", "Home"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Setenv(EnvVault, tt.env)
			if tt.chdir != "" {
				t.Chdir(tt.chdir)
			}
			out, errOut, code := runCLI(t, append(tt.give, "--format", "json")...)
			if code != 0 {
				t.Fatalf("vaultgraph %q = exit %d, stderr %q", tt.give, code, errOut)
			}
			if tt.wantID == "" {
				wantMissing(t, out, "Home")
				return
			}
			if n := decode[node](t, out); n.ID != tt.wantID {
				t.Errorf("vaultgraph %q = %s, want %s", tt.give, n.ID, tt.wantID)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	vault := testVault(t)
	tests := []struct {
		desc     string
		give     []string
		wantCode string // in stderr
	}{
		{desc: "depth 2", give: []string{"get-node", "Home", "--depth", "2"}, wantCode: "INVALID_PARAMS"},
		{desc: "bad flag value", give: []string{"get-node", "Home", "--depth", "one"}, wantCode: "INVALID_PARAMS"},
		{desc: "unknown flag", give: []string{"get-node", "Home", "--deep"}, wantCode: "INVALID_PARAMS"},
		{desc: "unknown shorthand", give: []string{"get-node", "Home", "-x"}, wantCode: "INVALID_PARAMS"},
		{desc: "missing argument", give: []string{"get-node"}, wantCode: "INVALID_PARAMS"},
		{desc: "extra argument", give: []string{"get-node", "Home", "Beta"}, wantCode: "INVALID_PARAMS"},
		{desc: "id outside the vault", give: []string{"get-node", "../etc/passwd"}, wantCode: "INVALID_PARAMS"},
		{desc: "absolute id", give: []string{"get-node", "/etc/passwd"}, wantCode: "INVALID_PARAMS"},
		{desc: "format yaml", give: []string{"get-node", "Home", "--format", "yaml"}, wantCode: "INVALID_PARAMS"},
		{desc: "format on a command that does not read", give: []string{"gen", filepath.Join(t.TempDir(), "v"), "--format", "json"}, wantCode: "INVALID_PARAMS"},
		{desc: "detail max", give: []string{"list-nodes", "--detail", "max"}, wantCode: "INVALID_PARAMS"},
		{desc: "max-tokens 10", give: []string{"get-node", "Home", "--max-tokens", "10"}, wantCode: "INVALID_PARAMS"},
		{desc: "max-tokens not a number", give: []string{"vault-status", "--max-tokens", "lots"}, wantCode: "INVALID_PARAMS"},
		{desc: "neighbours page -1", give: []string{"get-neighbors", "Home", "--page", "-1"}, wantCode: "INVALID_PARAMS"},
		{desc: "neighbours unknown sort field", give: []string{"get-neighbors", "Home", "--sort-by", "size"}, wantCode: "INVALID_PARAMS"},
		{desc: "search-by-tags unknown sort field", give: []string{"search-by-tags", "project", "--sort-by", "-size"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-tags limit 1001", give: []string{"list-tags", "--limit", "1001"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-tags unknown sort field", give: []string{"list-tags", "--sort-by", "title"}, wantCode: "INVALID_PARAMS"},
		{desc: "direction up", give: []string{"get-neighbors", "Home", "--direction", "up"}, wantCode: "INVALID_PARAMS"},
		{desc: "neighbours limit 51", give: []string{"get-neighbors", "Home", "--limit", "51"}, wantCode: "INVALID_PARAMS"},
		{desc: "neighbours without id", give: []string{"get-neighbors"}, wantCode: "INVALID_PARAMS"},
		{desc: "find-path one argument", give: []string{"find-path", "Home"}, wantCode: "INVALID_PARAMS"},
		{desc: "find-path bad flag value", give: []string{"find-path", "Home", "Beta", "--directed=maybe"}, wantCode: "INVALID_PARAMS"},
		{desc: "unknown metric", give: []string{"get-hubs", "--metric", "betweenness"}, wantCode: "INVALID_PARAMS"},
		{desc: "hubs limit -1", give: []string{"get-hubs", "--limit", "-1"}, wantCode: "INVALID_PARAMS"},
		{desc: "hubs unknown sort field", give: []string{"get-hubs", "--sort-by", "size"}, wantCode: "INVALID_PARAMS"},
		// 0 is refused as MCP refuses "limit": 0 and "page": 0.
		{desc: "hubs limit 0", give: []string{"get-hubs", "--limit", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "hubs page 0", give: []string{"get-hubs", "--page", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-nodes limit 0", give: []string{"list-nodes", "--limit", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-nodes page 0", give: []string{"list-nodes", "--page", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "neighbours limit 0", give: []string{"get-neighbors", "Home", "--limit", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "neighbours page 0", give: []string{"get-neighbors", "Home", "--page", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "search-by-tags limit 0", give: []string{"search-by-tags", "project", "--limit", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "search-by-tags page 0", give: []string{"search-by-tags", "project", "--page", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-tags limit 0", give: []string{"list-tags", "--limit", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-tags page 0", give: []string{"list-tags", "--page", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "hubs argument", give: []string{"get-hubs", "Home"}, wantCode: "INVALID_PARAMS"},
		{desc: "search-by-tags without tags", give: []string{"search-by-tags"}, wantCode: "INVALID_PARAMS"},
		{desc: "mode some", give: []string{"search-by-tags", "project", "--mode", "some"}, wantCode: "INVALID_PARAMS"},
		{desc: "tags limit 101", give: []string{"search-by-tags", "project", "--limit", "101"}, wantCode: "INVALID_PARAMS"},
		{desc: "unknown sort field", give: []string{"list-nodes", "--sort-by", "title,size"}, wantCode: "INVALID_PARAMS"},
		{desc: "property without =", give: []string{"list-nodes", "--property", "status"}, wantCode: "INVALID_PARAMS"},
		{desc: "bad date", give: []string{"list-nodes", "--modified-after", "last week"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-nodes page -1", give: []string{"list-nodes", "--page", "-1"}, wantCode: "INVALID_PARAMS"},
		{desc: "tag mode", give: []string{"list-nodes", "--tags", "x", "--tag-mode", "some"}, wantCode: "INVALID_PARAMS"},
		{desc: "list-tags argument", give: []string{"list-tags", "x"}, wantCode: "INVALID_PARAMS"},
		{desc: "random-node argument", give: []string{"random-node", "x"}, wantCode: "INVALID_PARAMS"},
		{desc: "vault-status argument", give: []string{"vault-status", "x"}, wantCode: "INVALID_PARAMS"},
		{desc: "unknown command", give: []string{"get-nodes", "Home"}, wantCode: "INVALID_PARAMS"},
		{desc: "gen without folder", give: []string{"gen"}, wantCode: "INVALID_PARAMS"},
		{desc: "gen no notes", give: []string{"gen", filepath.Join(t.TempDir(), "v"), "--notes", "0"}, wantCode: "INVALID_PARAMS"},
		{desc: "missing vault", give: []string{"get-node", "Home", "--vault", filepath.Join(t.TempDir(), "nope")}, wantCode: "INVALID_PARAMS"},
		{desc: "vault is a file", give: []string{"get-node", "Home", "--vault", filepath.Join(vault, "Home.md")}, wantCode: "INVALID_PARAMS"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			args := append([]string{"--vault", vault}, tt.give...)
			out, errOut, code := runCLI(t, args...)
			if code != 1 {
				t.Errorf("vaultgraph %q = exit %d, want 1", args, code)
			}
			if out != "" {
				t.Errorf("vaultgraph %q stdout = %q, want nothing", args, out)
			}
			if !strings.HasPrefix(errOut, "vaultgraph: ") || !strings.Contains(errOut, tt.wantCode) {
				t.Errorf("vaultgraph %q stderr = %q, want \"vaultgraph: %s: ...\"", args, errOut, tt.wantCode)
			}
		})
	}
}

// TestOutOfRangeMessages pins the words of a --page or --limit outside
// its bounds, as the command line prints them.
func TestOutOfRangeMessages(t *testing.T) {
	vault := testVault(t)
	for _, tt := range []struct {
		give []string
		want string
	}{
		{[]string{"get-hubs", "--page", "0"}, "vaultgraph: INVALID_PARAMS: --page: 0 is out of range: use 1 or more\n"},
		{[]string{"list-tags", "--limit", "1000001"}, "vaultgraph: INVALID_PARAMS: --limit: 1000001 is out of range: use 1 to 1000\n"},
		{[]string{"get-neighbors", "Home", "--limit", "-2"}, "vaultgraph: INVALID_PARAMS: --limit: -2 is out of range: use 1 to 50\n"},
	} {
		args := append([]string{"--vault", vault}, tt.give...)
		if _, errOut, _ := runCLI(t, args...); errOut != tt.want {
			t.Errorf("vaultgraph %q stderr = %q, want %q", args, errOut, tt.want)
		}
	}
}

// TestPropertyFlagMessage checks that list-nodes and create-node refuse a
// --property without '=' or key in the same words.
func TestPropertyFlagMessage(t *testing.T) {
	vault := testVault(t)
	for _, cmd := range [][]string{{"list-nodes"}, {"create-node", "New"}} {
		for _, kv := range []string{"status", " =x"} {
			args := append(append([]string{"--vault", vault}, cmd...), "--property", kv)
			want := fmt.Sprintf("vaultgraph: INVALID_PARAMS: --property %q: use key=value\n", kv)
			if _, errOut, _ := runCLI(t, args...); errOut != want {
				t.Errorf("vaultgraph %q stderr = %q, want %q", args, errOut, want)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	commands := []string{
		"get-node", "get-neighbors", "find-path", "get-hubs", "search-by-tags",
		"list-nodes", "list-tags", "random-node", "vault-status", "gen",
		"create-node", "update-node", "delete-node", "repair-links", "get-related", "link-mentions",
	}
	for _, name := range commands {
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				out, errOut, code := runCLI(t, args...)
				if code != 0 || errOut != "" {
					t.Errorf("vaultgraph %q = exit %d, stderr %q, want 0 and nothing", args, code, errOut)
				}
				if !strings.Contains(out, "Usage:\n  vaultgraph "+name) || !strings.Contains(out, "--vault") {
					t.Errorf("vaultgraph %q stdout = %q, want the usage of %s", args, out, name)
				}
			})
		}
	}
	for _, args := range [][]string{{"--help"}, {}} {
		t.Run("root "+strings.Join(args, " "), func(t *testing.T) {
			out, errOut, code := runCLI(t, args...)
			if code != 0 || errOut != "" {
				t.Errorf("vaultgraph %q = exit %d, stderr %q, want 0 and nothing", args, code, errOut)
			}
			for _, name := range commands {
				if !strings.Contains(out, "  "+name+" ") {
					t.Errorf("vaultgraph %q does not list %s:\n%s", args, name, out)
				}
			}
		})
	}
}

func TestGen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gen vault")
	out, errOut, code := runCLI(t, "gen", dir, "--notes", "40", "--seed", "3")
	if code != 0 || out != "" || !strings.Contains(errOut, "wrote 40 notes") {
		t.Fatalf("gen = exit %d, stdout %q, stderr %q, want 0, nothing, \"wrote 40 notes\"", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "vault-status", "--vault", dir, "--format", "json", "--detail", "full")
	if code != 0 || errOut != "" {
		t.Fatalf("vault-status = exit %d, stderr %q", code, errOut)
	}
	s := decode[struct {
		Notes    int `json:"notes"`
		Links    int `json:"links"`
		Problems []struct {
			Path string `json:"path"`
		} `json:"problems"`
	}](t, out)
	if s.Notes != 40 || s.Links == 0 || len(s.Problems) != 0 {
		t.Errorf("vault-status of the generated vault = %+v, want 40 notes with links and no problems", s)
	}

	t.Run("not into a non-empty folder", func(t *testing.T) {
		out, errOut, code := runCLI(t, "gen", dir, "--notes", "5")
		if code != 1 || out != "" || !strings.Contains(errOut, "non-empty") {
			t.Errorf("gen into a full folder = exit %d, stdout %q, stderr %q, want 1 and an error", code, out, errOut)
		}
	})
}

// TestBinary builds the real binary and checks exit codes and the split
// between stdout and stderr.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testBinary(t)
	vault := testVault(t)
	tests := []struct {
		desc       string
		give       []string
		wantCode   int
		wantStdout string // a substring; "" means empty
		wantStderr string // a substring; "" means empty
	}{
		{desc: "get-node", give: []string{"get-node", "Home", "--format", "json"}, wantStdout: `{"id":"Home.md",`},
		{desc: "not found", give: []string{"get-node", "Nope", "--format", "json"}, wantStdout: `{"warnings":["no note matches \"Nope\""]}`},
		{desc: "invalid", give: []string{"get-node", "Home", "--depth", "2", "--format", "json"}, wantCode: 1, wantStderr: "INVALID_PARAMS"},
		{desc: "verbose logs go to stderr", give: []string{"get-node", "Home", "-v", "--format", "json"}, wantStdout: `{"id":"Home.md",`, wantStderr: "vault indexed"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"--vault", vault}, tt.give...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.wantCode, stderr.String())
			}
			checkStream(t, "stdout", stdout.String(), tt.wantStdout)
			checkStream(t, "stderr", stderr.String(), tt.wantStderr)
			if tt.wantStdout != "" && !json.Valid(stdout.Bytes()) {
				t.Errorf("stdout is not JSON: %q", stdout.String())
			}
		})
	}
	t.Run("env", func(t *testing.T) {
		cmd := exec.Command(bin, "get-node", "Beta", "--format", "json")
		cmd.Env = append(os.Environ(), EnvVault+"="+vault)
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"id":"Projects/Beta.md"`) {
			t.Errorf("get-node Beta with $%s = %q, %v", EnvVault, out, err)
		}
	})
	t.Run("default formats", func(t *testing.T) {
		for _, tt := range []struct {
			args []string
			want string // the start of stdout
		}{
			{[]string{"get-node", "Tagged"}, "# Tag Examples\n"},
			{[]string{"list-nodes", "--orphans"}, "nodes[3]{id,title,tags,content}:\n  Orphan.md,Orphan,"},
		} {
			out, err := exec.Command(bin, append([]string{"--vault", vault}, tt.args...)...).Output()
			if err != nil || !strings.HasPrefix(string(out), tt.want) {
				t.Errorf("vaultgraph %q = %q, %v, want it to start with %q", tt.args, out, err, tt.want)
			}
		}
	})
}

func checkStream(t testing.TB, name, got, want string) {
	t.Helper()
	if want == "" && got != "" || !strings.Contains(got, want) {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}
