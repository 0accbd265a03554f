package mcp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// Tools are the handlers of vaultgraph's tools over one Engine. Each
// handler validates its parameters before touching the Engine and returns
// the response value to encode, or nil for a not-found read.
type Tools struct {
	Engine *vaultgraph.Engine
	// Rand picks random nodes; nil uses a random seed.
	Rand *rand.Rand
}

// Bounds and defaults of the tools' parameters (SPEC.md, seed 004).
const (
	DefaultNeighborsLimit = 20
	MaxNeighborsLimit     = 50
	DefaultHubsLimit      = 10
	MaxHubsLimit          = 50
	DefaultTagsLimit      = 20
	MaxTagsLimit          = 100
	MaxNodeNeighbors      = 20 // neighbours shown by get_node depth 1
)

// limit applies a default and checks bounds.
func limit(name string, v, def, max int) (int, error) {
	if v == 0 {
		return def, nil
	}
	if v < 1 || v > max {
		return 0, invalid(name, "%d is out of range: use 1 to %d", v, max)
	}
	return v, nil
}

// GetNodeParams are get_node's parameters.
type GetNodeParams struct {
	ID    string `json:"id"`
	Depth int    `json:"depth"`
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
	n, err := t.Engine.GetNode(ctx, p.ID, true)
	if err != nil || n == nil {
		return nil, err
	}
	r := nodeResponse(n, PrimaryContentChars)
	if p.Depth == 1 {
		in, out := n.InDegree, n.OutDegree
		r.IncomingCount, r.OutgoingCount = &in, &out
		nbs, _, _, err := t.Engine.Neighbors(ctx, n.ID, graph.Both, MaxNodeNeighbors)
		if err != nil {
			return nil, err
		}
		r.Neighbors = []NodeResponse{}
		for _, nb := range nbs {
			if nb.Content, err = t.content(ctx, nb.ID); err != nil {
				return nil, err
			}
			nr := nodeResponse(nb.Node, NeighborContentChars)
			nr.Direction = string(nb.Direction)
			nr.Properties, nr.Warnings, nr.Hash, nr.Created, nr.Modified = nil, nil, "", "", ""
			r.Neighbors = append(r.Neighbors, nr)
		}
	}
	return r, nil
}

// GetNeighborsParams are get_neighbors' parameters.
type GetNeighborsParams struct {
	ID        string `json:"id"`
	Direction string `json:"direction"`
	Limit     int    `json:"limit"`
}

// GetNeighbors lists the notes linked with a note; nil when the note does
// not exist.
func (t *Tools) GetNeighbors(ctx context.Context, p GetNeighborsParams) (any, error) {
	if strings.TrimSpace(p.ID) == "" {
		return nil, invalid("id", "required")
	}
	dir := graph.Direction(p.Direction)
	switch dir {
	case "":
		dir = graph.Both
	case graph.In, graph.Out, graph.Both:
	default:
		return nil, invalid("direction", "%q: use in, out or both", p.Direction)
	}
	lim, err := limit("limit", p.Limit, DefaultNeighborsLimit, MaxNeighborsLimit)
	if err != nil {
		return nil, err
	}
	nbs, total, warnings, err := t.Engine.Neighbors(ctx, p.ID, dir, lim)
	if err != nil || nbs == nil { // nil: no such note
		return nil, err
	}
	res := ListResponse{Nodes: []NodeResponse{}, Total: total, Warnings: warnings}
	for _, nb := range nbs {
		if nb.Content, err = t.content(ctx, nb.ID); err != nil {
			return nil, err
		}
		nr := listItem(nb.Node)
		nr.Direction = string(nb.Direction)
		res.Nodes = append(res.Nodes, nr)
	}
	if total > len(nbs) {
		res.Hint = fmt.Sprintf("%d of %d neighbours shown: raise limit (max %d) or filter by direction", len(nbs), total, MaxNeighborsLimit)
	}
	return res, nil
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

// listItem is a note as a list shows it: content cut to 500 characters
// and no per-note detail beyond tags and links.
func listItem(n *vaultgraph.Node) NodeResponse {
	r := nodeResponse(n, ListContentChars)
	r.Properties, r.Hash, r.Created, r.Modified = nil, "", "", ""
	r.Aliases, r.Attachments, r.BrokenLinks = nil, nil, nil
	return r
}

// FindPathParams are find_path's parameters.
type FindPathParams struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	Directed bool   `json:"directed"`
}

// PathResponse is find_path's answer: the path, its length in links, and
// warnings such as a note name shared by several notes.
type PathResponse struct {
	Path     []string `json:"path"`
	Length   int      `json:"length"`
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
	if err != nil || path == nil {
		return nil, err
	}
	return PathResponse{Path: path.Path, Length: path.Length, Warnings: warnings}, nil
}

