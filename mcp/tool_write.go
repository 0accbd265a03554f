package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// writeTool declares a write tool with its annotations (format, which
// every tool takes, is described in the server instructions).
func writeTool(name string, destructive, idempotent bool, opts ...mcpgo.ToolOption) mcpgo.Tool {
	opts = append([]mcpgo.ToolOption{mcpgo.WithToolAnnotation(hints(false, destructive, idempotent))}, opts...)
	return mcpgo.NewTool(name, opts...)
}
