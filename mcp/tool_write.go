package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// writeTool declares a write tool with its annotations and the format
// parameter.
func writeTool(name string, destructive, idempotent bool, opts ...mcpgo.ToolOption) mcpgo.Tool {
	opts = append([]mcpgo.ToolOption{
		mcpgo.WithReadOnlyHintAnnotation(false), mcpgo.WithDestructiveHintAnnotation(destructive),
		mcpgo.WithIdempotentHintAnnotation(idempotent), mcpgo.WithOpenWorldHintAnnotation(false),
	}, opts...)
	opts = append(opts, mcpgo.WithString("format", mcpgo.Enum(Formats...), mcpgo.Description(descFormat)))
	return mcpgo.NewTool(name, opts...)
}
