package vaultgraph_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// fanVault writes a vault where Hub.md links to Notes/A01..A12 and is
// linked from Refs/B01..B08:
//   - A_i has title "T%02d" of 13-i (title order is the reverse of path
//     order), created 2024-01-0(i%3+1), and links back to Hub when i is odd
//     (direction both); it was modified i hours after fanBase.
//   - B_i links to Hub and, for i > 1, to B01; it was modified i hours
//     before fanBase and has no created property.
func fanVault(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	var hub strings.Builder
	hub.WriteString("# Hub\n\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&hub, "- [[A%02d]]\n", i)
		body := fmt.Sprintf("---\ntitle: T%02d\ncreated: 2024-01-0%d\n---\n\nA note.\n", 13-i, i%3+1)
		if i%2 == 1 {
			body += "\nBack to [[Hub]].\n"
		}
		write(t, dir, fmt.Sprintf("Notes/A%02d.md", i), body)
		touch(t, dir, fmt.Sprintf("Notes/A%02d.md", i), fanBase.Add(time.Duration(i)*time.Hour))
	}
	write(t, dir, "Hub.md", hub.String())
	touch(t, dir, "Hub.md", fanBase.Add(100*time.Hour))
	for i := 1; i <= 8; i++ {
		body := "See [[Hub]].\n"
		if i > 1 {
			body += "And [[B01]].\n"
		}
		write(t, dir, fmt.Sprintf("Refs/B%02d.md", i), body)
		touch(t, dir, fmt.Sprintf("Refs/B%02d.md", i), fanBase.Add(-time.Duration(i)*time.Hour))
	}
	return dir
}

var fanBase = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func touch(t testing.TB, dir, rel string, mt time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), mt, mt); err != nil {
		t.Fatal(err)
	}
}

func aNote(i int) string { return fmt.Sprintf("Notes/A%02d.md", i) }
func bNote(i int) string { return fmt.Sprintf("Refs/B%02d.md", i) }

// sortKeyCases are every key of SortFields, ascending and descending, in
// the spellings callers use.
var sortKeyCases = [][]string{
	{"title"}, {"-title"}, {"+title"}, {"TITLE"},
	{"path"}, {"-path"},
	{"created"}, {"-created"},
	{"modified"}, {"-modified"},
	{"inDegree"}, {"-inDegree"}, {"indegree"},
	{"outDegree"}, {"-outDegree"},
	{"pagerank"}, {"-pagerank"},
	{"-inDegree", "title"},
	{"created", "-path"},
	{"-outDegree", "-modified", "title"},
}

// listOrder returns every note of e in the order ListNodes gives for keys:
// the reference order the paged calls must agree with.
func listOrder(t *testing.T, e *vaultgraph.Engine, keys []string) []string {
	t.Helper()
	var ids []string
	for page := 1; ; page++ {
		res, err := e.ListNodes(context.Background(), vaultgraph.ListQuery{SortBy: keys, Page: page, Limit: vaultgraph.MaxListLimit})
		if err != nil {
			t.Fatalf("ListNodes(sortBy %q) error = %v", keys, err)
		}
		ids = append(ids, nodeIDs(res.Nodes)...)
		if page >= res.TotalPages {
			return ids
		}
	}
}

// restrict keeps the IDs of order that are in set, in order.
func restrict(order, set []string) []string {
	return slices.DeleteFunc(slices.Clone(order), func(id string) bool { return !slices.Contains(set, id) })
}

func tagNames(tags []vaultgraph.TagCount) []string {
	names := make([]string, len(tags))
	for i, tc := range tags {
		names[i] = tc.Tag
	}
	return names
}

// pageResult is one page of any of the paged calls, reduced to IDs.
type pageResult struct {
	ids                     []string
	total, page, totalPages int
}

