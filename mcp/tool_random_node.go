package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func randomNodeTool() *toolDef {
	return &toolDef{
		Tool: readTool("random_node",
			mcpgo.WithDescription("One random note (like get_node), optionally among notes with any of the tags; null when none. For discovery and serendipity."),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Only notes with any of these tags")),
			mcpgo.WithReadOnlyHintAnnotation(true), mcpgo.WithIdempotentHintAnnotation(false),
			mcpgo.WithDestructiveHintAnnotation(false), mcpgo.WithOpenWorldHintAnnotation(false),
		),
		run:    bind((*Tools).RandomNode),
		format: FormatMarkdown,
		fields: noteFields,
	}
}
