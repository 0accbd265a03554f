package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func randomNodeTool() *toolDef {
	return &toolDef{
		Tool: readTool("random_node",
			mcpgo.WithDescription("A random note, as get_node reads it, for discovery."),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Only notes with any of these")),
		),
		run:    bind((*Tools).RandomNode),
		format: FormatMarkdown,
		fields: noteFields,
	}
}
