package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// Tools are the handlers of vaultgraph's tools over one Engine. Each
// handler binds its parameters to the Engine's queries (sort keys, pages,
// limits, directions, metrics and modes are checked there, once) and
// returns the response value to encode, or nil for a not-found read.
type Tools struct {
	Engine *vaultgraph.Engine
	// Rand picks random nodes; nil uses a random seed.
	Rand *rand.Rand
}

// MaxNodeNeighbors is how many neighbours get_node depth 1 shows. The
// paged tools' sizes are their vaultgraph.ListKind's (SPEC.md, seed 004).
const MaxNodeNeighbors = 20

// GetNodeParams are get_node's parameters.
type GetNodeParams struct {
	ID    string `json:"id"`
	Depth int    `json:"depth"`
	Presentation
}

// GetNode returns one note with its content, and with depth 1 its
// neighbours and link counts; nil when no note matches.
func (t *Tools) GetNode(ctx context.Context, p GetNodeParams) (any, error) {
	if strings.TrimSpace(p.ID) == "" {
		return nil, invalid("id", "required: a note path, path without .md, or note name")
	}
	if p.Depth != 0 && p.Depth != 1 {
		return nil, invalid("depth", "%d: use 0 (the note) or 1 (the note and its neighbours)", p.Depth)
	}
	n, err := t.Engine.GetNode(ctx, p.ID, p.wants(getNodeFields, "content"))
	if err != nil {
		return nil, err
	}
	if n == nil {
		return missing(p.ID), nil
	}
	r := nodeResponse(n, PrimaryContentChars)
	if err := t.mentions(ctx, &r, p.wants(getNodeFields, "mentions")); err != nil {
		return nil, err
	}
	if p.Depth == 1 {
		in, out := n.InDegree, n.OutDegree
		r.IncomingCount, r.OutgoingCount = &in, &out
		nbs, total, _, err := t.Engine.Neighbors(ctx, n.ID, graph.Both, MaxNodeNeighbors)
		if err != nil {
			return nil, err
		}
		if total > len(nbs) {
			r.Hint = fmt.Sprintf("%d of %d linked notes shown: {get_neighbors} with {page: 2} gives the next ones", len(nbs), total)
		}
		r.Neighbors = []NodeResponse{}
		withContent := p.wantsRow(getNodeFields, "content")
		contexts, err := t.contexts(ctx, n.ID, nbs, p.wantsRow(getNodeFields, "context"))
		if err != nil {
			return nil, err
		}
		for _, nb := range nbs {
			if withContent {
				if nb.Content, err = t.content(ctx, nb.ID); err != nil {
					return nil, err
				}
			}
			nr := nodeResponse(nb.Node, NeighborContentChars)
			nr.Direction = string(nb.Direction)
			nr.Context = contexts[nb.ID]
			nr.Warnings = nil
			r.Neighbors = append(r.Neighbors, nr)
		}
	}
	return &r, nil
}

// GetNeighborsParams are get_neighbors' parameters.
type GetNeighborsParams struct {
	ID        string   `json:"id"`
	Direction string   `json:"direction"`
	SortBy    SortKeys `json:"sortBy"`
	Page      int      `json:"page"`
	Limit     int      `json:"limit"`
	Presentation
}

// GetNeighbors lists the notes linked with a note; nil when the note does
// not exist.
func (t *Tools) GetNeighbors(ctx context.Context, p GetNeighborsParams) (any, error) {
	if strings.TrimSpace(p.ID) == "" {
		return nil, invalid("id", "required")
	}
	q, err := vaultgraph.NeighborList.Query(p.SortBy, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	res, err := t.Engine.NeighborsPage(ctx, p.ID, graph.Direction(p.Direction), q)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return missing(p.ID), nil
	}
	out := nodePage(res.Total, res.Page, res.TotalPages, res.Warnings)
	withContent := p.wants(getNeighborsFields, "content")
	contexts, err := t.contexts(ctx, res.ID, res.Neighbors, p.wants(getNeighborsFields, "context"))
	if err != nil {
		return nil, err
	}
	for _, nb := range res.Neighbors {
		if withContent {
			if nb.Content, err = t.content(ctx, nb.ID); err != nil {
				return nil, err
			}
		}
		nr := listItem(nb.Node)
		nr.Direction = string(nb.Direction)
		nr.Context = contexts[nb.ID]
		out.Nodes = append(out.Nodes, nr)
	}
	return out, nil
}

