package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

var tagFields = &fieldSet{
	all:      []string{"tag", "count"},
	minimal:  []string{"tag", "count"},
	standard: []string{"tag", "count"},
}

func listTagsTool() *toolDef {
	return def((*Tools).ListTags, FormatTOON, tagFields,
		pagedTool("list_tags", vaultgraph.TagList,
			mcpgo.WithDescription("Every tag with its note count, most used first."),
		))
}

// ListTagsParams are list_tags' parameters.
type ListTagsParams struct {
	Paging
	Presentation
}

// ListTags returns the vault's tags with their note counts, most used
// first unless sortBy says otherwise, a page at a time.
func (t *Tools) ListTags(ctx context.Context, p ListTagsParams) (any, error) {
	q, err := p.query(vaultgraph.TagList)
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
	return &TagsResponse{Tags: tags, PageInfo: pageInfo(res.Pages)}, nil
}
