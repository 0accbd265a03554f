package mcp

import (
	"context"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// getRelatedFields are the fields of get_related's rows: why a note is
// related (distance, shared, via) comes with every preset but minimal's
// via.
var getRelatedFields = func() *fieldSet {
	s := rowFields([]string{"id", "title", "distance", "shared", "via", "tags"}, "score", "distance", "shared", "via")
	s.minimal = []string{"id", "title", "distance", "shared"}
	return s
}()

func getRelatedTool() *toolDef {
	d := def((*Tools).GetRelated, FormatTOON, getRelatedFields,
		pagedTool("get_related", vaultgraph.RelatedList,
			mcpgo.WithDescription("Notes closest to given notes by links (personalized PageRank)."),
			mcpgo.WithArray("ids", mcpgo.WithStringItems(), mcpgo.Description("Start notes")),
			mcpgo.WithString("query", mcpgo.Description("Or start from its top hits")),
			mcpgo.WithBoolean("excludeLinked", mcpgo.Description("Skip notes linked to a start")),
		))
	d.embeds = true // a query starts from its search's hits
	return d
}

// GetRelatedParams are get_related's parameters.
type GetRelatedParams struct {
	IDs           []string `json:"ids"`
	Query         string   `json:"query"`
	ExcludeLinked bool     `json:"excludeLinked"`
	Paging
	Presentation
}

// GetRelated lists the notes closest to the given notes (or to a query's
// best hits) in the link graph; nil when the notes given do not exist.
func (t *Tools) GetRelated(ctx context.Context, p GetRelatedParams) (any, error) {
	ids := nonBlank(p.IDs)
	if len(ids) == 0 && strings.TrimSpace(p.Query) == "" {
		return nil, invalid("ids", "give one or more notes, or a query")
	}
	q, err := p.query(vaultgraph.RelatedList)
	if err != nil {
		return nil, err
	}
	res, err := t.Engine.RelatedPage(ctx, vaultgraph.RelatedQuery{
		IDs: ids, Query: p.Query, ExcludeLinked: p.ExcludeLinked,
		SortBy: q.SortBy, Page: q.Page, Limit: q.Limit,
	})
	if err != nil || res == nil {
		return nil, err
	}
	out := nodePage(res.Pages, res.Warnings)
	out.Seeds = res.Seeds
	return addRanked(ctx, t, out, res.Notes, p.wants(getRelatedFields, "content"),
		func(r vaultgraph.RelatedNote) string { return r.ID },
		func(r vaultgraph.RelatedNote, item *NodeResponse) {
			item.Score, item.Distance, item.Shared = &r.Score, &r.Distance, &r.Shared
			item.Via = strings.Join(mapped(r.Via, func(id string) string { return t.title(ctx, id) }), "; ")
		})
}