// contexts are the sentences holding the links of id's incoming
// neighbours among nbs to id, by neighbour; nil unless want.
func (t *Tools) contexts(ctx context.Context, id string, nbs []vaultgraph.Neighbor, want bool) (map[string]string, error) {
	if !want {
		return nil, nil
	}
	var in []string
	for _, nb := range nbs {
		if nb.Direction != graph.Out {
			in = append(in, nb.ID)
		}
	}
	return t.Engine.LinkContexts(ctx, id, in)
}

// content reads the body of a listed note. A note whose file went away
// since it was indexed is listed without content rather than failing the
// whole answer.
func (t *Tools) content(ctx context.Context, id string) (string, error) {
	c, err := t.Engine.Content(ctx, id)
	if errors.Is(err, vaultgraph.ErrNotFound) {
		return "", nil
	}
	return c, err
}

// listItem is a note as a list holds it: content cut to 500 characters,
// no links and no per-note warnings (the presentation picks the fields).
func listItem(n *vaultgraph.Node) NodeResponse {
	r := nodeResponse(n, ListContentChars)
	r.Links, r.Attachments, r.BrokenLinks, r.Warnings = nil, nil, nil, nil
	return r
}

// FindPathParams are find_path's parameters.
type FindPathParams struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	Directed bool   `json:"directed"`
	Presentation
}

// PathResponse is find_path's answer: the path, its length in links, and
// warnings such as a note name shared by several notes.
type PathResponse struct {
	Path   []string `json:"path"`
	Length int      `json:"length"`
	// Titles are the titles of the path's notes, in order.
	Titles   []string `json:"titles"`
	Warnings []string `json:"warnings,omitempty"`
}

