package vaultgraph_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// The notes of testvault/, by ID. .trash/ and Ignored/ (userIgnoreFilters)
// are not part of the vault.
const (
	archAlpha = "Archive/Alpha Plan.md"
	oldIdeas  = "Archive/Old Ideas.md"
	deepNote  = "Deep/Nested/Folder/Deep Note.md"
	home      = "Home.md"
	brokenYML = "Notes/Broken YAML.md"
	cafe      = "Notes/Café Menu.md" // NFC; the file name on disk is decomposed
	meeting   = "Notes/Meeting Notes.md"
	tokyo     = "Notes/東京 Trip.md"
	orphan    = "Orphan.md"
	projAlpha = "Projects/Alpha Plan.md"
	beta      = "Projects/Beta.md"
	tagged    = "Tagged.md"
	unclosed  = "Unclosed.md"
)

// allNotes lists every note of testvault/ sorted by ID.
var allNotes = []string{
	archAlpha, oldIdeas, deepNote, home, brokenYML, cafe, meeting, tokyo,
	orphan, projAlpha, beta, tagged, unclosed,
}

// openVault opens an Engine over dir and closes it when the test ends.
func openVault(t testing.TB, dir string) *vaultgraph.Engine {
	t.Helper()
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// openTestVault opens testvault/ itself, for tests that only read.
func openTestVault(t testing.TB) *vaultgraph.Engine {
	t.Helper()
	return openVault(t, "testvault")
}

// copyTestVault copies testvault/ into a temporary folder and returns it.
func copyTestVault(t testing.TB) string { return testutil.CopyTestVault(t) }

// fixedTime is the modification time datedVault gives every file but Home.
var (
	fixedTime = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	homeTime  = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
)

// datedVault copies testvault/ and sets known modification times: Home.md
// homeTime, every other file fixedTime. Notes without a "created" property
// are created at their modification time.
func datedVault(t testing.TB) string {
	t.Helper()
	dir := copyTestVault(t)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		mt := fixedTime
		if filepath.Base(p) == "Home.md" {
			mt = homeTime
		}
		return os.Chtimes(p, mt, mt)
	})
	if err != nil {
		t.Fatalf("set times: %v", err)
	}
	return dir
}

func linkIDs(links []vaultgraph.LinkInfo) []string {
	ids := make([]string, len(links))
	for i, l := range links {
		ids[i] = l.ID
	}
	return ids
}

func nodeIDs(nodes []*vaultgraph.Node) []string {
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	return ids
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	t.Run("missing folder", func(t *testing.T) {
		e := vaultgraph.New(vaultgraph.Options{Vault: filepath.Join(t.TempDir(), "nope")})
		if err := e.Open(ctx); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("Open(missing folder) = %v, want ErrInvalid", err)
		}
	})
	t.Run("a file", func(t *testing.T) {
		if err := vaultgraph.New(vaultgraph.Options{Vault: "testvault/Home.md", NoIndex: true}).Open(ctx); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("Open(a file) = %v, want ErrInvalid", err)
		}
	})
	t.Run("not open", func(t *testing.T) {
		e := vaultgraph.New(vaultgraph.Options{Vault: "testvault", NoIndex: true})
		if _, err := e.GetNode(ctx, "Home", false); !errors.Is(err, vaultgraph.ErrClosed) {
			t.Errorf("GetNode before Open = %v, want ErrClosed", err)
		}
	})
	t.Run("closed", func(t *testing.T) {
		e := openTestVault(t)
		if err := e.Close(); err != nil {
			t.Fatalf("Close() = %v", err)
		}
		if _, err := e.Status(ctx); !errors.Is(err, vaultgraph.ErrClosed) {
			t.Errorf("Status after Close = %v, want ErrClosed", err)
		}
		if err := e.Sync(ctx, "Home.md"); !errors.Is(err, vaultgraph.ErrClosed) {
			t.Errorf("Sync after Close = %v, want ErrClosed", err)
		}
	})
	t.Run("root", func(t *testing.T) {
		e := openTestVault(t)
		want, _ := filepath.Abs("testvault")
		if got := e.Root(); got != want {
			t.Errorf("Root() = %q, want %q", got, want)
		}
		if got := e.Graph().Len(); got != len(allNotes) {
			t.Errorf("Graph().Len() = %d, want %d", got, len(allNotes))
		}
	})
}

