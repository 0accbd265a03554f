package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func deleteNodeTool() *toolDef {
	d := def((*Tools).DeleteNode, FormatTOON, nil,
		writeTool("delete_node", true, true,
			mcpgo.WithDescription("Delete a note; warnings list the links to it that become broken."),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description(descID)),
			mcpgo.WithString("ifMatch", mcpgo.Description(descIfMatch)),
		))
	d.deleted = true
	return d
}
