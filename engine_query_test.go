package vaultgraph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/graph"
)

func TestListKindSortKeys(t *testing.T) {
	tests := []struct {
		desc string
		kind ListKind
		give []string
		want string // field/desc pairs, or the error's words
	}{
		{desc: "none", kind: NoteList, give: nil, want: "[]"},
		{desc: "blank", kind: NoteList, give: []string{"", " , "}, want: "[]"},
		{desc: "case and direction", kind: NoteList, give: []string{"-MODIFIED", "+Title"}, want: "[{modified true} {title false}]"},
		{desc: "commas", kind: NoteList, give: []string{"-modified, title"}, want: "[{modified true} {title false}]"},
		{desc: "aliases", kind: NoteList, give: []string{"id", "-in_degree", "out_degree"}, want: "[{path false} {inDegree true} {outDegree false}]"},
		{desc: "score only in search", kind: SearchList, give: []string{"-score"}, want: "[{score true}]"},
		{desc: "tag alias", kind: TagList, give: []string{"-count", "name"}, want: "[{count true} {tag false}]"},
		{desc: "unknown", kind: NoteList, give: []string{"score"}, want: `sortBy "score": use one of title, path`},
		{desc: "bare dash", kind: TagList, give: []string{"-"}, want: `sortBy "-": use one of count, tag`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			keys, err := tt.kind.sortKeys(tt.give)
			got := fmt.Sprint(keys)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("sortKeys(%q) error = %v, want ErrInvalid", tt.give, err)
				}
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("sortKeys(%q) = %s, want %s", tt.give, got, tt.want)
			}
		})
	}
}

func TestListKindQuery(t *testing.T) {
	for _, tt := range []struct {
		give, want int // limit; want -1: ErrInvalid
	}{{0, DefaultHubsLimit}, {1, 1}, {MaxHubsLimit, MaxHubsLimit}, {MaxHubsLimit + 1, -1}, {-1, -1}} {
		q, err := HubList.Query(nil, 0, tt.give)
		if tt.want < 0 {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("HubList.Query(limit %d) = %+v, %v, want ErrInvalid", tt.give, q, err)
			}
			continue
		}
		if err != nil || q.Limit != tt.want {
			t.Errorf("HubList.Query(limit %d) = %+v, %v, want limit %d", tt.give, q, err, tt.want)
		}
	}
}

// TestInRange checks the words of a number outside its bounds, as the
// command line (ints) and MCP (float64 from JSON) print them.
func TestInRange(t *testing.T) {
	for _, tt := range []struct {
		desc string
		err  error
		want string
	}{
		{"inside", InRange("limit", 5, new(1), new(50)), ""},
		{"both bounds", InRange("--limit", 51, new(1), new(50)), "--limit: 51 is out of range: use 1 to 50"},
		{"minimum only", InRange("page", 0, new(1), nil), "page: 0 is out of range: use 1 or more"},
		{"maximum only", InRange("depth", 2.0, nil, new(1.0)), "depth: 2 is out of range: use at most 1"},
		{"large float", InRange("limit", 1e6, new(1.0), new(50.0)), "limit: 1e+06 is out of range: use 1 to 50"},
		{"no bounds", InRange[int]("n", -7, nil, nil), ""},
	} {
		want := "<nil>"
		if tt.want != "" {
			want = ErrInvalid.Error() + ": " + tt.want
		}
		if got := fmt.Sprint(tt.err); got != want || (tt.err != nil && !errors.Is(tt.err, ErrInvalid)) {
			t.Errorf("%s: InRange = %q, want %q (ErrInvalid)", tt.desc, got, want)
		}
	}
}

func TestOneOf(t *testing.T) {
	if d, err := Directions.Parse("direction", ""); d != graph.Both || err != nil {
		t.Errorf("Directions.Parse(\"\") = %q, %v, want both", d, err)
	}
	if m, err := Metrics.Parse("metric", graph.PageRank); m != graph.PageRank || err != nil {
		t.Errorf("Metrics.Parse(pagerank) = %q, %v, want pagerank", m, err)
	}
	for _, err := range []error{
		func() error { _, err := Directions.Parse("direction", "up"); return err }(),
		func() error { _, err := Metrics.Parse("metric", "betweenness"); return err }(),
	} {
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), ": use ") || !strings.Contains(err.Error(), " or ") {
			t.Errorf("error = %v, want ErrInvalid saying what to use", err)
		}
	}
	if _, err := Directions.Parse("direction", "up"); err == nil || !strings.HasSuffix(err.Error(), `direction: "up": use in, out or both`) {
		t.Errorf("Directions.Parse(up) = %v", err)
	}
}

// TestSplitList checks the one splitter of comma-separated lists (sort
// keys, fields, the web app's tags).
func TestSplitList(t *testing.T) {
	for _, tt := range []struct {
		give []string
		want []string
	}{
		{nil, nil},
		{[]string{"", " , ,"}, nil},
		{[]string{"-modified, title"}, []string{"-modified", "title"}},
		{[]string{"id,title", " tags ", "a,,b"}, []string{"id", "title", "tags", "a", "b"}},
	} {
		if got := SplitList(tt.give); !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("SplitList(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

// TestChoiceString checks how a Choice lists its values, also with one
// value or none (no panic).
func TestChoiceString(t *testing.T) {
	for _, tt := range []struct {
		give Choice[string]
		want string
	}{
		{Choice[string]{}, ""},
		{Choice[string]{Values: []string{"toon"}}, "toon"},
		{Choice[string]{Values: []string{"any", "all"}}, "any or all"},
		{Choice[string]{Values: []string{"in", "out", "both"}}, "in, out or both"},
	} {
		if got := tt.give.String(); got != tt.want {
			t.Errorf("Choice%q.String() = %q, want %q", tt.give.Values, got, tt.want)
		}
	}
}
