package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

var searchByTagsFields = rowFields(nil)

func searchByTagsTool() *toolDef {
	return def((*Tools).SearchByTags, FormatTOON, searchByTagsFields,
		pagedTool("search_by_tags", vaultgraph.TaggedList,
			mcpgo.WithDescription(`Notes with any or all of the tags; "a" also matches "a/b".`),
			mcpgo.WithArray("tags", mcpgo.Required(), mcpgo.WithStringItems(), mcpgo.MinItems(1), mcpgo.Description("Tags, without #")),
			mcpgo.WithString("mode", enum(byTagsModes, descTagMode)...),
		))
}

// byTagsModes are the tag modes search_by_tags takes.
var byTagsModes = vaultgraph.Choice[vaultgraph.TagMode]{Values: []vaultgraph.TagMode{vaultgraph.TagsAny, vaultgraph.TagsAll}, Default: vaultgraph.TagsAny}

// SearchByTagsParams are search_by_tags' parameters.
type SearchByTagsParams struct {
	Tags []string `json:"tags"`
	Mode string   `json:"mode"`
	Paging
	Presentation
}

// SearchByTags lists notes with any or all of the tags.
func (t *Tools) SearchByTags(ctx context.Context, p SearchByTagsParams) (any, error) {
	tags := nonBlank(p.Tags)
	if len(tags) == 0 {
		return nil, invalid("tags", "give at least one tag")
	}
	mode, err := byTagsModes.Parse("mode", vaultgraph.TagMode(p.Mode))
	if err != nil {
		return nil, err
	}
	q, err := p.query(vaultgraph.TaggedList)
	if err != nil {
		return nil, err
	}
	q.Brief = true // rows: listItem (listPage)
	res, err := t.Engine.SearchByTagsPage(ctx, tags, mode == vaultgraph.TagsAll, q)
	if err != nil {
		return nil, err
	}
	return t.listPage(ctx, searchByTagsFields, res, p.Presentation)
}