func TestSearchByTags(t *testing.T) {
	e := openTestVault(t)
	tests := []struct {
		desc      string
		give      []string
		all       bool
		limit     int
		want      []string
		wantTotal int
	}{
		{desc: "hierarchical", give: []string{"project"}, want: []string{projAlpha, beta, tagged}, wantTotal: 3},
		{desc: "nested only", give: []string{"project/alpha"}, want: []string{projAlpha}, wantTotal: 1},
		{desc: "parent of inline nested tag", give: []string{"ideas"}, want: []string{tagged}, wantTotal: 1},
		{desc: "case and hash", give: []string{"#MOC"}, want: []string{home}, wantTotal: 1},
		{desc: "unicode", give: []string{"旅行"}, want: []string{tokyo}, wantTotal: 1},
		{desc: "any", give: []string{"archive", "food"}, want: []string{archAlpha, oldIdeas, cafe}, wantTotal: 3},
		{desc: "all", give: []string{"project", "beta"}, all: true, want: []string{beta}, wantTotal: 1},
		{desc: "all hierarchical", give: []string{"project", "ideas"}, all: true, want: []string{tagged}, wantTotal: 1},
		{desc: "all none", give: []string{"archive", "food"}, all: true, want: []string{}, wantTotal: 0},
		{desc: "prefix is not a parent", give: []string{"proj"}, want: []string{}, wantTotal: 0},
		{desc: "limit", give: []string{"project"}, limit: 2, want: []string{projAlpha, beta}, wantTotal: 3},
		{desc: "ignored folder tags are not counted", give: []string{"hidden", "fenced", "notatag"}, want: []string{}, wantTotal: 0},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			nodes, total, err := e.SearchByTags(context.Background(), tt.give, tt.all, tt.limit)
			if err != nil {
				t.Fatalf("SearchByTags(%q, %v) error = %v", tt.give, tt.all, err)
			}
			if got := nodeIDs(nodes); !slices.Equal(got, tt.want) || total != tt.wantTotal {
				t.Errorf("SearchByTags(%q, %v) = %q, %d, want %q, %d", tt.give, tt.all, got, total, tt.want, tt.wantTotal)
			}
		})
	}
	t.Run("no tags", func(t *testing.T) {
		if _, _, err := e.SearchByTags(context.Background(), nil, false, 0); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("SearchByTags(nil) = %v, want ErrInvalid", err)
		}
	})
}

