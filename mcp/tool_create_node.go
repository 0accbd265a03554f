package mcp

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func createNodeTool() *toolDef {
	return &toolDef{
		Tool: writeTool("create_node", false, false,
			mcpgo.WithDescription("Create a note: file directory/Title.md (characters Obsidian forbids in file names removed; missing folders created), tags and properties in its frontmatter. content starting with a --- frontmatter block is the whole file; tags/properties apply on top, warnings name values they replace. NODE_EXISTS if the file exists. Returns the note's id and hash."),
			mcpgo.WithString("title", mcpgo.Required(), mcpgo.Description("Note title; names the file")),
			mcpgo.WithString("content", mcpgo.Description("Markdown body")),
			mcpgo.WithArray("tags", mcpgo.WithStringItems(), mcpgo.Description("Frontmatter tags")),
			mcpgo.WithString("directory", mcpgo.Description(descDirectory)),
			mcpgo.WithObject("properties", mcpgo.Description(`Frontmatter properties, e.g. {"status":"draft"}`)),
		),
		run:    bind((*Tools).CreateNode),
		format: FormatTOON,
	}
}
