package vaultgraph

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/graph"
)

// This file is the one home of the rules for how a list answer is asked
// for: sort keys, page numbers, page sizes, neighbour directions and hub
// metrics, and the words for a value outside the ones a parameter takes
// (Choice, InRange). The Engine checks them here; MCP and the command line
// build their schemas and help from these values and only bind arguments.

// Page sizes of the lists: when the caller gives none, and the largest
// (SPEC.md, seed 004). ListNodes and Search apply them; for the other
// lists the tools do, through ListKind.Query.
const (
	DefaultListLimit      = 20
	MaxListLimit          = 100
	DefaultSearchLimit    = 10
	MaxSearchLimit        = 50
	DefaultNeighborsLimit = 20
	MaxNeighborsLimit     = 50
	DefaultHubsLimit      = 10
	MaxHubsLimit          = 50
	DefaultTagsLimit      = 20
	MaxTagsLimit          = 100
	DefaultTagListLimit   = 100
	MaxTagListLimit       = 1000
)

// SortFields are the sort keys of lists of notes (ListQuery.SortBy,
// and PageQuery.SortBy of NeighborsPage, HubsPage and SearchByTagsPage).
var SortFields = []string{"title", "path", "created", "modified", "inDegree", "outDegree", "pagerank"}

// SearchSortFields are the keys SearchQuery.SortBy accepts.
var SearchSortFields = append([]string{"score"}, SortFields...)

// TagSortFields are the keys ListTagsPage accepts ("name" is also read as
// "tag").
var TagSortFields = []string{"count", "tag"}

// noteAliases are the other names of note sort keys (lower case).
var noteAliases = map[string]string{"id": "path", "in_degree": "inDegree", "out_degree": "outDegree"}

// ListKind is what one kind of list answer accepts: its sort keys, and
// the page size a caller gets when it gives none and the largest it may
// ask for.
type ListKind struct {
	// SortFields are the sort keys, spelled as callers are shown them
	// (any letter case is read).
	SortFields []string
	// aliases are other names read as a key: lower case to SortFields.
	aliases map[string]string
	// DefaultLimit and MaxLimit bound the page size.
	DefaultLimit, MaxLimit int
}

// The kinds of list answers, one per tool that pages.
var (
	// NoteList is ListNodes (list_nodes).
	NoteList = ListKind{SortFields: SortFields, aliases: noteAliases, DefaultLimit: DefaultListLimit, MaxLimit: MaxListLimit}
	// SearchList is Search (search).
	SearchList = ListKind{SortFields: SearchSortFields, aliases: noteAliases, DefaultLimit: DefaultSearchLimit, MaxLimit: MaxSearchLimit}
	// NeighborList is NeighborsPage (get_neighbors).
	NeighborList = ListKind{SortFields: SortFields, aliases: noteAliases, DefaultLimit: DefaultNeighborsLimit, MaxLimit: MaxNeighborsLimit}
	// HubList is HubsPage (get_hubs).
	HubList = ListKind{SortFields: SortFields, aliases: noteAliases, DefaultLimit: DefaultHubsLimit, MaxLimit: MaxHubsLimit}
	// TaggedList is SearchByTagsPage (search_by_tags).
	TaggedList = ListKind{SortFields: SortFields, aliases: noteAliases, DefaultLimit: DefaultTagsLimit, MaxLimit: MaxTagsLimit}
	// TagList is ListTagsPage (list_tags).
	TagList = ListKind{SortFields: TagSortFields, aliases: map[string]string{"name": "tag"}, DefaultLimit: DefaultTagListLimit, MaxLimit: MaxTagListLimit}
)

// sortKey is one parsed sort key: field is one of its list's SortFields;
// desc sorts from the highest value down.
type sortKey struct {
	field string
	desc  bool
}

// PageQuery sorts and pages a list answer.
type PageQuery struct {
	// SortBy: keys of the list's SortFields ("-" prefix = descending, "+"
	// optional, any letter case); nil or empty = the call's default order.
	// An element may hold several keys separated by commas
	// ("-modified,title").
	SortBy []string
	// Page is 1-based (0 means 1); Limit is the page size (0 means
	// everything on one page).
	Page, Limit int
	// Brief leaves out of the page's nodes their links, broken links,
	// attachments and warnings, for a list that shows none of them (the
	// MCP tools' rows): most of what building a Node costs.
	Brief bool
}

// Query binds a tool's sortBy, page and limit to the PageQuery of list k:
// limit 0 (not given) is k.DefaultLimit, and a limit outside 1 to
// k.MaxLimit is ErrInvalid. The call that takes the query checks the rest.
func (k ListKind) Query(sortBy []string, page, limit int) (PageQuery, error) {
	lim, err := k.limit(limit)
	if err != nil {
		return PageQuery{}, err
	}
	return PageQuery{SortBy: sortBy, Page: page, Limit: lim}, nil
}

// readPage checks q against the list k, then takes e.mu for reading: on
// success the caller calls e.mu.RUnlock. It returns q's sort keys and its
// page.
func (e *Engine) readPage(q PageQuery, k ListKind) ([]sortKey, int, error) {
	keys, page, err := q.check(k)
	if err != nil {
		return nil, 0, err
	}
	if err := e.readLock(); err != nil {
		return nil, 0, err
	}
	return keys, page, nil
}