func TestListNodesFilters(t *testing.T) {
	e := openVault(t, datedVault(t))
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	others := slices.DeleteFunc(slices.Clone(allNotes), func(id string) bool {
		return id == projAlpha || id == beta || id == tagged
	})
	tests := []struct {
		desc string
		give vaultgraph.ListQuery
		want []string
	}{
		{desc: "everything", give: vaultgraph.ListQuery{Limit: 100}, want: allNotes},
		{desc: "folder", give: vaultgraph.ListQuery{Folder: "Notes"}, want: []string{brokenYML, cafe, meeting, tokyo}},
		{desc: "folder, other case and slash", give: vaultgraph.ListQuery{Folder: "/notes/"}, want: []string{brokenYML, cafe, meeting, tokyo}},
		{desc: "folder and below", give: vaultgraph.ListQuery{Folder: "Deep"}, want: []string{deepNote}},
		{desc: "folder prefix is not a folder", give: vaultgraph.ListQuery{Folder: "Note"}, want: nil},
		{desc: "vault root is everything", give: vaultgraph.ListQuery{Folder: "/", Limit: 100}, want: allNotes},
		{desc: "dot is the vault root", give: vaultgraph.ListQuery{Folder: ".", Limit: 100}, want: allNotes},
		{desc: "folder as a vault path", give: vaultgraph.ListQuery{Folder: "./Deep/Nested/"}, want: []string{deepNote}},
		{desc: "tags any", give: vaultgraph.ListQuery{Tags: []string{"archive", "meeting"}}, want: []string{archAlpha, oldIdeas, meeting}},
		{desc: "tags all", give: vaultgraph.ListQuery{Tags: []string{"project", "beta"}, TagMode: vaultgraph.TagsAll}, want: []string{beta}},
		{desc: "tags none", give: vaultgraph.ListQuery{Tags: []string{"project"}, TagMode: vaultgraph.TagsNone}, want: others},
		{desc: "property", give: vaultgraph.ListQuery{Properties: map[string]string{"status": "active"}}, want: []string{projAlpha}},
		{desc: "property ignores case", give: vaultgraph.ListQuery{Properties: map[string]string{"Status": "PAUSED"}}, want: []string{beta}},
		{desc: "property number", give: vaultgraph.ListQuery{Properties: map[string]string{"priority": "2"}}, want: []string{projAlpha}},
		{desc: "property bool", give: vaultgraph.ListQuery{Properties: map[string]string{"done": "false"}}, want: []string{projAlpha}},
		{desc: "property date", give: vaultgraph.ListQuery{Properties: map[string]string{"created": "2024-05-10"}}, want: []string{beta}},
		{desc: "property list item", give: vaultgraph.ListQuery{Properties: map[string]string{"attendees": "[[Beta]]"}}, want: []string{meeting}},
		{desc: "two properties", give: vaultgraph.ListQuery{Properties: map[string]string{"status": "active", "priority": "3"}}, want: nil},
		{desc: "created before", give: vaultgraph.ListQuery{CreatedBefore: day("2024-12-31")}, want: []string{archAlpha, meeting, projAlpha, beta}},
		{
			desc: "created range",
			give: vaultgraph.ListQuery{CreatedAfter: day("2024-03-01"), CreatedBefore: day("2024-05-10")},
			want: []string{projAlpha, beta},
		},
		{desc: "created after", give: vaultgraph.ListQuery{CreatedAfter: day("2024-06-02")}, want: slices.DeleteFunc(slices.Clone(allNotes), func(id string) bool {
			return id == archAlpha || id == meeting || id == projAlpha || id == beta
		})},
		{desc: "modified after", give: vaultgraph.ListQuery{ModifiedAfter: day("2025-02-01")}, want: []string{home}},
		{desc: "modified before", give: vaultgraph.ListQuery{ModifiedBefore: day("2025-02-01"), Folder: "Archive"}, want: []string{archAlpha, oldIdeas}},
		{desc: "modified range is inclusive", give: vaultgraph.ListQuery{ModifiedAfter: homeTime, ModifiedBefore: homeTime}, want: []string{home}},
		{desc: "orphans", give: vaultgraph.ListQuery{Orphans: true}, want: []string{orphan, tagged, unclosed}},
		{desc: "broken links", give: vaultgraph.ListQuery{BrokenLinks: true}, want: []string{home, unclosed}},
		{desc: "filters combine", give: vaultgraph.ListQuery{Orphans: true, BrokenLinks: true}, want: []string{unclosed}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := e.ListNodes(context.Background(), tt.give)
			if err != nil {
				t.Fatalf("ListNodes(%+v) error = %v", tt.give, err)
			}
			got := nodeIDs(res.Nodes)
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("ListNodes(%+v) = %q, want %q", tt.give, got, tt.want)
			}
			if res.Total != len(tt.want) {
				t.Errorf("ListNodes(%+v).Total = %d, want %d", tt.give, res.Total, len(tt.want))
			}
		})
	}
}