// checkPaging walks every page of size limit (1 to len(want)+1) and checks
// that the pages cover want exactly once, in order, with right totals, and
// that the page after the last is empty but not nil.
func checkPaging(t *testing.T, want []string, get func(page, limit int) (pageResult, bool)) {
	t.Helper()
	n := len(want)
	for limit := 1; limit <= n+1; limit++ {
		wantPages := (n + limit - 1) / limit
		var got []string
		for page := 1; page <= wantPages+1; page++ {
			res, nonNil := get(page, limit)
			if res.total != n || res.page != page || res.totalPages != wantPages {
				t.Fatalf("page %d, limit %d: total, page, totalPages = %d, %d, %d, want %d, %d, %d",
					page, limit, res.total, res.page, res.totalPages, n, page, wantPages)
			}
			if !nonNil {
				t.Fatalf("page %d, limit %d: nil slice, want an empty one", page, limit)
			}
			switch {
			case page <= wantPages && (len(res.ids) == 0 || len(res.ids) > limit):
				t.Fatalf("page %d, limit %d: %d items, want 1 to %d", page, limit, len(res.ids), limit)
			case page < wantPages && len(res.ids) != limit:
				t.Fatalf("page %d, limit %d: %d items, want %d", page, limit, len(res.ids), limit)
			case page > wantPages && len(res.ids) != 0:
				t.Fatalf("page %d past the end, limit %d = %q, want empty", page, limit, res.ids)
			}
			got = append(got, res.ids...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("limit %d: pages together = %q, want %q", limit, got, want)
		}
	}
	// Limit 0 is everything on one page; page 0 is page 1.
	for _, page := range []int{0, 1} {
		res, _ := get(page, 0)
		wantPages := min(n, 1)
		if !slices.Equal(res.ids, want) && !(len(res.ids) == 0 && n == 0) || res.page != 1 || res.totalPages != wantPages {
			t.Errorf("page %d, limit 0 = %q, page %d of %d, want %q, page 1 of %d", page, res.ids, res.page, res.totalPages, want, wantPages)
		}
	}
	// A huge page number is past the end, not an overflow.
	if res, nonNil := get(math.MaxInt, 3); len(res.ids) != 0 || !nonNil || res.total != n {
		t.Errorf("page MaxInt = %q (total %d), want empty (total %d)", res.ids, res.total, n)
	}
}

func TestNeighborsPageDefaultOrder(t *testing.T) {
	ctx := context.Background()
	vaults := map[string]*vaultgraph.Engine{"testvault": openTestVault(t), "fan": openVault(t, fanVault(t))}
	tests := []struct {
		vault, give string
		dir         graph.Direction
	}{
		{vault: "testvault", give: "Home", dir: graph.Out},
		{vault: "testvault", give: "Home", dir: graph.In},
		{vault: "testvault", give: "Home", dir: graph.Both},
		{vault: "testvault", give: "Home", dir: ""},
		{vault: "testvault", give: "Archive/Alpha Plan", dir: graph.In},
		{vault: "testvault", give: "Orphan", dir: graph.Both},
		{vault: "fan", give: "Hub", dir: graph.Both},
		{vault: "fan", give: "Hub", dir: graph.In},
		{vault: "fan", give: "Refs/B01", dir: graph.Both},
	}
	for _, tt := range tests {
		t.Run(tt.vault+" "+tt.give+" "+string(tt.dir), func(t *testing.T) {
			e := vaults[tt.vault]
			old, total, _, err := e.Neighbors(ctx, tt.give, tt.dir, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, sortBy := range [][]string{nil, {}, {""}, {" , "}} {
				p, err := e.NeighborsPage(ctx, tt.give, tt.dir, vaultgraph.PageQuery{SortBy: sortBy})
				if err != nil {
					t.Fatalf("NeighborsPage(%q, %q, sortBy %q) error = %v", tt.give, tt.dir, sortBy, err)
				}
				if got, want := nbString(p.Neighbors), nbString(old); got != want || p.Total != total {
					t.Errorf("NeighborsPage(%q, %q, sortBy %q) = %s (total %d), want %s (total %d)",
						tt.give, tt.dir, sortBy, got, p.Total, want, total)
				}
				if p.Neighbors == nil {
					t.Errorf("NeighborsPage(%q, %q).Neighbors = nil, want a slice", tt.give, tt.dir)
				}
			}
		})
	}
}

func TestNeighborsPageSort(t *testing.T) {
	ctx := context.Background()
	fan := openVault(t, fanVault(t))
	dated := openVault(t, datedVault(t))
	hubBoth := []string{
		aNote(1), aNote(2), aNote(3), aNote(4), aNote(5), aNote(6), aNote(7), aNote(8), aNote(9), aNote(10), aNote(11), aNote(12),
		bNote(1), bNote(2), bNote(3), bNote(4), bNote(5), bNote(6), bNote(7), bNote(8),
	}
	// Hand-worked orders on the fan vault.
	explicit := []struct {
		desc string
		dir  graph.Direction
		give []string
		want []string
	}{
		{
			desc: "created, ties by path descending", dir: graph.Out, give: []string{"created", "-path"},
			want: []string{aNote(12), aNote(9), aNote(6), aNote(3), aNote(10), aNote(7), aNote(4), aNote(1), aNote(11), aNote(8), aNote(5), aNote(2)},
		},
		{
			desc: "comma-separated keys", dir: graph.Out, give: []string{"created,-path"},
			want: []string{aNote(12), aNote(9), aNote(6), aNote(3), aNote(10), aNote(7), aNote(4), aNote(1), aNote(11), aNote(8), aNote(5), aNote(2)},
		},
		{
			desc: "out degree descending, then title", dir: graph.Both, give: []string{"-outDegree", "title"},
			want: []string{
				bNote(2), bNote(3), bNote(4), bNote(5), bNote(6), bNote(7), bNote(8),
				bNote(1), aNote(11), aNote(9), aNote(7), aNote(5), aNote(3), aNote(1),
				aNote(12), aNote(10), aNote(8), aNote(6), aNote(4), aNote(2),
			},
		},
		{
			desc: "comma-separated with spaces and a plus", dir: graph.Both, give: []string{" -outDegree , +title "},
			want: []string{
				bNote(2), bNote(3), bNote(4), bNote(5), bNote(6), bNote(7), bNote(8),
				bNote(1), aNote(11), aNote(9), aNote(7), aNote(5), aNote(3), aNote(1),
				aNote(12), aNote(10), aNote(8), aNote(6), aNote(4), aNote(2),
			},
		},
		{
			desc: "title", dir: graph.In, give: []string{"title"},
			want: []string{bNote(1), bNote(2), bNote(3), bNote(4), bNote(5), bNote(6), bNote(7), bNote(8), aNote(11), aNote(9), aNote(7), aNote(5), aNote(3), aNote(1)},
		},
		{
			desc: "modified descending", dir: graph.Both, give: []string{"-modified"},
			want: []string{
				aNote(12), aNote(11), aNote(10), aNote(9), aNote(8), aNote(7), aNote(6), aNote(5), aNote(4), aNote(3), aNote(2), aNote(1),
				bNote(1), bNote(2), bNote(3), bNote(4), bNote(5), bNote(6), bNote(7), bNote(8),
			},
		},
		{
			desc: "in degree descending, ties by ID", dir: graph.Both, give: []string{"-inDegree"},
			want: append([]string{bNote(1)}, hubBoth[:12]...), // B01 has 7 links in, A_i one, B2..B8 none
		},
	}
	for _, tt := range explicit {
		t.Run(tt.desc, func(t *testing.T) {
			p, err := fan.NeighborsPage(ctx, "Hub", tt.dir, vaultgraph.PageQuery{SortBy: tt.give})
			if err != nil {
				t.Fatalf("NeighborsPage(Hub, sortBy %q) error = %v", tt.give, err)
			}
			got := nbIDs(p.Neighbors)
			if len(tt.want) < len(got) { // a prefix is enough
				got = got[:len(tt.want)]
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("NeighborsPage(Hub, %q, sortBy %q) =\n%q\nwant\n%q", tt.dir, tt.give, got, tt.want)
			}
		})
	}

	// Every key, both ways, agrees with ListNodes restricted to the
	// neighbours, and keeps each neighbour's direction.
	vaults := []struct {
		name string
		e    *vaultgraph.Engine
		id   string
	}{
		{name: "fan", e: fan, id: "Hub"},
		{name: "testvault", e: dated, id: "Home"},
		{name: "testvault", e: dated, id: "Projects/Beta"},
	}
	for _, v := range vaults {
		for _, dir := range []graph.Direction{graph.Out, graph.In, graph.Both} {
			base, err := v.e.NeighborsPage(ctx, v.id, dir, vaultgraph.PageQuery{})
			if err != nil {
				t.Fatal(err)
			}
			dirs := map[string]graph.Direction{}
			for _, nb := range base.Neighbors {
				dirs[nb.ID] = nb.Direction
			}
			for _, keys := range sortKeyCases {
				t.Run(fmt.Sprintf("%s %s %s %q", v.name, v.id, dir, keys), func(t *testing.T) {
					p, err := v.e.NeighborsPage(ctx, v.id, dir, vaultgraph.PageQuery{SortBy: keys})
					if err != nil {
						t.Fatalf("NeighborsPage(sortBy %q) error = %v", keys, err)
					}
					want := restrict(listOrder(t, v.e, keys), nbIDs(base.Neighbors))
					if got := nbIDs(p.Neighbors); !slices.Equal(got, want) {
						t.Errorf("NeighborsPage(%q, %q, sortBy %q) =\n%q\nwant\n%q", v.id, dir, keys, got, want)
					}
					for _, nb := range p.Neighbors {
						if nb.Direction != dirs[nb.ID] || nb.Node == nil || nb.Title == "" {
							t.Errorf("neighbour %s: direction %q, want %q, and a node with a title", nb.ID, nb.Direction, dirs[nb.ID])
						}
					}
				})
			}
		}
	}
}

func TestNeighborsPagePaging(t *testing.T) {
	ctx := context.Background()
	e := openVault(t, fanVault(t))
	for _, keys := range [][]string{nil, {"-modified"}, {"created"}, {"-outDegree", "title"}} {
		t.Run(fmt.Sprintf("%q", keys), func(t *testing.T) {
			all, err := e.NeighborsPage(ctx, "Hub", graph.Both, vaultgraph.PageQuery{SortBy: keys})
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Neighbors) != 20 || all.TotalPages != 1 {
				t.Fatalf("NeighborsPage(Hub) = %d neighbours on %d pages, want 20 on 1", len(all.Neighbors), all.TotalPages)
			}
			checkPaging(t, nbIDs(all.Neighbors), func(page, limit int) (pageResult, bool) {
				p, err := e.NeighborsPage(ctx, "Hub", graph.Both, vaultgraph.PageQuery{SortBy: keys, Page: page, Limit: limit})
				if err != nil {
					t.Fatalf("NeighborsPage(page %d, limit %d) error = %v", page, limit, err)
				}
				return pageResult{nbIDs(p.Neighbors), p.Total, p.Page, p.TotalPages}, p.Neighbors != nil
			})
		})
	}
	t.Run("no neighbours", func(t *testing.T) {
		e := openTestVault(t)
		p, err := e.NeighborsPage(ctx, "Orphan", graph.Both, vaultgraph.PageQuery{Limit: 5})
		if err != nil || p == nil {
			t.Fatalf("NeighborsPage(Orphan) = %v, %v", p, err)
		}
		if p.Neighbors == nil || len(p.Neighbors) != 0 || p.Total != 0 || p.Page != 1 || p.TotalPages != 0 {
			t.Errorf("NeighborsPage(Orphan) = %+v, want no neighbours, total 0, page 1 of 0", p)
		}
	})
}

func TestNeighborsPageLookup(t *testing.T) {
	ctx := context.Background()
	e := openTestVault(t)
	t.Run("missing note", func(t *testing.T) {
		for _, q := range []vaultgraph.PageQuery{{}, {SortBy: []string{"-title"}, Page: 2, Limit: 1}} {
			if p, err := e.NeighborsPage(ctx, "Missing Note", graph.Both, q); p != nil || err != nil {
				t.Errorf("NeighborsPage(Missing Note, %+v) = %+v, %v, want nil, nil", q, p, err)
			}
		}
	})
	t.Run("ambiguous name warns", func(t *testing.T) {
		p, err := e.NeighborsPage(ctx, "Alpha Plan", graph.Both, vaultgraph.PageQuery{SortBy: []string{"title"}})
		if err != nil || p == nil || len(p.Warnings) != 1 {
			t.Errorf("NeighborsPage(Alpha Plan) = %+v, %v, want one warning", p, err)
		}
	})
	t.Run("bad id", func(t *testing.T) {
		if _, err := e.NeighborsPage(ctx, "../x", graph.Both, vaultgraph.PageQuery{}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("NeighborsPage(../x) = %v, want ErrInvalid", err)
		}
	})
}

// invalidPageQueries are the queries every paged call refuses; valid is
// a sort key the call accepts.
func invalidPageQueries(valid string) []struct {
	desc    string
	give    vaultgraph.PageQuery
	wantMsg []string // words the message must hold
} {
	return []struct {
		desc    string
		give    vaultgraph.PageQuery
		wantMsg []string
	}{
		{desc: "unknown key", give: vaultgraph.PageQuery{SortBy: []string{valid, "size"}}, wantMsg: []string{`"size"`}},
		{desc: "unknown key in a list", give: vaultgraph.PageQuery{SortBy: []string{"-" + valid + ",sise"}}, wantMsg: []string{`"sise"`}},
		{desc: "bare dash", give: vaultgraph.PageQuery{SortBy: []string{"-"}}},
		{desc: "negative page", give: vaultgraph.PageQuery{Page: -1}},
		{desc: "negative limit", give: vaultgraph.PageQuery{Limit: -1}},
	}
}

func TestPageInvalid(t *testing.T) {
	ctx := context.Background()
	e := openTestVault(t)
	calls := []struct {
		name     string
		call     func(q vaultgraph.PageQuery) error
		keyWords []string // the valid keys the unknown-key message lists
		valid    string
	}{
		{
			name: "NeighborsPage",
			call: func(q vaultgraph.PageQuery) error {
				_, err := e.NeighborsPage(ctx, "Home", graph.Both, q)
				return err
			},
			keyWords: vaultgraph.SortFields, valid: "modified",
		},
		{
			name: "NeighborsPage of a missing note",
			call: func(q vaultgraph.PageQuery) error {
				_, err := e.NeighborsPage(ctx, "Missing Note", graph.Both, q)
				return err
			},
			keyWords: vaultgraph.SortFields, valid: "modified",
		},
		{
			name: "SearchByTagsPage",
			call: func(q vaultgraph.PageQuery) error {
				_, err := e.SearchByTagsPage(ctx, []string{"project"}, false, q)
				return err
			},
			keyWords: vaultgraph.SortFields, valid: "modified",
		},
		{
			name: "ListTagsPage",
			call: func(q vaultgraph.PageQuery) error {
				_, err := e.ListTagsPage(ctx, q)
				return err
			},
			keyWords: []string{"count", "tag"}, valid: "count",
		},
	}
	for _, c := range calls {
		for _, tt := range invalidPageQueries(c.valid) {
			t.Run(c.name+" "+tt.desc, func(t *testing.T) {
				err := c.call(tt.give)
				if !errors.Is(err, vaultgraph.ErrInvalid) {
					t.Fatalf("%s(%+v) = %v, want ErrInvalid", c.name, tt.give, err)
				}
				want := tt.wantMsg
				if len(want) > 0 {
					want = append(slices.Clone(want), c.keyWords...)
				}
				for _, w := range want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s(%+v) = %q, want it to name %s", c.name, tt.give, err, w)
					}
				}
			})
		}
	}
	t.Run("tag keys are not node keys", func(t *testing.T) {
		if _, err := e.ListTagsPage(ctx, vaultgraph.PageQuery{SortBy: []string{"title"}}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("ListTagsPage(sortBy title) = %v, want ErrInvalid", err)
		}
		if _, err := e.SearchByTagsPage(ctx, []string{"project"}, false, vaultgraph.PageQuery{SortBy: []string{"count"}}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("SearchByTagsPage(sortBy count) = %v, want ErrInvalid", err)
		}
	})
	t.Run("SearchByTagsPage without tags", func(t *testing.T) {
		if _, err := e.SearchByTagsPage(ctx, nil, false, vaultgraph.PageQuery{}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("SearchByTagsPage(nil) = %v, want ErrInvalid", err)
		}
	})
	t.Run("bad direction", func(t *testing.T) {
		if _, err := e.NeighborsPage(ctx, "Home", "up", vaultgraph.PageQuery{}); !errors.Is(err, vaultgraph.ErrInvalid) {
			t.Errorf("NeighborsPage(direction up) = %v, want ErrInvalid", err)
		}
	})
}

