package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph"
)

// tagFields are list_tags' fields.
var tagFields = &fieldSet{
	all:      []string{"tag", "count"},
	minimal:  []string{"tag", "count"},
	standard: []string{"tag", "count"},
}

func listTagsTool() *toolDef {
	return &toolDef{
		Tool: readTool("list_tags",
			append([]mcpgo.ToolOption{
				mcpgo.WithDescription("Every tag with its note count, most used first."),
			}, pagedOptions(vaultgraph.TagList)...)...,
		),
		run:    bind((*Tools).ListTags),
		format: FormatTOON,
		fields: tagFields,
	}
}
