package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func deleteNodeTool() *toolDef {
	return &toolDef{
		Tool: writeTool("delete_node", true, true,
			mcpgo.WithDescription("Delete a note's file. deleted: false when there was none. Links to it (notes, canvases) become broken, listed in warnings, never rewritten."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithString("ifMatch", mcpgo.Description(descIfMatch)),
		),
		run:     bind((*Tools).DeleteNode),
		format:  FormatTOON,
		deleted: true,
	}
}
