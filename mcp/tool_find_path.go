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
			mcpgo.WithDescription("Shortest chain of links between two notes: {path: [ids], length}, or null when none. Links count both ways unless directed is true."),
			mcpgo.WithString("source", mcpgo.Required(), mcpgo.Description("Start note: path or name")),
			mcpgo.WithString("target", mcpgo.Required(), mcpgo.Description("End note: path or name")),
			mcpgo.WithBoolean("directed", mcpgo.DefaultBool(false), mcpgo.Description("Follow links only from linking note to linked note")),
		),
		run:    bind((*Tools).FindPath),
		format: FormatMarkdown,
		fields: pathFields,
	}
}
