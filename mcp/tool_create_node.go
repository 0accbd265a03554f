package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func createNodeTool() *toolDef {
	return def((*Tools).CreateNode, FormatTOON, nil,
		writeTool("create_node", false, false,
			mcpgo.WithDescription("Create the note directory/Title.md; returns its id and hash."),
			mcpgo.WithString("title", mcpgo.Required(), mcpgo.Description("Names the file")),
			mcpgo.WithString("content", mcpgo.Description(descContent)),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Frontmatter tags")),
			mcpgo.WithString("directory", mcpgo.Description(descDirectory)),
			mcpgo.WithObject("properties", mcpgo.Description("Frontmatter properties"), noProperties),
		))
}
