package mcp

import (
	"context"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// getHubsFields are the fields of get_hubs' rows. A hub list is for
// choosing where to look next, so its standard rows are id, title and
// score (HubsTokenBudget), the title only when some note's title is not
// its file name; tags and previews are for full detail or fields.
var getHubsFields = func() *fieldSet {
	s := rowFields([]string{"id", "title", "score"}, "score")
	s.titleIfNew = true
	return s
}()

func getHubsTool() *toolDef {
	return def((*Tools).GetHubs, FormatTOON, getHubsFields,
		pagedTool("get_hubs", vaultgraph.HubList,
			mcpgo.WithDescription("Most linked or central notes: a vault's main topics."),
			mcpgo.WithString("metric", enum(vaultgraph.Metrics, "Ranking")...),
		))
}

// GetHubsParams are get_hubs' parameters.
type GetHubsParams struct {
	Metric string `json:"metric"`
	// Paging's sortBy reorders the notes of the page; the metric chooses
	// which notes are on it.
	Paging
	Presentation
}

// GetHubs returns a page of the notes ranked by a centrality metric, most
// central first unless sortBy reorders the page.
func (t *Tools) GetHubs(ctx context.Context, p GetHubsParams) (any, error) {
	q, err := p.query(vaultgraph.HubList)
	if err != nil {
		return nil, err
	}
	res, err := t.Engine.HubsPage(ctx, graph.Metric(p.Metric), q)
	if err != nil {
		return nil, err
	}
	out := nodePage(res.Pages, nil)
	out.Metric = string(res.Metric)
	if res.Unranked > 0 && res.Page >= res.TotalPages {
		// The last page or past it: say where the ranking ends rather
		// than list notes that score 0.
		out.Hint = fmt.Sprintf("the %s ranking ends here; the %d unranked notes score 0", res.Metric, res.Unranked)
	}
	return addRanked(ctx, t, out, res.Hubs, p.wants(getHubsFields, "content"),
		func(h vaultgraph.Hub) string { return h.ID },
		func(h vaultgraph.Hub, item *NodeResponse) { item.Score = &h.Score })
}