func TestSearchByTagsPage(t *testing.T) {
	ctx := context.Background()
	e := openVault(t, datedVault(t))
	queries := []struct {
		desc string
		tags []string
		all  bool
	}{
		{desc: "hierarchical", tags: []string{"project"}},
		{desc: "any", tags: []string{"archive", "food", "meeting", "project"}},
		{desc: "all", tags: []string{"project", "beta"}, all: true},
		{desc: "none match", tags: []string{"archive", "food"}, all: true},
		{desc: "unknown tag", tags: []string{"nope"}},
	}
	for _, qq := range queries {
		t.Run(qq.desc+" default is path", func(t *testing.T) {
			old, total, err := e.SearchByTags(ctx, qq.tags, qq.all, 0)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.SearchByTagsPage(ctx, qq.tags, qq.all, vaultgraph.PageQuery{})
			if err != nil {
				t.Fatalf("SearchByTagsPage(%q, %v) error = %v", qq.tags, qq.all, err)
			}
			got, want := nodeIDs(res.Nodes), nodeIDs(old)
			if !slices.Equal(got, want) || res.Total != total || !slices.IsSorted(got) || res.Nodes == nil {
				t.Errorf("SearchByTagsPage(%q, %v) = %q (total %d), want %q (total %d), sorted by path", qq.tags, qq.all, got, res.Total, want, total)
			}
			if wantPages := min(total, 1); res.Page != 1 || res.TotalPages != wantPages {
				t.Errorf("SearchByTagsPage(%q, %v) page %d of %d, want 1 of %d", qq.tags, qq.all, res.Page, res.TotalPages, wantPages)
			}
		})
		for _, keys := range sortKeyCases {
			t.Run(fmt.Sprintf("%s %q", qq.desc, keys), func(t *testing.T) {
				res, err := e.SearchByTagsPage(ctx, qq.tags, qq.all, vaultgraph.PageQuery{SortBy: keys})
				if err != nil {
					t.Fatalf("SearchByTagsPage(%q, sortBy %q) error = %v", qq.tags, keys, err)
				}
				mode := vaultgraph.TagsAny
				if qq.all {
					mode = vaultgraph.TagsAll
				}
				ref, err := e.ListNodes(ctx, vaultgraph.ListQuery{Tags: qq.tags, TagMode: mode, SortBy: keys, Limit: vaultgraph.MaxListLimit})
				if err != nil {
					t.Fatal(err)
				}
				if got, want := nodeIDs(res.Nodes), nodeIDs(ref.Nodes); !slices.Equal(got, want) {
					t.Errorf("SearchByTagsPage(%q, sortBy %q) =\n%q\nwant (as ListNodes)\n%q", qq.tags, keys, got, want)
				}
			})
		}
	}

	explicit := []struct {
		desc string
		give []string
		want []string
	}{
		{desc: "title", give: []string{"title"}, want: []string{archAlpha, projAlpha, beta, meeting, oldIdeas}},
		{desc: "title descending, ties by path", give: []string{"-title"}, want: []string{oldIdeas, meeting, beta, archAlpha, projAlpha}},
		{desc: "in degree descending, then title", give: []string{"-inDegree", "title"}, want: []string{archAlpha, beta, meeting, projAlpha, oldIdeas}},
		{desc: "comma-separated", give: []string{"-inDegree,title"}, want: []string{archAlpha, beta, meeting, projAlpha, oldIdeas}},
		{desc: "path descending", give: []string{"-path"}, want: []string{beta, projAlpha, meeting, oldIdeas, archAlpha}},
	}
	tags := []string{"archive", "meeting", "project/beta", "project/alpha"}
	for _, tt := range explicit {
		t.Run(tt.desc, func(t *testing.T) {
			res, err := e.SearchByTagsPage(ctx, tags, false, vaultgraph.PageQuery{SortBy: tt.give})
			if err != nil {
				t.Fatalf("SearchByTagsPage(sortBy %q) error = %v", tt.give, err)
			}
			if got := nodeIDs(res.Nodes); !slices.Equal(got, tt.want) {
				t.Errorf("SearchByTagsPage(%q, sortBy %q) = %q, want %q", tags, tt.give, got, tt.want)
			}
		})
	}

	t.Run("paging", func(t *testing.T) {
		for _, keys := range [][]string{nil, {"-title"}} {
			all, err := e.SearchByTagsPage(ctx, tags, false, vaultgraph.PageQuery{SortBy: keys})
			if err != nil {
				t.Fatal(err)
			}
			checkPaging(t, nodeIDs(all.Nodes), func(page, limit int) (pageResult, bool) {
				res, err := e.SearchByTagsPage(ctx, tags, false, vaultgraph.PageQuery{SortBy: keys, Page: page, Limit: limit})
				if err != nil {
					t.Fatalf("SearchByTagsPage(page %d, limit %d) error = %v", page, limit, err)
				}
				return pageResult{nodeIDs(res.Nodes), res.Total, res.Page, res.TotalPages}, res.Nodes != nil
			})
		}
	})
	t.Run("paging, no match", func(t *testing.T) {
		checkPaging(t, nil, func(page, limit int) (pageResult, bool) {
			res, err := e.SearchByTagsPage(ctx, []string{"nope"}, false, vaultgraph.PageQuery{Page: page, Limit: limit})
			if err != nil {
				t.Fatalf("SearchByTagsPage(page %d, limit %d) error = %v", page, limit, err)
			}
			return pageResult{nodeIDs(res.Nodes), res.Total, res.Page, res.TotalPages}, res.Nodes != nil
		})
	})
}

