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
				mcpgo.WithDescription(`Notes with any or all of the tags; "a" also matches "a/b".`),
				mcpgo.WithArray("tags", mcpgo.Required(), mcpgo.WithStringItems(), mcpgo.MinItems(1), mcpgo.Description("Tags, without #")),
				mcpgo.WithString("mode", mcpgo.Enum("any", "all"), mcpgo.Description(descTagMode)),
			}, pagedOptions(vaultgraph.TaggedList)...)...,
		),
		run:    bind((*Tools).SearchByTags),
		format: FormatTOON,
		fields: searchByTagsFields,
	}
}