func TestListNodesSortAndPages(t *testing.T) {
	e := openVault(t, datedVault(t))
	tests := []struct {
		desc string
		give []string
		want []string
	}{
		{desc: "default is path", give: nil, want: allNotes},
		{
			desc: "in degree descending, then title",
			give: []string{"-inDegree", "title"},
			want: []string{home, archAlpha, beta, meeting, projAlpha, cafe, deepNote, tokyo, brokenYML, oldIdeas, orphan, tagged, unclosed},
		},
		{
			desc: "title",
			give: []string{"title"},
			want: []string{archAlpha, projAlpha, beta, brokenYML, cafe, deepNote, home, meeting, oldIdeas, orphan, tagged, unclosed, tokyo},
		},
		{
			desc: "title descending, ties by path",
			give: []string{"-title"},
			want: []string{tokyo, unclosed, tagged, orphan, oldIdeas, meeting, home, deepNote, cafe, brokenYML, beta, archAlpha, projAlpha},
		},
		{
			desc: "out degree then path descending",
			give: []string{"-outDegree", "-path"},
			want: []string{home, meeting, projAlpha, beta, tokyo, cafe, brokenYML, deepNote, oldIdeas, unclosed, tagged, orphan, archAlpha},
		},
		{
			desc: "created (property, else modification time)",
			give: []string{"created", "path"},
			want: []string{archAlpha, projAlpha, beta, meeting, oldIdeas, deepNote, brokenYML, cafe, tokyo, orphan, tagged, unclosed, home},
		},
		{
			desc: "modified descending, then title",
			give: []string{"-modified", "title"},
			want: []string{home, archAlpha, projAlpha, beta, brokenYML, cafe, deepNote, meeting, oldIdeas, orphan, tagged, unclosed, tokyo},
		},
		{desc: "pagerank first is the hub", give: []string{"-pagerank"}, want: nil},
		{desc: "blank keys are skipped", give: []string{"", " "}, want: allNotes},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := e.ListNodes(context.Background(), vaultgraph.ListQuery{SortBy: tt.give, Limit: 100})
			if err != nil {
				t.Fatalf("ListNodes(sortBy %q) error = %v", tt.give, err)
			}
			got := nodeIDs(res.Nodes)
			if tt.want == nil {
				if len(got) == 0 || got[0] != home {
					t.Errorf("ListNodes(sortBy %q) = %q, want %q first", tt.give, got, home)
				}
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("ListNodes(sortBy %q) =\n%q\nwant\n%q", tt.give, got, tt.want)
			}
			// Pages of any size cut the same order.
			for _, limit := range []int{1, 3, 4} {
				var paged []string
				for page := 1; page <= (len(got)+limit-1)/limit+1; page++ {
					res, err := e.ListNodes(context.Background(), vaultgraph.ListQuery{SortBy: tt.give, Page: page, Limit: limit})
					if err != nil {
						t.Fatalf("ListNodes(sortBy %q, page %d, limit %d) error = %v", tt.give, page, limit, err)
					}
					paged = append(paged, nodeIDs(res.Nodes)...)
				}
				if !slices.Equal(paged, got) {
					t.Errorf("ListNodes(sortBy %q) in pages of %d =\n%q\nwant\n%q", tt.give, limit, paged, got)
				}
			}
		})
	}

	pages := []struct {
		desc           string
		page, limit    int
		want           []string
		wantPage       int
		wantTotalPages int
	}{
		{desc: "defaults", want: allNotes, wantPage: 1, wantTotalPages: 1},
		{desc: "first page", page: 1, limit: 5, want: allNotes[:5], wantPage: 1, wantTotalPages: 3},
		{desc: "middle page", page: 2, limit: 5, want: allNotes[5:10], wantPage: 2, wantTotalPages: 3},
		{desc: "last page", page: 3, limit: 5, want: allNotes[10:], wantPage: 3, wantTotalPages: 3},
		{desc: "past the end", page: 4, limit: 5, want: nil, wantPage: 4, wantTotalPages: 3},
		{desc: "exact fit", page: 1, limit: 13, want: allNotes, wantPage: 1, wantTotalPages: 1},
		{desc: "one per page", page: 13, limit: 1, want: allNotes[12:], wantPage: 13, wantTotalPages: 13},
	}
	for _, tt := range pages {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := e.ListNodes(context.Background(), vaultgraph.ListQuery{Page: tt.page, Limit: tt.limit})
			if err != nil {
				t.Fatalf("ListNodes(page %d, limit %d) error = %v", tt.page, tt.limit, err)
			}
			got := nodeIDs(res.Nodes)
			if !slices.Equal(got, tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
				t.Errorf("ListNodes(page %d, limit %d) = %q, want %q", tt.page, tt.limit, got, tt.want)
			}
			if res.Total != len(allNotes) || res.Page != tt.wantPage || res.TotalPages != tt.wantTotalPages {
				t.Errorf("ListNodes(page %d, limit %d) total, page, totalPages = %d, %d, %d, want %d, %d, %d",
					tt.page, tt.limit, res.Total, res.Page, res.TotalPages, len(allNotes), tt.wantPage, tt.wantTotalPages)
			}
		})
	}

	invalid := []struct {
		desc string
		give vaultgraph.ListQuery
	}{
		{desc: "unknown sort field", give: vaultgraph.ListQuery{SortBy: []string{"title", "size"}}},
		{desc: "negative limit", give: vaultgraph.ListQuery{Limit: -1}},
		{desc: "limit over the maximum", give: vaultgraph.ListQuery{Limit: vaultgraph.MaxListLimit + 1}},
		{desc: "negative page", give: vaultgraph.ListQuery{Page: -1}},
		{desc: "unknown tag mode", give: vaultgraph.ListQuery{Tags: []string{"x"}, TagMode: "some"}},
	}
	for _, tt := range invalid {
		t.Run(tt.desc, func(t *testing.T) {
			if res, err := e.ListNodes(context.Background(), tt.give); !errors.Is(err, vaultgraph.ErrInvalid) {
				t.Errorf("ListNodes(%+v) = %v, %v, want ErrInvalid", tt.give, res, err)
			}
		})
	}
}

