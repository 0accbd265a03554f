package mcp

import (
	"context"
	"errors"
	"math/rand/v2"

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

// neighborRows are the rows of id's neighbours nbs, made by row, with
// their direction: with content when withContent, and the sentence
// holding each incoming link when withContext.
func (t *Tools) neighborRows(ctx context.Context, id string, nbs []vaultgraph.Neighbor, withContent, withContext bool, row func(*vaultgraph.Node) NodeResponse) ([]NodeResponse, error) {
	var contexts map[string]string
	var err error
	if withContext {
		var in []string // the incoming neighbours
		for _, nb := range nbs {
			if nb.Direction != graph.Out {
				in = append(in, nb.ID)
			}
		}
		if contexts, err = t.Engine.LinkContexts(ctx, id, in); err != nil {
			return nil, err
		}
	}
	rows := make([]NodeResponse, 0, len(nbs))
	for _, nb := range nbs {
		if err := t.readContent(ctx, nb.Node, withContent); err != nil {
			return nil, err
		}
		nr := row(nb.Node)
		nr.Direction, nr.Context = string(nb.Direction), contexts[nb.ID]
		rows = append(rows, nr)
	}
	return rows, nil
}

// readContent reads the body of the listed note n when want. A note whose
// file went away since it was indexed is listed without content rather
// than failing the whole answer.
func (t *Tools) readContent(ctx context.Context, n *vaultgraph.Node, want bool) error {
	if !want {
		return nil
	}
	c, err := t.Engine.Content(ctx, n.ID)
	if errors.Is(err, vaultgraph.ErrNotFound) {
		c, err = "", nil
	}
	n.Content = c
	return err
}

// listItem is a note as a list holds it: content cut to 500 characters,
// no links and no per-note warnings (the presentation picks the fields).
func listItem(n *vaultgraph.Node) NodeResponse {
	r := nodeResponse(n, ListContentChars)
	r.Links, r.Attachments, r.BrokenLinks, r.Warnings = nil, nil, nil, nil
	return r
}

// listPage turns an Engine page of notes into the answer, reading content
// only when fields show it.
func (t *Tools) listPage(ctx context.Context, fields *fieldSet, res *vaultgraph.ListResult, p Presentation) (*ListResponse, error) {
	out := nodePage(res.Pages, nil)
	withContent := p.wants(fields, "content")
	for _, n := range res.Nodes {
		if err := t.readContent(ctx, n, withContent); err != nil {
			return nil, err
		}
		out.Nodes = append(out.Nodes, listItem(n))
	}
	return out, nil
}

// addRanked adds to out the row of each note of a ranking: the note read
// afresh (with content when withContent), then what fill sets (its score,
// why it ranks). A note removed since the ranking is skipped. It returns
// out as a tool's answer.
func addRanked[R any](ctx context.Context, t *Tools, out *ListResponse, ranked []R, withContent bool, id func(R) string, fill func(R, *NodeResponse)) (any, error) {
	for _, r := range ranked {
		n, err := t.Engine.GetNodeBrief(ctx, id(r), withContent) // a row: listItem
		if err != nil {
			return nil, err
		}
		if n == nil {
			continue
		}
		item := listItem(n)
		fill(r, &item)
		out.Nodes = append(out.Nodes, item)
	}
	return out, nil
}

// title is the title of the note id, or id when it has gone.
func (t *Tools) title(ctx context.Context, id string) string {
	if n, err := t.Engine.GetNode(ctx, id, false); err == nil && n != nil {
		return n.Title
	}
	return id
}

// nodePage is the answer for the Engine's page p of notes before its
// notes are added.
func nodePage(p vaultgraph.Pages, warnings []string) *ListResponse {
	return &ListResponse{Nodes: []NodeResponse{}, PageInfo: pageInfo(p), Warnings: warnings}
}

// note is n as a single note's answer, with its unlinked mentions when
// withMentions.
func (t *Tools) note(ctx context.Context, n *vaultgraph.Node, withMentions bool) (*NodeResponse, error) {
	r := nodeResponse(n, PrimaryContentChars)
	if !withMentions {
		return &r, nil
	}
	ms, _, warnings, err := t.Engine.Mentions(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	r.Mentions, r.Warnings = ms, append(r.Warnings, warnings...)
	return &r, nil
}
