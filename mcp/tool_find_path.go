package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// pathFields are find_path's fields.
var pathFields = &fieldSet{
	all:      []string{"path", "length", "titles"},
	minimal:  []string{"path", "length"},
	standard: []string{"path", "length"},
}

func findPathTool() *toolDef {
	return &toolDef{
		Tool: readTool("find_path",
			mcpgo.WithDescription("Shortest chain of links between two notes; null when none."),
			mcpgo.WithString("source", mcpgo.Required(), mcpgo.Description("Start note")),
			mcpgo.WithString("target", mcpgo.Required(), mcpgo.Description("End note")),
			mcpgo.WithBoolean("directed", mcpgo.Description("Follow links one way only")),
		),
		run:    bind((*Tools).FindPath),
		format: FormatMarkdown,
		fields: pathFields,
	}
}
