package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// searchByTagsFields are the fields of search_by_tags' rows.
var searchByTagsFields = rowFields()

func searchByTagsTool() *toolDef {
	return &toolDef{
		Tool: readTool("search_by_tags",
			append([]mcpgo.ToolOption{
				mcpgo.WithDescription(`Notes with any (default) or all of the tags, paged, with total. Tags match without '#', ignoring case; "project" also matches "project/alpha". Use list_tags to see the tags.`),
				mcpgo.WithArray("tags", mcpgo.Required(), mcpgo.WithStringItems(), mcpgo.MinItems(1), mcpgo.Description("Tags to match")),
				mcpgo.WithString("mode", mcpgo.Enum("any", "all"), mcpgo.DefaultString("any"), mcpgo.Description("Match any or all of tags")),
			}, pagedOptions(vaultgraph.TaggedList)...)...,
		),
		run:    bind((*Tools).SearchByTags),
		format: FormatTOON,
		fields: searchByTagsFields,
	}
}