// testTags are the tags of testvault/, alphabetical; project has 3 notes,
// archive 2, every other one 1.
var testTags = []string{
	"archive", "beta", "food", "home", "ideas", "ideas/later", "index", "meeting", "MOC",
	"project", "project/alpha", "project/beta", "start", "stillatag", "travel", "travel/japan", "旅行",
}

func TestListTagsPage(t *testing.T) {
	ctx := context.Background()
	e := openTestVault(t)
	singles := slices.DeleteFunc(slices.Clone(testTags), func(s string) bool { return s == "project" || s == "archive" })
	reversed := func(s []string) []string {
		s = slices.Clone(s)
		slices.Reverse(s)
		return s
	}
	old, err := e.ListTags(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc string
		give []string
		want []string
	}{
		{desc: "default is the old order", give: nil, want: tagNames(old)},
		{desc: "default is count descending, then tag", give: nil, want: append([]string{"project", "archive"}, singles...)},
		{desc: "explicit default", give: []string{"-count", "tag"}, want: tagNames(old)},
		{desc: "count, ties by tag", give: []string{"count"}, want: append(slices.Clone(singles), "archive", "project")},
		{desc: "count descending alone, ties by tag", give: []string{"-count"}, want: tagNames(old)},
		{desc: "count descending, tag descending", give: []string{"-count", "-tag"}, want: append([]string{"project", "archive"}, reversed(singles)...)},
		{desc: "comma-separated", give: []string{"-count,-tag"}, want: append([]string{"project", "archive"}, reversed(singles)...)},
		{desc: "tag", give: []string{"tag"}, want: testTags},
		{desc: "plus and case", give: []string{"+TAG"}, want: testTags},
		{desc: "tag descending", give: []string{"-tag"}, want: reversed(testTags)},
		{desc: "name is tag", give: []string{"-name"}, want: reversed(testTags)},
		{desc: "tag then count", give: []string{"tag", "count"}, want: testTags},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			p, err := e.ListTagsPage(ctx, vaultgraph.PageQuery{SortBy: tt.give})
			if err != nil {
				t.Fatalf("ListTagsPage(sortBy %q) error = %v", tt.give, err)
			}
			if got := tagNames(p.Tags); !slices.Equal(got, tt.want) {
				t.Errorf("ListTagsPage(sortBy %q) =\n%q\nwant\n%q", tt.give, got, tt.want)
			}
			if p.Total != len(testTags) || p.Page != 1 || p.TotalPages != 1 {
				t.Errorf("ListTagsPage(sortBy %q) total, page, totalPages = %d, %d, %d, want %d, 1, 1", tt.give, p.Total, p.Page, p.TotalPages, len(testTags))
			}
			for _, tc := range p.Tags {
				if want := map[string]int{"project": 3, "archive": 2}[tc.Tag]; tc.Count != max(want, 1) {
					t.Errorf("tag %s count = %d, want %d", tc.Tag, tc.Count, max(want, 1))
				}
			}
		})
	}
	t.Run("paging", func(t *testing.T) {
		for _, keys := range [][]string{nil, {"tag"}, {"count", "-tag"}} {
			all, err := e.ListTagsPage(ctx, vaultgraph.PageQuery{SortBy: keys})
			if err != nil {
				t.Fatal(err)
			}
			checkPaging(t, tagNames(all.Tags), func(page, limit int) (pageResult, bool) {
				p, err := e.ListTagsPage(ctx, vaultgraph.PageQuery{SortBy: keys, Page: page, Limit: limit})
				if err != nil {
					t.Fatalf("ListTagsPage(page %d, limit %d) error = %v", page, limit, err)
				}
				return pageResult{tagNames(p.Tags), p.Total, p.Page, p.TotalPages}, p.Tags != nil
			})
		}
	})
	t.Run("no tags", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "Plain.md", "No tags here.\n")
		e := openVault(t, dir)
		checkPaging(t, nil, func(page, limit int) (pageResult, bool) {
			p, err := e.ListTagsPage(ctx, vaultgraph.PageQuery{Page: page, Limit: limit})
			if err != nil {
				t.Fatalf("ListTagsPage(page %d, limit %d) error = %v", page, limit, err)
			}
			return pageResult{tagNames(p.Tags), p.Total, p.Page, p.TotalPages}, p.Tags != nil
		})
	})
}