// check reads q for list k: its sort keys and page number (0 read as 1).
// A limit of 0 means everything; below 0 is ErrInvalid.
func (q PageQuery) check(k ListKind) ([]sortKey, int, error) {
	keys, err := k.sortKeys(q.SortBy)
	if err != nil {
		return nil, 0, err
	}
	page, err := pageNumber(q.Page)
	if err != nil {
		return nil, 0, err
	}
	if q.Limit < 0 {
		return nil, 0, fmt.Errorf("%w: limit: %d: use 0 (everything) or more", ErrInvalid, q.Limit)
	}
	return keys, page, nil
}

// pageNumber checks a 1-based page number; 0 means the first page.
func pageNumber(page int) (int, error) {
	if page < 0 {
		return 0, fmt.Errorf("%w: page: %d: pages start at 1", ErrInvalid, page)
	}
	return max(page, 1), nil
}

// limit checks a page size of list k: 0 is k.DefaultLimit; else 1 to
// k.MaxLimit.
func (k ListKind) limit(n int) (int, error) {
	if n == 0 {
		return k.DefaultLimit, nil
	}
	if n < 1 || n > k.MaxLimit {
		return 0, fmt.Errorf("%w: limit: %d: use 1 to %d", ErrInvalid, n, k.MaxLimit)
	}
	return n, nil
}

// sortKeys parses sort keys of list k: elements split at commas
// (SplitList), any letter case, "-" prefix for descending ("+"
// optional), aliases read as their field.
func (k ListKind) sortKeys(raw []string) ([]sortKey, error) {
	var out []sortKey
	for _, key := range SplitList(raw) {
		f, ok := k.field(strings.TrimLeft(key, "-+"))
		if !ok {
			return nil, fmt.Errorf("%w: sortBy %q: use one of %s, with '-' for descending", ErrInvalid, key, strings.Join(k.SortFields, ", "))
		}
		out = append(out, sortKey{field: f, desc: strings.HasPrefix(key, "-")})
	}
	return out, nil
}

// SplitList splits items given as comma-separated lists (sort keys
// "-modified, title", fields "id,title", a web query's tags), trims them
// and drops blank ones.
func SplitList(items []string) []string {
	var out []string
	for _, k := range items {
		for part := range strings.SplitSeq(k, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// field returns the field of k that name (any case, or an alias) names.
func (k ListKind) field(name string) (string, bool) {
	name = strings.ToLower(name)
	if f, ok := k.aliases[name]; ok {
		return f, true
	}
	for _, f := range k.SortFields {
		if strings.ToLower(f) == name {
			return f, true
		}
	}
	return "", false
}

// Choice is the closed set of values a string parameter takes, in the
// order help and schemas list them, and the one "" stands for.
type Choice[T ~string] struct {
	Values  []T
	Default T
}

// Parse returns v, "" read as c.Default, or ErrInvalid naming param and
// the values it takes ("direction: "up": use in, out or both").
func (c Choice[T]) Parse(param string, v T) (T, error) {
	if v == "" {
		return c.Default, nil
	}
	if slices.Contains(c.Values, v) {
		return v, nil
	}
	return "", fmt.Errorf("%w: %s: %q: use %s", ErrInvalid, param, v, c)
}

// Words are the values as plain strings.
func (c Choice[T]) Words() []string {
	words := make([]string, len(c.Values))
	for i, v := range c.Values {
		words[i] = string(v)
	}
	return words
}

// String lists the values as help and errors do: "in, out or both".
func (c Choice[T]) String() string {
	words := c.Words()
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	last := len(words) - 1
	return strings.Join(words[:last], ", ") + " or " + words[last]
}

// Directions are the values NeighborsPage takes.
var Directions = Choice[graph.Direction]{Values: []graph.Direction{graph.In, graph.Out, graph.Both}, Default: graph.Both}

// Metrics are the values HubsPage takes.
var Metrics = Choice[graph.Metric]{Values: []graph.Metric{graph.InDegree, graph.OutDegree, graph.PageRank}, Default: graph.InDegree}

// InRange returns nil when the number v lies within the bounds of
// parameter param, else ErrInvalid naming both ("page: 0 is out of range:
// use 1 or more"). A nil bound is open. Numbers print as %v prints them:
// an int as written, a float64 such as 1e+06 in Go's short form.
func InRange[T int | float64](param string, v T, lo, hi *T) error {
	switch {
	case lo != nil && hi != nil && (v < *lo || v > *hi):
		return fmt.Errorf("%w: %s: %v is out of range: use %v to %v", ErrInvalid, param, v, *lo, *hi)
	case lo != nil && v < *lo:
		return fmt.Errorf("%w: %s: %v is out of range: use %v or more", ErrInvalid, param, v, *lo)
	case hi != nil && v > *hi:
		return fmt.Errorf("%w: %s: %v is out of range: use at most %v", ErrInvalid, param, v, *hi)
	}
	return nil
}

// Pages places a page in a paged list.
type Pages struct {
	// Total is the number of items in the whole list.
	Total int `json:"total"`
	// Page is the page given (from 1) of TotalPages.
	Page       int `json:"page"`
	TotalPages int `json:"totalPages"`
}

// pageOf returns the range [from, to) of page (1-based) in n items cut
// into pages of limit (0: one page holding everything), and the page's
// place. A page past the end is the empty range n, n.
func pageOf(n, page, limit int) (from, to int, p Pages) {
	p = Pages{Total: n, Page: page}
	if n == 0 {
		return 0, 0, p
	}
	limit = cmp.Or(limit, n)
	p.TotalPages = (n + limit - 1) / limit
	if page > p.TotalPages {
		return n, n, p
	}
	from = (page - 1) * limit
	return from, min(from+limit, n), p
}