func TestListTags(t *testing.T) {
	e := openTestVault(t)
	got, err := e.ListTags(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []vaultgraph.TagCount{
		{Tag: "project", Count: 3},
		{Tag: "archive", Count: 2},
		{Tag: "beta", Count: 1},
		{Tag: "food", Count: 1},
		{Tag: "home", Count: 1},
		{Tag: "ideas", Count: 1},
		{Tag: "ideas/later", Count: 1},
		{Tag: "index", Count: 1},
		{Tag: "meeting", Count: 1},
		{Tag: "MOC", Count: 1}, // as Home.md writes it,
		{Tag: "project/alpha", Count: 1},
		{Tag: "project/beta", Count: 1},
		{Tag: "start", Count: 1},
		{Tag: "stillatag", Count: 1},
		{Tag: "travel", Count: 1},
		{Tag: "travel/japan", Count: 1},
		{Tag: "旅行", Count: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ListTags() =\n%v\nwant\n%v", got, want)
	}
}

func TestRandomNode(t *testing.T) {
	e := openTestVault(t)
	ctx := context.Background()
	tests := []struct {
		desc string
		tags []string
		want []string // the candidates; nil means the result is nil
	}{
		{desc: "any note", want: allNotes},
		{desc: "one candidate", tags: []string{"project/alpha"}, want: []string{projAlpha}},
		{desc: "tags any", tags: []string{"archive", "food"}, want: []string{archAlpha, oldIdeas, cafe}},
		{desc: "hierarchical", tags: []string{"travel"}, want: []string{tokyo}},
		{desc: "no match", tags: []string{"nope"}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			seen := map[string]bool{}
			for seed := range uint64(50) {
				n, err := e.RandomNode(ctx, rand.New(rand.NewPCG(seed, 1)), tt.tags)
				if err != nil {
					t.Fatalf("RandomNode(%q) error = %v", tt.tags, err)
				}
				if tt.want == nil {
					if n != nil {
						t.Fatalf("RandomNode(%q) = %s, want nil", tt.tags, n.ID)
					}
					continue
				}
				if n == nil || !slices.Contains(tt.want, n.ID) {
					t.Fatalf("RandomNode(%q) = %v, want one of %q", tt.tags, n, tt.want)
				}
				seen[n.ID] = true
			}
			if tt.want != nil && len(tt.want) <= 3 && len(seen) != len(tt.want) {
				t.Errorf("RandomNode(%q) over 50 seeds picked %v, want each of %q", tt.tags, seen, tt.want)
			}
		})
	}
	t.Run("seeded choice among tagged notes is reproducible", func(t *testing.T) {
		pick := func() string {
			n, err := e.RandomNode(ctx, rand.New(rand.NewPCG(7, 7)), []string{"project"})
			if err != nil || n == nil {
				t.Fatalf("RandomNode = %v, %v", n, err)
			}
			return n.ID
		}
		if a, b := pick(), pick(); a != b {
			t.Errorf("RandomNode with the same seed = %q then %q, want the same note", a, b)
		}
	})
	t.Run("nil rand", func(t *testing.T) {
		if n, err := e.RandomNode(ctx, nil, nil); err != nil || n == nil {
			t.Errorf("RandomNode(nil, nil) = %v, %v, want a note", n, err)
		}
	})
}

func TestStatus(t *testing.T) {
	e := openTestVault(t)
	s, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type counts struct {
		Notes, Links, BrokenLinks, AttachmentLinks, Attachments, Tags, Edges, NotesWithWarnings int
		Index, Watcher                                                                          string
	}
	want := counts{
		Notes:             13, // not .trash/Trashed.md, not Ignored/Hidden.md
		Links:             30, // 28 resolved + 2 broken, counted per occurrence
		BrokenLinks:       2,  // Home: [[Missing Note]], Unclosed: [[Orphan Twin]]
		AttachmentLinks:   2,  // Home: Diagram.png, report.pdf
		Attachments:       1,  // Diagram.png
		Tags:              17,
		Edges:             21,
		NotesWithWarnings: 4, // Home, Broken YAML, 東京 Trip, Tagged
		Index:             e.IndexPath(),
		Watcher:           "off",
	}
	got := counts{
		Notes: s.Notes, Links: s.Links, BrokenLinks: s.BrokenLinks, AttachmentLinks: s.AttachmentLinks,
		Attachments: s.Attachments, Tags: s.Tags, Edges: s.Edges, NotesWithWarnings: s.NotesWithWarnings,
		Index: s.Index, Watcher: s.Watcher,
	}
	if got != want {
		t.Errorf("Status() counts =\n%+v\nwant\n%+v", got, want)
	}
	if abs, _ := filepath.Abs("testvault"); s.Vault != abs {
		t.Errorf("Status().Vault = %q, want %q", s.Vault, abs)
	}
	if s.LastSync.IsZero() {
		t.Errorf("Status().LastSync is zero")
	}
	if len(s.Problems) != 0 {
		t.Errorf("Status().Problems = %v, want none", s.Problems)
	}
	wantDup := []vaultgraph.DuplicateName{{Name: "Alpha Plan", IDs: []string{archAlpha, projAlpha}}}
	if len(s.DuplicateNames) != 1 || s.DuplicateNames[0].Name != wantDup[0].Name || !slices.Equal(s.DuplicateNames[0].IDs, wantDup[0].IDs) {
		t.Errorf("Status().DuplicateNames = %v, want %v", s.DuplicateNames, wantDup)
	}
}

func TestStatusProblems(t *testing.T) {
	dir := copyTestVault(t)
	write(t, dir, "Binary.md", "\x00\x01binary")
	write(t, dir, "Notes/Home.md", "# Another home\n")
	e := openVault(t, dir)
	s, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Notes != 14 {
		t.Errorf("Status().Notes = %d, want 14", s.Notes)
	}
	if len(s.Problems) != 1 || s.Problems[0].Path != "Binary.md" || !strings.Contains(s.Problems[0].Reason, "binary") {
		t.Errorf("Status().Problems = %v, want Binary.md as binary", s.Problems)
	}
	var names []string
	for _, d := range s.DuplicateNames {
		names = append(names, d.Name)
	}
	if want := []string{"Alpha Plan", "Home"}; !slices.Equal(names, want) {
		t.Errorf("Status().DuplicateNames = %v, want names %q", s.DuplicateNames, want)
	}
	if n, _ := e.GetNode(context.Background(), "Binary.md", false); n != nil {
		t.Errorf("GetNode(Binary.md) = %s, want nil", n.ID)
	}
}

// write is testutil.WriteFile: content written to the slash path rel
// under dir, folders made.
func write(t testing.TB, dir, rel, content string) { testutil.WriteFile(t, dir, rel, content) }

// TestFolderFilterOutside checks that a folder filter leaving the vault
// is refused rather than read as the vault root.
func TestFolderFilterOutside(t *testing.T) {
	e := openVault(t, "testvault")
	ctx := context.Background()
	for _, folder := range []string{"..", "../..", "Projects/../..", "a\x00b", `Projects\Alpha`} {
		if res, err := e.ListNodes(ctx, vaultgraph.ListQuery{Folder: folder}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("ListNodes(folder %q) = %v, %v; want ErrInvalid", folder, res, err)
		}
		if hits, _, err := e.Search(ctx, vaultgraph.SearchQuery{Query: "alpha", Folder: folder, Mode: "keyword"}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("Search(folder %q) = %d hits, %v; want ErrInvalid", folder, len(hits), err)
		}
	}
	for _, folder := range []string{"", "/", ".", "Projects", "/Projects/", "projects"} {
		res, err := e.ListNodes(ctx, vaultgraph.ListQuery{Folder: folder})
		if err != nil || res.Total == 0 {
			t.Errorf("ListNodes(folder %q) = %v, %v; want notes", folder, res, err)
		}
	}
}