// GetHubsParams are get_hubs' parameters.
type GetHubsParams struct {
	Metric string `json:"metric"`
	Limit  int    `json:"limit"`
}

// GetHubs returns the most central notes.
func (t *Tools) GetHubs(ctx context.Context, p GetHubsParams) (any, error) {
	m := graph.Metric(p.Metric)
	switch m {
	case "":
		m = graph.InDegree
	case graph.InDegree, graph.OutDegree, graph.PageRank:
	default:
		return nil, invalid("metric", "%q: use in_degree, out_degree or pagerank", p.Metric)
	}
	lim, err := limit("limit", p.Limit, DefaultHubsLimit, MaxHubsLimit)
	if err != nil {
		return nil, err
	}
	return t.Engine.Hubs(ctx, m, lim)
}

// SearchByTagsParams are search_by_tags' parameters.
type SearchByTagsParams struct {
	Tags  []string `json:"tags"`
	Mode  string   `json:"mode"`
	Limit int      `json:"limit"`
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
	lim, err := limit("limit", p.Limit, DefaultTagsLimit, MaxTagsLimit)
	if err != nil {
		return nil, err
	}
	nodes, total, err := t.Engine.SearchByTags(ctx, tags, all, lim)
	if err != nil {
		return nil, err
	}
	res := ListResponse{Nodes: []NodeResponse{}, Total: total}
	for _, n := range nodes {
		if n.Content, err = t.content(ctx, n.ID); err != nil {
			return nil, err
		}
		res.Nodes = append(res.Nodes, listItem(n))
	}
	if total > len(nodes) {
		res.Hint = fmt.Sprintf("%d of %d notes shown: raise limit (max %d) or use list_nodes to page", len(nodes), total, MaxTagsLimit)
	}
	return res, nil
}

// ListNodesParams are list_nodes' parameters.
type ListNodesParams struct {
	Folder         string            `json:"folder"`
	Tags           []string          `json:"tags"`
	TagMode        string            `json:"tagMode"`
	Properties     map[string]string `json:"properties"`
	CreatedAfter   string            `json:"createdAfter"`
	CreatedBefore  string            `json:"createdBefore"`
	ModifiedAfter  string            `json:"modifiedAfter"`
	ModifiedBefore string            `json:"modifiedBefore"`
	Orphans        bool              `json:"orphans"`
	BrokenLinks    bool              `json:"brokenLinks"`
	SortBy         []string          `json:"sortBy"`
	Page           int               `json:"page"`
	Limit          int               `json:"limit"`
}

// ListNodes browses notes with filters, sorting and pages.
func (t *Tools) ListNodes(ctx context.Context, p ListNodesParams) (any, error) {
	switch vaultgraph.TagMode(p.TagMode) {
	case "", vaultgraph.TagsAny, vaultgraph.TagsAll, vaultgraph.TagsNone:
	default:
		return nil, invalid("tagMode", "%q: use any, all or none", p.TagMode)
	}
	q := vaultgraph.ListQuery{
		Folder: p.Folder, Tags: p.Tags, TagMode: vaultgraph.TagMode(p.TagMode),
		Properties: p.Properties, Orphans: p.Orphans, BrokenLinks: p.BrokenLinks,
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
	out := ListResponse{Nodes: []NodeResponse{}, Total: res.Total, Page: res.Page, TotalPages: res.TotalPages}
	for _, n := range res.Nodes {
		if n.Content, err = t.content(ctx, n.ID); err != nil {
			return nil, err
		}
		item := listItem(n)
		item.Created, item.Modified = formatTime(n.Created), formatTime(n.Modified)
		out.Nodes = append(out.Nodes, item)
	}
	out.Hint = pageHint(res.Page, res.TotalPages)
	return out, nil
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

// ListTags returns every tag with its note count.
func (t *Tools) ListTags(ctx context.Context) (any, error) {
	tags, err := t.Engine.ListTags(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"tags": tags, "total": len(tags)}, nil
}

// RandomNodeParams are random_node's parameters.
type RandomNodeParams struct {
	Tags []string `json:"tags"`
}

// RandomNode returns one random note (with any of the tags), or nil.
func (t *Tools) RandomNode(ctx context.Context, p RandomNodeParams) (any, error) {
	n, err := t.Engine.RandomNode(ctx, t.Rand, p.Tags)
	if err != nil || n == nil {
		return nil, err
	}
	if n.Content, err = t.content(ctx, n.ID); err != nil {
		return nil, err
	}
	return nodeResponse(n, PrimaryContentChars), nil
}

// VaultStatus reports the vault's counts, state and problems.
func (t *Tools) VaultStatus(ctx context.Context) (any, error) {
	return t.Engine.Status(ctx)
}