// TestListNodesNaturalOrder checks that titles and paths sort as people
// sort names: N2 before N10.
func TestListNodesNaturalOrder(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"N10", "N2", "N1"} {
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := openVault(t, dir)
	for _, key := range []string{"title", "path"} {
		res, err := e.ListNodes(context.Background(), vaultgraph.ListQuery{SortBy: []string{key}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range res.Nodes {
			got = append(got, n.ID)
		}
		if want := []string{"N1.md", "N2.md", "N10.md"}; !slices.Equal(got, want) {
			t.Errorf("ListNodes(sortBy %s) = %q, want %q", key, got, want)
		}
	}
}

// TestListTagsSpelling checks the one casing rule for tags: they keep the
// case they are written in, and list_tags lists a tag written in several
// ways under the most used spelling.
func TestListTagsSpelling(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"A": "#Moc #x", "B": "#Moc", "C": "#moc #X"} {
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := openVault(t, dir)
	res, err := e.ListTagsPage(context.Background(), vaultgraph.PageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(res.Tags), "[{Moc 3} {X 2}]"; got != want {
		t.Errorf("ListTagsPage = %s, want %s (the most used spelling; ties: byte order)", got, want)
	}
	n, err := e.GetNode(context.Background(), "C", false)
	if err != nil || n == nil || !slices.Equal(n.Tags, []string{"moc", "X"}) {
		t.Errorf("GetNode(C).Tags = %v, %v, want [moc X] as written", n, err)
	}
}