// FindPath returns the shortest path between two notes, or nil.
func (t *Tools) FindPath(ctx context.Context, p FindPathParams) (any, error) {
	if strings.TrimSpace(p.Source) == "" {
		return nil, invalid("source", "required")
	}
	if strings.TrimSpace(p.Target) == "" {
		return nil, invalid("target", "required")
	}
	path, warnings, err := t.Engine.FindPath(ctx, p.Source, p.Target, p.Directed)
	if err != nil {
		return nil, err
	}
	if path == nil {
		// null is "no path"; an end that is no note is a warning.
		var gone []string
		for _, id := range []string{p.Source, p.Target} {
			if found, _, err := t.Engine.Lookup(id); err == nil && found == "" {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			return missing(gone...), nil
		}
		return nil, nil
	}
	r := &PathResponse{Path: path.Path, Length: path.Length, Warnings: warnings}
	for _, id := range path.Path {
		title := id
		if n, err := t.Engine.GetNode(ctx, id, false); err == nil && n != nil {
			title = n.Title
		}
		r.Titles = append(r.Titles, title)
	}
	return r, nil
}

// GetHubsParams are get_hubs' parameters.
type GetHubsParams struct {
	Metric string `json:"metric"`
	// SortBy reorders the notes of the page; the metric chooses which
	// notes are on it.
	SortBy SortKeys `json:"sortBy"`
	Page   int      `json:"page"`
	Limit  int      `json:"limit"`
	Presentation
}

// GetHubs returns a page of the notes ranked by a centrality metric, most
// central first unless sortBy reorders the page.
func (t *Tools) GetHubs(ctx context.Context, p GetHubsParams) (any, error) {
	q, err := vaultgraph.HubList.Query(p.SortBy, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	res, err := t.Engine.HubsPage(ctx, graph.Metric(p.Metric), q)
	if err != nil {
		return nil, err
	}
	out := nodePage(res.Total, res.Page, res.TotalPages, nil)
	out.Metric = string(res.Metric)
	if res.Unranked > 0 && res.Page >= res.TotalPages {
		// The last page or past it: say where the ranking ends rather
		// than list notes that score 0.
		out.Hint = fmt.Sprintf("the %s ranking ends here; the %d unranked notes score 0", res.Metric, res.Unranked)
	}
	withContent := p.wants(getHubsFields, "content")
	for _, h := range res.Hubs {
		n, err := t.Engine.GetNode(ctx, h.ID, withContent)
		if err != nil {
			return nil, err
		}
		if n == nil { // removed since the ranking: skip it
			continue
		}
		item := listItem(n)
		score := h.Score
		item.Score = &score
		out.Nodes = append(out.Nodes, item)
	}
	return out, nil
}

// SearchByTagsParams are search_by_tags' parameters.
type SearchByTagsParams struct {
	Tags   []string `json:"tags"`
	Mode   string   `json:"mode"`
	SortBy SortKeys `json:"sortBy"`
	Page   int      `json:"page"`
	Limit  int      `json:"limit"`
	Presentation
}

// SearchByTags lists notes with any or all of the tags.
func (t *Tools) SearchByTags(ctx context.Context, p SearchByTagsParams) (any, error) {
	tags := slices.DeleteFunc(slices.Clone(p.Tags), func(s string) bool { return strings.TrimSpace(s) == "" })
	if len(tags) == 0 {
		return nil, invalid("tags", "give at least one tag")
	}
	var all bool
	switch p.Mode {
	case "", "any":
	case "all":
		all = true
	default:
		return nil, invalid("mode", "%q: use any or all", p.Mode)
	}
	q, err := vaultgraph.TaggedList.Query(p.SortBy, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	res, err := t.Engine.SearchByTagsPage(ctx, tags, all, q)
	if err != nil {
		return nil, err
	}
	return t.listPage(ctx, searchByTagsFields, res, p.Presentation)
}

// listPage turns an Engine page of notes into the answer, reading content
// only when fields show it.
func (t *Tools) listPage(ctx context.Context, fields *fieldSet, res *vaultgraph.ListResult, p Presentation) (*ListResponse, error) {
	out := nodePage(res.Total, res.Page, res.TotalPages, nil)
	withContent := p.wants(fields, "content")
	var err error
	for _, n := range res.Nodes {
		if withContent {
			if n.Content, err = t.content(ctx, n.ID); err != nil {
				return nil, err
			}
		}
		out.Nodes = append(out.Nodes, listItem(n))
	}
	return out, nil
}

// nodePage is the answer for a page of notes before its notes are added:
// the total, the page numbers and the hint to see more.
func nodePage(total, page, totalPages int, warnings []string) *ListResponse {
	return &ListResponse{Nodes: []NodeResponse{}, Total: total, Page: page, TotalPages: totalPages, Warnings: warnings, Hint: pageHint(page, totalPages)}
}

// ListNodesParams are list_nodes' parameters.
type ListNodesParams struct {
	Folder         string         `json:"folder"`
	Tags           []string       `json:"tags"`
	TagMode        string         `json:"tagMode"`
	Properties     PropertyFilter `json:"properties"`
	CreatedAfter   string         `json:"createdAfter"`
	CreatedBefore  string         `json:"createdBefore"`
	ModifiedAfter  string         `json:"modifiedAfter"`
	ModifiedBefore string         `json:"modifiedBefore"`
	Orphans        bool           `json:"orphans"`
	BrokenLinks    bool           `json:"brokenLinks"`
	BrokenAnchors  bool           `json:"brokenAnchors"`
	SortBy         SortKeys       `json:"sortBy"`
	Page           int            `json:"page"`
	Limit          int            `json:"limit"`
	Presentation
}

// ListNodes browses notes with filters, sorting and pages.
func (t *Tools) ListNodes(ctx context.Context, p ListNodesParams) (any, error) {
	q := vaultgraph.ListQuery{
		Folder: p.Folder, Tags: p.Tags, TagMode: vaultgraph.TagMode(p.TagMode),
		Properties: p.Properties, Orphans: p.Orphans, BrokenLinks: p.BrokenLinks, BrokenAnchors: p.BrokenAnchors,
		SortBy: p.SortBy, Page: p.Page, Limit: p.Limit,
	}
	var err error
	for _, d := range []struct {
		name     string
		in       string
		out      *time.Time
		endOfDay bool
	}{
		{"createdAfter", p.CreatedAfter, &q.CreatedAfter, false},
		{"createdBefore", p.CreatedBefore, &q.CreatedBefore, true},
		{"modifiedAfter", p.ModifiedAfter, &q.ModifiedAfter, false},
		{"modifiedBefore", p.ModifiedBefore, &q.ModifiedBefore, true},
	} {
		if *d.out, err = parseDate(d.name, d.in, d.endOfDay); err != nil {
			return nil, err
		}
	}
	res, err := t.Engine.ListNodes(ctx, q)
	if err != nil {
		return nil, err
	}
	return t.listPage(ctx, listNodesFields, res, p.Presentation)
}

// parseDate reads a date or date-time parameter; "" is the zero time. A
// date without a time is an upper bound's last instant when endOfDay is
// set, so that "before 2024-06-01" includes that whole day.
func parseDate(name, s string, endOfDay bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			if endOfDay && layout == time.DateOnly {
				t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
			}
			return t, nil
		}
	}
	return time.Time{}, invalid(name, "%q is not a date: use YYYY-MM-DD or RFC 3339", s)
}

// ListTagsParams are list_tags' parameters.
type ListTagsParams struct {
	SortBy SortKeys `json:"sortBy"`
	Page   int      `json:"page"`
	Limit  int      `json:"limit"`
	Presentation
}

// ListTags returns the vault's tags with their note counts, most used
// first unless sortBy says otherwise, a page at a time.
func (t *Tools) ListTags(ctx context.Context, p ListTagsParams) (any, error) {
	q, err := vaultgraph.TagList.Query(p.SortBy, p.Page, p.Limit)
	if err != nil {
		return nil, err
	}
	res, err := t.Engine.ListTagsPage(ctx, q)
	if err != nil {
		return nil, err
	}
	tags := res.Tags
	if tags == nil {
		tags = []vaultgraph.TagCount{}
	}
	return &TagsResponse{Tags: tags, Total: res.Total, Page: res.Page, TotalPages: res.TotalPages, Hint: pageHint(res.Page, res.TotalPages)}, nil
}

// RandomNodeParams are random_node's parameters.
type RandomNodeParams struct {
	Tags []string `json:"tags"`
	Presentation
}

// RandomNode returns one random note (with any of the tags), or nil.
func (t *Tools) RandomNode(ctx context.Context, p RandomNodeParams) (any, error) {
	n, err := t.Engine.RandomNode(ctx, t.Rand, p.Tags)
	if err != nil || n == nil {
		return nil, err
	}
	if p.wants(noteFields, "content") {
		if n.Content, err = t.content(ctx, n.ID); err != nil {
			return nil, err
		}
	}
	r := nodeResponse(n, PrimaryContentChars)
	if err := t.mentions(ctx, &r, p.wants(noteFields, "mentions")); err != nil {
		return nil, err
	}
	return &r, nil
}

// mentions adds the note's unlinked mentions to r when want.
func (t *Tools) mentions(ctx context.Context, r *NodeResponse, want bool) error {
	if !want {
		return nil
	}
	ms, _, warnings, err := t.Engine.Mentions(ctx, r.ID)
	if err != nil {
		return err
	}
	r.Mentions, r.Warnings = ms, append(r.Warnings, warnings...)
	return nil
}

// VaultStatusParams are vault_status' parameters.
type VaultStatusParams struct {
	Presentation
}

// VaultStatus reports the vault's counts, state and problems.
func (t *Tools) VaultStatus(ctx context.Context, _ VaultStatusParams) (any, error) {
	return t.Engine.Status(ctx)
}

// PropertyFilter is list_nodes' properties: each key's value must equal
// the note's. A value may be given typed, as JSON has it (2, true) or as
// text ("2", "true"): both match the same notes.
type PropertyFilter map[string]string

// UnmarshalJSON reads an object of strings, numbers and booleans.
func (f *PropertyFilter) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return invalid("properties", `use an object of values, e.g. {"status":"active","priority":2}`)
	}
	out := make(PropertyFilter, len(raw))
	for k, v := range raw {
		var s string
		if err := json.Unmarshal(v, &s); err == nil {
			out[k] = s
			continue
		}
		var x any
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		if err := d.Decode(&x); err != nil {
			return invalid("properties", "%s: %v", k, err)
		}
		switch x := x.(type) {
		case json.Number:
			out[k] = x.String()
		case bool:
			out[k] = strconv.FormatBool(x)
		default:
			return invalid("properties", "%s: use a string, number or boolean", k)
		}
	}
	*f = out
	return nil
}
